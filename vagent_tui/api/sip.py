"""SIP outbound routes and the agent's SIP registration (CONTRACT choices 80 to 89).

The whitelist's three calls stay in `client` (they came first). Every call here acts on
the selected account (``targetAccountId``, which the file does not declare and the
vendor's notes send on every one: choice 80). The registration's password is journaled
as ``***``, so the transport masks it in any error and message of the save (a platform
that echoes it back does not put it on the screen: `vagent_tui.api.echoes`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vagent_tui.api import models as m
from vagent_tui.api.errors import ApiError, ReadOnlyRefused
from vagent_tui.api.replies import Json, Reply, no_list
from vagent_tui.api.streaming import StreamingTransport

if TYPE_CHECKING:
    from vagent_tui.api import sip_models as s

ROUTES = "/sip/outboundRoutes"
REGISTRATION = "/sip/registration"
AVAILABLE = "/sip/registration/available"


class SipApi(StreamingTransport):
    """Outbound routes and the registration of the selected account."""

    # ------------------------------------------------------------------ routes

    async def list_sip_routes(self, *, target: int | None = None) -> list[str]:
        """``GET /sip/outboundRoutes``: the routes, as the platform holds them."""

        from vagent_tui.api import sip_models as s  # built at the area's first use

        def parse(payload: Json) -> list[str]:
            if payload.get("routes") is None:
                raise no_list("routes", ROUTES)
            reply = self._parse(s.SipRoutes, payload, url=ROUTES)
            # A null or a non-text item names no route that could be removed: skipped.
            return [r for r in reply.routes or [] if isinstance(r, str) and r]

        return await self.get(ROUTES, parse, target=target)

    async def add_sip_route(self, route: str, *, target: int | None = None) -> s.SipRoutes:
        """``POST /sip/outboundRoutes``: the route checked before it is sent."""
        from vagent_tui.api import sip_models as s

        body = s.SipRouteRequest(route=route).wire()
        # The file also lists a 200 "OK" with no body: taken as a success (choice 81).
        payload = await self.request("POST", ROUTES, target=target, json=body,
                                     body_optional=True)  # fmt: skip
        return self._parse(s.SipRoutes, payload, method="POST", url=ROUTES)

    async def delete_sip_route(self, route: str, *, target: int | None = None) -> s.SipRoutes:
        """``DELETE /sip/outboundRoutes`` with ``{route}`` in the body: the route as
        listed (not checked again: one the platform holds is removable as it is)."""
        from vagent_tui.api import sip_models as s

        payload = await self.request("DELETE", ROUTES, target=target, json={"route": route})
        return self._parse(s.SipRoutes, payload, method="DELETE", url=ROUTES)

    # ------------------------------------------------------------------ registration

    async def check_sip_aor(
        self, query: s.AorQuery, *, target: int | None = None
    ) -> s.AorAvailability:
        """``POST /sip/registration/available``: a read, though a POST (``reads``)."""
        from vagent_tui.api import sip_models as s

        payload = await self.request(
            "POST", AVAILABLE, target=target, json=query.wire(), reads=True
        )
        return self._parse(s.AorAvailability, payload, method="POST", url=AVAILABLE)

    async def get_sip_registration(self, *, target: int | None = None) -> s.SipRegistration | None:
        """``GET /sip/registration``: the registration (``registration`` in the reply, or
        the reply itself), or None (404: there is none)."""
        from vagent_tui.api import sip_models as s

        def parse(payload: Json) -> s.SipRegistration:
            record = payload.get("registration")
            return self._parse(s.SipRegistration, record if isinstance(record, dict) else payload,
                               url=REGISTRATION)  # fmt: skip

        try:
            return await self.get(REGISTRATION, parse, target=target)
        except ApiError as exc:
            if exc.status == 404:
                return None
            raise

    async def save_sip_registration(
        self, registration: s.SipRegistrationRequest, *, target: int | None = None
    ) -> s.RegistrationSaved:
        """``POST /sip/registration``: 201 created, 200 updated (the status says which).

        Sent once; journaled with the password as ``***``; an error's text never holds
        the password, even when the platform echoes it.
        """
        from vagent_tui.api import sip_models as s

        url = self._url(REGISTRATION)
        if self.read_only:
            raise ReadOnlyRefused(
                "Read-only profile: changes are disabled (nothing was sent)",
                method="POST", url=url,
            )  # fmt: skip
        body = registration.wire()
        status = 0

        def take(response: Reply) -> tuple[Json, str | None]:
            nonlocal status
            status = response.status_code
            return self._decode("POST", url, response)

        # The password echoed in an error or the message is masked by the transport, as
        # every secret the journal body masks (`api.echoes`).
        payload = await self._attempts(
            "POST", url, target, None, take, json=body, journal_body={**body, "password": "***"}
        )
        reply = self._parse(m.Envelope, payload, method="POST", url=REGISTRATION)
        created = status == 201
        default = "Registration created successfully" if created else "Registration updated"
        return s.RegistrationSaved(created, reply.message or default)

    async def delete_sip_registration(self, *, target: int | None = None) -> m.Envelope:
        """``DELETE /sip/registration`` (no body): a 404 says there was none."""
        return await self._envelope("DELETE", REGISTRATION, target=target)
