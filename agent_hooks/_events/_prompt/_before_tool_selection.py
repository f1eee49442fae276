"""BeforeToolSelection: its input and output classes.

Before the model chooses among its tools; can restrict which it may call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import LLM_REQUEST

__all__ = ["BeforeToolSelectionInput", "BeforeToolSelectionOutput", "ToolConfig"]


@attrs.frozen(kw_only=True)
class ToolConfig:
    """Which tools the model may call on this request (Gemini CLI ``toolConfig``)."""

    mode: Literal["AUTO", "ANY", "NONE"] | None = attrs.field(
        default=None,
        metadata=meta(
            "``AUTO``: the model decides; ``ANY``: it must call one of the allowed tools; "
            "``NONE``: it may call none."
        ),
    )
    allowed_function_names: Sequence[str] | None = attrs.field(
        default=None,
        metadata=meta(
            "The tools the model may call (function names, ``run_shell_command``).",
            wire="allowedFunctionNames",
        ),
    )


@attrs.frozen(kw_only=True)
class BeforeToolSelectionOutput(HookOutput):
    """Answer to BeforeToolSelection: a tool configuration. It cannot block, stop the
    agent or show a message (Gemini CLI reads ``toolConfig`` only)."""

    event: ClassVar[HookEvent | None] = HookEvent.BEFORE_TOOL_SELECTION

    tool_config: ToolConfig | None = attrs.field(
        default=None,
        metadata=meta(
            "Restricts the tools of this request (Gemini CLI "
            "``hookSpecificOutput.toolConfig``). Across handlers, as Gemini CLI combines "
            "them: the most restrictive ``mode`` wins (``NONE``, then ``ANY``, then "
            "``AUTO``) and the ``allowed_function_names`` of every handler are united.",
            merge=Merge.UNION,
            rank=("NONE", "ANY", "AUTO"),
            rank_by="mode",
        ),
    )


@attrs.frozen(kw_only=True)
class BeforeToolSelectionInput(HookInput[BeforeToolSelectionOutput]):
    """Gemini CLI ``BeforeToolSelection``: before each model request, once the request is
    built (after BeforeModel), before the model picks among its tools. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.BEFORE_TOOL_SELECTION
    output_type: ClassVar[type[HookOutput]] = BeforeToolSelectionOutput

    llm_request: Mapping[str, Any] | None = attrs.field(default=None, metadata=meta(LLM_REQUEST))
