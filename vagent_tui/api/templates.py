"""Templates, a reseller feature, and the migrations of agents to a template (a task
read back at the ``statusEndpoint`` the platform gives)."""

from __future__ import annotations

from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

from vagent_tui.api import models as m
from vagent_tui.api.errors import PlatformError
from vagent_tui.api.outgoing import API_PREFIX
from vagent_tui.api.streaming import StreamingTransport
from vagent_tui.api.targets import Target
from vagent_tui.api.transport import TARGET_PARAMS


class TemplatesApi(StreamingTransport):
    """``/templates`` and their migrations."""

    # Templates are a reseller feature: a reseller is selected by ``targetResellerId``
    # (a `LevelTarget`, rule 9), not by ``targetAccountId``.

    async def list_templates(self, *, target: Target | None = None) -> list[m.Template]:
        return await self._get_list(m.Template, "/templates", "templates", target=target)

    async def migrate(
        self,
        template_id: str,
        request: m.MigrationRequest | None = None,
        *,
        target: Target | None = None,
    ) -> m.MigrationTask:
        """Start a template migration: a dry run unless the request says otherwise."""
        body = (request or m.MigrationRequest()).wire()
        path = f"/templates/{quote(template_id, safe='')}/migrate"
        payload = await self.request("POST", path, target=target, json=body)
        task = self._parse(m.MigrationTask, payload, method="POST", url=path)
        if task.template_id is None:
            task.template_id = template_id
        return task

    async def migration_status(
        self, status_endpoint: str, *, target: Target | None = None
    ) -> m.MigrationTask:
        """Read a task at its ``statusEndpoint``, used as the platform gave it.

        An absolute URL must be on the platform's own origin (the token is sent to no
        other host: `PlatformError` otherwise, nothing sent); a path from the root is
        taken from the base URL (a gateway's path before it is kept); a relative path
        from the API's root, ``{base_url}/api/v2/``. Nothing is added to its path, and its
        query is kept, except a ``token`` or target parameter of its own: this client's
        ride instead.
        """
        parts = urlsplit(status_endpoint)
        if parts.scheme or parts.netloc:
            base = urlsplit(self.base_url)
            if (parts.scheme, parts.netloc) != (base.scheme, base.netloc):
                raise PlatformError(
                    f"The status endpoint is on another host ({parts.netloc}); "
                    "the token is not sent there"
                )
            url = urlunsplit((parts.scheme, parts.netloc, parts.path or "/", "", ""))
        elif parts.path.startswith("/"):
            url = parts.path
        else:
            url = f"{API_PREFIX}/{parts.path}"
        params: dict[str, list[str]] = {}
        for key, value in parse_qsl(parts.query, keep_blank_values=True):
            if key != "token" and key not in TARGET_PARAMS:
                params.setdefault(key, []).append(value)
        return await self.get(
            url,
            lambda payload: self._parse(m.MigrationTask, payload, url=parts.path),
            target=target,
            params=params,
            as_given=True,
        )
