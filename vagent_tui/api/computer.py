"""Computer Agent accounts: workflow recordings, browser automation sessions and the
workspace's files. The account id rides in the path (``/computer/accounts/{id}``),
never as a target parameter."""

from __future__ import annotations

from vagent_tui.api import models as m
from vagent_tui.api.replies import Json
from vagent_tui.api.streaming import StreamingTransport
from vagent_tui.api.transport import as_bool


class ComputerApi(StreamingTransport):
    """``/computer/accounts/...``."""

    @staticmethod
    def _computer(account_id: int, rest: str = "") -> str:
        return f"/computer/accounts/{int(account_id)}{rest}"

    async def list_computer_accounts(self, *, target: int | None = None) -> list[m.ComputerAccount]:
        return await self._get_list(
            m.ComputerAccount, "/computer/accounts", "accounts", target=target
        )

    async def recording_status(self, account_id: int) -> m.WorkflowRecording | None:
        path = self._computer(account_id, "/workflow-recordings/status")

        def parse(payload: Json) -> m.WorkflowRecording | None:
            recording = payload.get("recording", payload)
            if recording is None:
                return None
            return self._parse(m.WorkflowRecording, recording, url=path)

        return await self.get(path, parse)

    async def start_recording(self, account_id: int, slot_id: int) -> m.WorkflowRecording:
        """Start a browser workflow recording; the account id rides in the path only."""
        body = m.RecordingStartRequest(slot_id=slot_id).wire()
        path = self._computer(account_id, "/workflow-recordings/start")
        payload = await self.request("POST", path, json=body)
        return self._parse(m.WorkflowRecording, payload, method="POST", url=path)

    async def stop_recording(self, account_id: int) -> m.WorkflowRecording:
        path = self._computer(account_id, "/workflow-recordings/stop")
        payload = await self.request("POST", path, json={})
        return self._parse(m.WorkflowRecording, payload, method="POST", url=path)

    async def create_automation_session(
        self, account_id: int, ttl_seconds: int = 600
    ) -> m.AutomationSession:
        if not 60 <= ttl_seconds <= 1800:
            raise ValueError("ttl_seconds must be between 60 and 1800")
        path = self._computer(account_id, "/browser/automation-sessions")
        payload = await self.request("POST", path, json={"ttlSeconds": ttl_seconds})
        return self._parse(m.AutomationSession, payload, method="POST", url=path)

    async def upload_file(
        self,
        account_id: int,
        path: str,
        content: bytes,
        *,
        filename: str | None = None,
        overwrite: bool = False,
        mode: str | None = None,
    ) -> m.UploadResult:
        """Upload one file into the Computer Agent workspace (multipart/form-data).

        Any success status is a success: the spec shows no fields of the reply, so one
        that is empty or not JSON gives an `UploadResult` without fields.
        """
        form = m.UploadRequest(path=path, overwrite=overwrite, mode=mode)
        data = {"path": form.path, "overwrite": as_bool(form.overwrite)}
        if form.mode:
            data["mode"] = form.mode
        name = filename or form.path.rsplit("/", 1)[-1]
        url = self._computer(account_id, "/workspace/upload")
        payload = await self.request(
            "POST",
            url,
            data=data,
            files={"file": (name, content, "application/octet-stream")},
            journal_body={**data, "file": f"<{len(content)} bytes>"},
            # "200 on success; response body fields: not shown" (the spec).
            body_optional=True,
        )
        return self._parse(m.UploadResult, payload, method="POST", url=url)

    async def list_workspace_files(self, account_id: int) -> list[m.WorkspaceFile]:
        return await self._get_list(
            m.WorkspaceFile, self._computer(account_id, "/workspace/files"), "files"
        )
