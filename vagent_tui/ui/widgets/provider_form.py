"""The numbering provider form (`NumberingScreen`'s ``a`` and ``e``): the provider's
credentials typed masked, one field per key the platform names (`configFields`).

A credential is never shown, copied (`SecretInput` copies and cuts nothing), logged or
put in a crash report (`crash.remember_secret` as soon as the form reads it): what the
journal keeps is the names of the keys set (`ProviderRequest.journal`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import ValidationError
from textual.widgets import Input, Select

from vagent_tui import crash
from vagent_tui.api.numbering_models import NumberingProvider, ProviderRequest
from vagent_tui.ui.widgets.entry_forms import FormErrors, FormModal, Send, text_input
from vagent_tui.ui.widgets.form import FormField, errors_by_field
from vagent_tui.ui.widgets.secret_input import SecretInput


def secret_input(name: str, placeholder: str) -> SecretInput:
    return SecretInput(placeholder=placeholder, id=f"form-{name}")


def _yes_no(name: str, value: bool) -> Select[str]:
    return Select([("yes", "yes"), ("no", "no")], value="yes" if value else "no",
                  allow_blank=False, id=f"form-{name}", compact=True)  # fmt: skip


class ProviderForm(FormModal):
    """Add a provider (every credential required, default and enabled asked) or change
    its credentials (only those typed are sent, the others kept)."""

    def __init__(self, send: Send, provider: NumberingProvider, *, adding: bool,
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(send, **kwargs)
        self.provider = provider
        self.adding = adding
        self.keys = list(provider.config_fields)
        self.CONFIRM = "Add" if adding else "Save"

    @property
    def title_text(self) -> Any:
        from vagent_tui.ui.text import safe

        verb = "Add the numbering provider" if self.adding else "Change the credentials of"
        return safe(f"{verb} {self.provider.provider_id}")

    def make_fields(self) -> Iterable[FormField]:
        if self.adding:
            yield FormField("Default", _yes_no("default", False), name="default",
                            hint="numbers are bought through the default")  # fmt: skip
            yield FormField("Enabled", _yes_no("enabled", True), name="enabled")
        hint = "masked; required" if self.adding else "masked; empty: unchanged"
        if not self.keys:
            yield FormField("Credential name", text_input("credential-name", "apiKey"),
                            name="credential_name", hint="as the provider names it")  # fmt: skip
            yield FormField("Credential", secret_input("secret-0", "typed masked"),
                            name="secret_0", hint=hint)  # fmt: skip
            return
        for n, key in enumerate(self.keys):
            yield FormField(key, secret_input(f"secret-{n}", "typed masked"), name=f"secret_{n}",
                            hint=hint)  # fmt: skip

    def _secret(self, n: int) -> str:
        widget = self.query_one(f"#form-secret-{n}", Input)
        return widget.value

    def build_request(self) -> ProviderRequest:
        errors: dict[str, str] = {}
        config: dict[str, str] = {}
        names = self.keys or [self.value("credential_name").strip()]
        for n, key in enumerate(names):
            secret = self._secret(n)
            crash.remember_secret(secret)  # masked in any crash report from now on
            if secret:
                config[key] = secret
            elif self.adding:
                errors[f"secret_{n}"] = "required"
        if not self.keys and not names[0]:
            errors["credential_name"] = "required"
        if not self.adding and not config:
            errors["secret_0"] = "type at least one credential to change (the others are kept)"
        if errors:
            raise FormErrors(errors)
        values: dict[str, Any] = {"provider_id": self.provider.provider_id, "config": config}
        if self.adding:
            values["default"] = self.value("default") == "yes"
            values["enabled"] = self.value("enabled") == "yes"
        try:
            return ProviderRequest(**values)
        except ValidationError as exc:
            found = errors_by_field(exc)
        raise FormErrors({"": "; ".join(found.values())})
