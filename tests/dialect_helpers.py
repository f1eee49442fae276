"""Helpers for the dialect tests: a payload of any harness through ``dispatch_payload``
with one Python callback that answers a given canonical output."""

from __future__ import annotations

import json
from typing import Any

from agent_hooks import HookMatcher, HookRegistry
from agent_hooks._bridges._payload import BridgeResult, dispatch_payload, dumps
from agent_hooks._events._model import HookOutput
from agent_hooks._wire._detect import decode_payload


async def answer(
    payload: dict[str, Any],
    output: HookOutput | None,
    *,
    dialect: str | None = None,
    event: str | None = None,
) -> BridgeResult:
    """The bridge's result for ``payload`` when one hook answers ``output``."""
    decoded = decode_payload(json.dumps(payload), dialect=dialect, event=event)

    async def hook(input: Any) -> HookOutput | None:
        return output

    registry = HookRegistry({str(decoded.input.event): [HookMatcher(hooks=[hook])]})
    return await dispatch_payload(decoded, registry)


def text(result: BridgeResult) -> str:
    """The answer as ``agent-hooks run`` prints it."""
    return dumps(result.answer)


def codes(result: BridgeResult) -> list[str]:
    """The codes of the result's diagnostics."""
    return [d.code.value for d in result.diagnostics]
