"""Numbering providers: through whom an organization's numbers are bought (a reseller or
partner key; ``GET /numberingProviders``, ``POST``/``PUT /numberingProvider``).

The list is every provider the platform supports, for the organization selected (an
agent account stands for its organization): configured or not, the default, enabled,
and the names of the credentials set (never their values: the client drops them as it
reads). ``a`` adds the highlighted provider with its credentials (typed masked), ``e``
changes its credentials, ``m`` makes it the default, ``o`` enables or disables it; each
is one write, asked first where it changes how numbers are bought, journaled with the
names of the credentials set only.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable
from typing import ClassVar, cast

from rich.text import Text
from textual import work
from textual.binding import BindingType
from textual.widget import Widget
from textual.widgets import Static

from vagent_tui.api.models import Envelope
from vagent_tui.api.numbering import organization_target
from vagent_tui.api.numbering_models import NumberingProvider, ProviderRequest
from vagent_tui.api.targets import LevelTarget
from vagent_tui.services.session import Connection
from vagent_tui.ui.dialogs import ConfirmModal
from vagent_tui.ui.safety import WRITES, Key
from vagent_tui.ui.screens.base import BaseScreen, who_of
from vagent_tui.ui.text import inert, safe
from vagent_tui.ui.widgets.entry_forms import FormReadBack
from vagent_tui.ui.widgets.record_table import RecordTable, record_table
from vagent_tui.ui.widgets.status import describe_error
from vagent_tui.ui.widgets.table_filter import filter_binding
from vagent_tui.ui.writes import Write, Written, listed
from vagent_tui.words import counted

NO_ORGANIZATION = (
    "Numbering providers belong to an organization: choose an organization or "
    "one of its agent accounts (Scope, 1)"
)


def org_of(connection: Connection) -> LevelTarget | None:
    """The organization the connection acts for (`organization_target`)."""
    return organization_target(connection.acting_as)


def _short(name: object, width: int = 40) -> str:
    """A provider's name, only shown: kept short, so the columns after it stay in view."""
    text = name if isinstance(name, str) else ""
    return text if len(text) <= width else text[: width - 1] + "…"


def provider_cells(provider: NumberingProvider) -> tuple[Text, ...]:
    configured = provider.is_configured

    def flag(value: bool | None) -> Text:
        if not configured:
            return Text("—", style="dim")
        return Text("yes" if value else "no")

    return (
        safe(provider.provider_id, style="bold"),
        safe(_short(provider.name)),
        Text("configured" if configured else "not configured", style="" if configured else "dim"),
        flag(provider.is_default),
        flag(provider.enabled),
        safe(", ".join(provider.config_set) or "—"),
    )


