"""A stand-in for the Claude Code CLI on the Claude Agent SDK's stdio control protocol,
for tests/adapters/test_claude_agent_sdk.py. A module of its own, imported by the test
that uses it, so that collecting the tests imports no Claude Agent SDK."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import anyio
import claude_agent_sdk as sdk


class FakeCLI(sdk.Transport):  # type: ignore[misc,unused-ignore]
    """Stands in for the Claude Code CLI on the SDK's stdio control protocol."""

    def __init__(self) -> None:
        self._send, self._receive = anyio.create_memory_object_stream[dict[str, Any]](100)
        self.initialize: dict[str, Any] | None = None
        self.responses: dict[str, dict[str, Any]] = {}
        self._arrived: dict[str, anyio.Event] = {}

    async def connect(self) -> None:
        pass

    async def write(self, data: str) -> None:
        for line in data.splitlines():
            msg = json.loads(line)
            if msg.get("type") == "control_request":
                request = msg["request"]
                if request.get("subtype") == "initialize":
                    self.initialize = request
                await self._send.send(
                    {
                        "type": "control_response",
                        "response": {
                            "subtype": "success",
                            "request_id": msg["request_id"],
                            "response": {},
                        },
                    }
                )
            elif msg.get("type") == "control_response":
                response = msg["response"]
                self.responses[response["request_id"]] = response
                self._arrived.setdefault(response["request_id"], anyio.Event()).set()

    async def read_messages(self) -> AsyncIterator[dict[str, Any]]:
        async for msg in self._receive:
            yield msg

    async def close(self) -> None:
        self._send.close()
        self._receive.close()

    def is_ready(self) -> bool:
        return True

    async def end_input(self) -> None:
        pass

    async def call_hook(
        self, callback_id: str, input: dict[str, Any], tool_use_id: str | None
    ) -> dict[str, Any]:
        request_id = f"cli-{len(self._arrived)}"
        arrived = self._arrived.setdefault(request_id, anyio.Event())
        await self._send.send(
            {
                "type": "control_request",
                "request_id": request_id,
                "request": {
                    "subtype": "hook_callback",
                    "callback_id": callback_id,
                    "input": input,
                    "tool_use_id": tool_use_id,
                },
            }
        )
        await arrived.wait()
        return self.responses[request_id]
