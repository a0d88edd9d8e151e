"""The relay configuration form of the Webhooks screen (one relay type at a time)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pydantic import ValidationError
from rich.text import Text
from textual.widgets import TextArea

from vagent_tui.api.models import RelayConfig, RelayRequest, header_lines, parse_header_lines
from vagent_tui.ui.text import safe
from vagent_tui.ui.widgets.entry_forms import (
    FormErrors,
    FormModal,
    FormReadBack,
    Send,
    shown,
    text_input,
)
from vagent_tui.ui.widgets.form import FormField, errors_by_field


class RelayForm(FormModal):
    """Configure one relay type: URL, timeout, headers (one ``Name: value`` a line), codes.

    Opened on a configured type it starts from the stored configuration and replaces it
    as a whole. The headers travel as the platform publishes them, an array of
    single-key objects (`RelayRequest`).
    """

    CONFIRM = "Save"

    def __init__(
        self,
        relay_type: str,
        config: RelayConfig | None,
        send: Send,
        *,
        subtitle: str = "",
        after_unknown: Callable[[], object] | None = None,
        read_back: FormReadBack | None = None,
    ) -> None:
        self.relay_type = relay_type
        self.config = config
        self.initial = {
            "url": config.url if config else "",
            "timeout": "" if config is None or config.timeout is None else str(config.timeout),
            "headers": header_lines(config.headers) if config else "",
            "success_status_codes": ", ".join(map(str, (config.success_status_codes or [])))
            if config
            else "",
        }
        if any(shown(v, multiline=k == "headers") != (v or "") for k, v in self.initial.items()):
            # Characters a terminal would obey are shown as pictures: saving sends those.
            subtitle += (
                "\nSome stored values hold characters that cannot be shown as they are: "
                "they are shown cleaned, and saving sends them as shown."
            )
        super().__init__(send, subtitle=subtitle, after_unknown=after_unknown, read_back=read_back)

    def on_mount(self) -> None:
        super().on_mount()
        # A header is usually added: the cursor waits after the last one.
        headers = self.query_one("#form-headers", TextArea)
        headers.move_cursor(headers.document.end)

    @property
    def title_text(self) -> Text:
        verb = "Edit" if self.config is not None else "Configure"
        title = Text(f"{verb} the relay of type ")
        title.append(safe(self.relay_type, "bold"))
        return title

    def make_fields(self) -> Iterable[FormField]:
        yield FormField(
            "URL",
            text_input("url", "https://relay.example.com/in", shown(self.initial["url"])),
            name="url",
            hint="http(s), where the events are relayed",
        )
        yield FormField(
            "Timeout",
            text_input("timeout", "5000", shown(self.initial["timeout"])),
            name="timeout",
            hint="milliseconds; blank: the platform's default",
        )
        headers = TextArea(
            shown(self.initial["headers"], multiline=True), id="form-headers", compact=True
        )
        headers.cursor_blink = False
        yield FormField("Headers", headers, name="headers", hint="one Name: value a line")
        yield FormField(
            "Success status codes",
            text_input(
                "success_status_codes", "200, 202", shown(self.initial["success_status_codes"])
            ),
            name="success_status_codes",
            hint="blank: the platform's default",
        )

    def build_request(self) -> RelayRequest:
        errors: dict[str, str] = {}
        values: dict[str, object] = {"url": self.value("url")}
        timeout = self.value("timeout").strip()
        if timeout:
            if timeout.isascii() and timeout.isdecimal():
                values["timeout"] = int(timeout)
            else:
                errors["timeout"] = "a whole number of milliseconds"
        try:
            values["headers"] = parse_header_lines(self.value("headers"))
        except ValueError as exc:
            errors["headers"] = str(exc)
        codes = self.value("success_status_codes").replace(",", " ").split()
        if codes:
            if all(c.isascii() and c.isdecimal() for c in codes):
                values["success_status_codes"] = [int(c) for c in codes]
            else:
                errors["success_status_codes"] = "HTTP status codes, e.g. 200, 202"
        try:
            request = RelayRequest.model_validate(values)
        except ValidationError as exc:
            errors = errors_by_field(exc) | errors
        else:
            if not errors:
                return request
        if not self.value("url").strip():
            errors["url"] = "required"
        raise FormErrors(errors)
