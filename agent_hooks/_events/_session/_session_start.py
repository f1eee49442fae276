"""SessionStart: its input and output classes.

A session starts or resumes; context persists for the session.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent
from . import WATCH_PATHS

__all__ = ["SessionStartInput", "SessionStartOutput"]


@attrs.frozen(kw_only=True)
class SessionStartOutput(HookOutput):
    """Answer to SessionStart: context for the whole session, and session settings."""

    event: ClassVar[HookEvent | None] = HookEvent.SESSION_START

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added to the model's context at the start of the conversation, before the "
            "first prompt (Docker Agent: persisted for the session's lifetime). Collected "
            "from every handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )
    initial_user_message: str | None = attrs.field(
        default=None,
        metadata=meta(
            "First user message of the session (non-interactive ``-p`` runs); creates a turn "
            "even when no prompt was given. The first handler that sets it wins.",
            merge=Merge.FIRST,
        ),
    )
    session_title: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Sets the session title (like ``/rename``); applies on ``startup``, ``resume`` and "
            "``fork``. The first handler that sets it wins.",
            merge=Merge.FIRST,
        ),
    )
    watch_paths: Sequence[str] | None = attrs.field(
        default=None, metadata=meta(WATCH_PATHS, merge=Merge.LAST)
    )
    reload_skills: bool | None = attrs.field(
        default=None,
        metadata=meta(
            "``True`` re-scans skill and command directories after the SessionStart hooks "
            "complete, so skills a hook installed are usable at once. Any handler may turn "
            "it on.",
            merge=Merge.ANY,
        ),
    )


@attrs.frozen(kw_only=True)
class SessionStartInput(HookInput[SessionStartOutput]):
    """A session starts or resumes. Matcher field: ``source``."""

    event: ClassVar[HookEvent] = HookEvent.SESSION_START
    output_type: ClassVar[type[HookOutput]] = SessionStartOutput

    source: str | None = attrs.field(
        default=None,
        metadata=meta(
            "How the session started: ``startup`` (new), ``resume``, ``clear`` (after "
            "``/clear``), ``compact`` (after compaction), ``fork`` (forked from another "
            "session; older hosts report ``resume``)."
        ),
    )
    model: str | None = attrs.field(
        default=None,
        metadata=meta("Active model identifier; may be absent (after ``/clear``, on recovery)."),
    )
    session_title: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Current session title when one is set (``--name``, ``/rename``); check it "
            "before overwriting with ``session_title`` output."
        ),
    )