class NumberingScreen(BaseScreen):
    """An organization's numbering providers: list, add, credentials, default, enable."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Key(
            "a",
            "add",
            "Add",
            id="numbering.add",
            does=WRITES,
            tooltip="Configure the highlighted provider with its credentials",
        ),
        Key(
            "e",
            "edit",
            "Credentials",
            id="numbering.edit",
            does=WRITES,
            tooltip="Change the highlighted provider's credentials (typed masked)",
        ),
        Key(
            "m",
            "make_default",
            "Default",
            id="numbering.default",
            does=WRITES,
            tooltip="Make the highlighted provider the organization's default",
        ),
        Key(
            "o",
            "switch",
            "On/off",
            id="numbering.switch",
            does=WRITES,
            tooltip="Enable or disable the highlighted provider",
        ),
        filter_binding("numbering"),  # last: the footer drops it first
    ]
    CSS_PATH = "numbering.tcss"

    def compose_body(self) -> Iterable[Widget]:
        yield Static("", id="numbering-header", markup=False)
        yield record_table(
            "numbering-table",
            (
                ("Provider", "id"),
                ("Name", "name"),
                ("Status", "status"),
                ("Default", "default"),
                ("Enabled", "enabled"),
                ("Credentials set", "config"),
            ),
            key=lambda provider: provider.provider_id,
        )
        yield Static(NO_ORGANIZATION, id="numbering-empty", markup=False)

    @property
    def table(self) -> RecordTable[NumberingProvider]:
        return cast(
            "RecordTable[NumberingProvider]", self.query_one("#numbering-table", RecordTable)
        )

    def on_mount(self) -> None:
        self.table.focus()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        self.load_providers()

    @work(exclusive=True, group="numbering-load", exit_on_error=False)
    async def load_providers(self, highlight: str | None = None, *, quiet: bool = False) -> None:
        header = self.query_one("#numbering-header", Static)
        if org_of(self.connection) is None:
            self.table.show([], provider_cells)
            self.set_class(True, "-empty")
            header.update("")
            self.status.clear()  # the screen says it
            return
        self.set_class(False, "-empty")
        if not quiet:
            self.status.busy("Loading the numbering providers")
        ok, providers = await self.load(
            lambda c: c.api.list_numbering_providers(target=org_of(c)), busy=self.table
        )
        if not ok or providers is None:
            return
        self.table.show(providers, provider_cells, keep=highlight)
        configured = sum(1 for p in providers if p.is_configured)
        header.update(
            safe(
                f"{configured} of {counted(len(providers), 'numbering provider')} configured "
                f"for {self.organization}"
            )
        )
        if not quiet:
            self.status.ok(
                f"{counted(len(providers), 'numbering provider')}, {configured} configured"
            )

    @property
    def organization(self) -> str:
        """The organization the screen is for, in words: the one selected, or an agent
        account's (``organization #1110, to which Acme Dental Front Desk (#1111) belongs``)."""
        org, who = org_of(self.connection), who_of(self, with_id=True)
        acting = self.connection.acting_as
        if org is None or (acting is not None and acting.id == org.account_id):
            return who
        return f"organization #{org.account_id}, to which {who} belongs"

    @property
    def highlighted(self) -> NumberingProvider | None:
        return self.table.highlighted_record

    def _reload_after(self, written: Written[object], provider_id: str) -> None:
        self.load_providers(provider_id, quiet=written.outcome == "done")

    # ------------------------------------------------------------------ add, credentials

    @staticmethod
    def _read_back(provider_id: str, *, present: str, absent: str) -> FormReadBack:
        def read(c: Connection, _request: object) -> Awaitable[str]:
            return listed(
                c.api.list_numbering_providers(target=org_of(c)),
                lambda p: p.provider_id == provider_id and p.is_configured,
                present=present,
                absent=absent,
            )

        return read

    def _form(self, adding: bool) -> None:
        from vagent_tui.ui.widgets.provider_form import ProviderForm

        provider = self.highlighted
        if provider is None:
            self.status.info("No provider highlighted")
            return
        if org_of(self.connection) is None:
            self.status.info(NO_ORGANIZATION)
            return
        pid = provider.provider_id
        if adding and provider.is_configured:
            self.status.info(f"{pid} is configured already: e changes its credentials")
            return
        if not adding and not provider.is_configured:
            self.status.info(f"{pid} is not configured: a adds it with its credentials")
            return

        async def send(c: Connection, request: ProviderRequest) -> Envelope:
            target = org_of(c)
            if adding:
                return await c.api.create_numbering_provider(request, target=target)
            return await c.api.update_numbering_provider(request, target=target)

        def done(result: tuple[ProviderRequest, Envelope] | None) -> None:
            if result is None:
                return
            request, reply = result
            names = ", ".join(request.config or {})
            self.status.ok(f"{reply.message or 'Saved'}: {pid} ({names} set)")
            self.load_providers(pid, quiet=True)

        read_back = self._read_back(
            pid, present=f"{pid} is configured now.", absent=f"{pid} is not configured."
        )
        form = ProviderForm(
            send,
            provider,
            adding=adding,
            subtitle=f"For {inert(self.organization, limit=120)}",
            read_back=read_back,
            after_unknown=lambda: self.load_providers(pid, quiet=True),
        )
        self.app.push_screen(form, done)

    def action_add(self) -> None:
        self._form(adding=True)

    def action_edit(self) -> None:
        self._form(adding=False)

    # ------------------------------------------------------------------ default, enabled

    def _change(
        self,
        provider: NumberingProvider,
        request: ProviderRequest,
        *,
        label: str,
        question: ConfirmModal,
        done: str,
        state: str,
    ) -> None:
        pid = provider.provider_id

        def holds(p: NumberingProvider) -> bool:
            if request.default is not None:
                return p.provider_id == pid and p.is_default is True
            return p.provider_id == pid and p.enabled is request.enabled

        self.write(
            Write[Envelope](
                "numbering-change",
                label,
                lambda c: c.api.update_numbering_provider(request, target=org_of(c)),
                confirm=question,
                done=lambda reply: f"{reply.message or 'Numbering provider updated'}: {done}",
                read_back=lambda c: listed(
                    c.api.list_numbering_providers(target=org_of(c)),
                    holds,
                    present=f"{pid} is {state} now.",
                    absent=f"{pid} is not {state}.",
                ),
                failed=lambda exc: f"Could not change {pid}: {describe_error(exc)}",
                after=lambda written: self._reload_after(written, pid),
            )
        )

    def _configured(self) -> NumberingProvider | None:
        provider = self.highlighted
        if provider is None:
            self.status.info("No provider highlighted")
            return None
        if not provider.is_configured:
            self.status.info(f"{provider.provider_id} is not configured: a adds it first")
            return None
        try:  # the id is the platform's text, sent back as it is: checked before asking
            ProviderRequest(provider_id=provider.provider_id)
        except ValueError:
            self.status.error(f"{provider.provider_id} is no provider id the console can send")
            return None
        return provider

    def action_make_default(self) -> None:
        provider = self._configured()
        if provider is None:
            return
        pid = provider.provider_id
        if provider.is_default:
            self.status.info(f"{pid} is the default already")
            return
        others = [
            p.provider_id for p in self.table.records if p.is_default and p.provider_id != pid
        ]
        was = f" instead of {', '.join(others)}" if others else ""
        body = (
            f"Make {pid} the default numbering provider of {self.organization}{was}?\n"
            f"Numbers bought from now on go through {pid}."
        )
        self._change(
            provider,
            ProviderRequest(provider_id=pid, default=True),
            label=f"Making {pid} the default",
            question=ConfirmModal(
                "Change the default provider", body, confirm_label="Make default"
            ),
            done=f"{pid} is the default",
            state="the default",
        )

    def action_switch(self) -> None:
        provider = self._configured()
        if provider is None:
            return
        pid = provider.provider_id
        enable = provider.enabled is False
        verb = "Enable" if enable else "Disable"
        body = f"{verb} {pid} for {self.organization}?\n" + (
            "Numbers can be bought through it again."
            if enable
            else "No number can be bought through it until it is enabled again; numbers "
            "bought through it stay."
        )
        self._change(
            provider,
            ProviderRequest(provider_id=pid, enabled=enable),
            label=f"{verb[:-1]}ing {pid}",
            question=ConfirmModal(f"{verb} a numbering provider", body, confirm_label=verb),
            done=f"{pid} {'enabled' if enable else 'disabled'}",
            state="enabled" if enable else "disabled",
        )
