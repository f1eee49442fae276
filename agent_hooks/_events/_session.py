"""Session events: start, end, setup, resumption, errors, notifications, and the
environment changing under the session (configuration, directories, files, instructions).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import attrs

from .._model import HookInput, HookOutput, Merge, meta
from .._names import HookEvent

__all__ = [
    "ConfigChangeInput",
    "ConfigChangeOutput",
    "CwdChangedInput",
    "CwdChangedOutput",
    "DirectoryAddedInput",
    "DirectoryAddedOutput",
    "FileChangedInput",
    "FileChangedOutput",
    "InstructionsLoadedInput",
    "InstructionsLoadedOutput",
    "NotificationInput",
    "NotificationOutput",
    "OnErrorInput",
    "OnErrorOutput",
    "OnMaxIterationsInput",
    "OnMaxIterationsOutput",
    "OnSessionResumeInput",
    "OnSessionResumeOutput",
    "SessionEndInput",
    "SessionEndOutput",
    "SessionStartInput",
    "SessionStartOutput",
    "SetupInput",
    "SetupOutput",
]

_WATCH_PATHS = (
    "Absolute paths to watch for FileChanged events; replaces the dynamic watch list "
    "(paths named by FileChanged matchers are always watched; an empty list clears it). "
    "The last handler in configuration order that sets it wins."
)
_NOTIFICATION_MESSAGE = "Docker Agent: the text of the error or warning."


# --------------------------------------------------------------- SessionStart


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
        default=None, metadata=meta(_WATCH_PATHS, merge=Merge.LAST)
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


# ----------------------------------------------------------------- SessionEnd


@attrs.frozen(kw_only=True)
class SessionEndOutput(HookOutput):
    """Answer to SessionEnd: nothing beyond the universal fields (they are discarded)."""

    event: ClassVar[HookEvent | None] = HookEvent.SESSION_END


@attrs.frozen(kw_only=True)
class SessionEndInput(HookInput[SessionEndOutput]):
    """A session ends (also on interruption such as Ctrl+C). Cannot block; runs under a
    short time budget. Matcher field: ``reason``.
    """

    event: ClassVar[HookEvent] = HookEvent.SESSION_END
    output_type: ClassVar[type[HookOutput]] = SessionEndOutput

    reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why the session ended: ``clear`` (``/clear``), ``resume`` (switched via "
            "``/resume``), ``logout``, ``prompt_input_exit`` (exit while the prompt was "
            "visible), ``other``; older hosts also sent ``bypass_permissions_disabled``."
        ),
    )


# ---------------------------------------------------------------------- Setup


@attrs.frozen(kw_only=True)
class SetupOutput(HookOutput):
    """Answer to Setup: context for the session. Setup cannot block."""

    event: ClassVar[HookEvent | None] = HookEvent.SETUP

    additional_context: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Text added to the model's context (plain stdout is not). Collected from every "
            "handler in order, newline-joined.",
            merge=Merge.JOIN,
        ),
    )


@attrs.frozen(kw_only=True)
class SetupInput(HookInput[SetupOutput]):
    """One-time initialisation or maintenance run (``--init-only``, ``-p --init``,
    ``-p --maintenance``), not on normal startup. Matcher field: ``trigger``.
    """

    event: ClassVar[HookEvent] = HookEvent.SETUP
    output_type: ClassVar[type[HookOutput]] = SetupOutput

    trigger: str | None = attrs.field(
        default=None,
        metadata=meta("Which flag triggered it: ``init`` or ``maintenance``."),
    )


# ------------------------------------------------------------ OnSessionResume


@attrs.frozen(kw_only=True)
class OnSessionResumeOutput(HookOutput):
    """Answer to OnSessionResume: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_SESSION_RESUME


@attrs.frozen(kw_only=True)
class OnSessionResumeInput(HookInput[OnSessionResumeOutput]):
    """Docker Agent ``on_session_resume``: the user approved going on past the
    ``max_iterations`` limit. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_SESSION_RESUME
    output_type: ClassVar[type[HookOutput]] = OnSessionResumeOutput

    previous_max_iterations: int | None = attrs.field(
        default=None, metadata=meta("The iteration limit that was reached.")
    )
    new_max_iterations: int | None = attrs.field(
        default=None, metadata=meta("The new limit after the approval.")
    )


# ------------------------------------------------------------ OnMaxIterations


@attrs.frozen(kw_only=True)
class OnMaxIterationsOutput(HookOutput):
    """Answer to OnMaxIterations: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_MAX_ITERATIONS


@attrs.frozen(kw_only=True)
class OnMaxIterationsInput(HookInput[OnMaxIterationsOutput]):
    """Docker Agent ``on_max_iterations``: the runtime reached its configured
    ``max_iterations`` (Notification fires too). No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_MAX_ITERATIONS
    output_type: ClassVar[type[HookOutput]] = OnMaxIterationsOutput

    notification_level: str | None = attrs.field(default=None, metadata=meta("Always ``warning``."))
    notification_message: str | None = attrs.field(
        default=None, metadata=meta(_NOTIFICATION_MESSAGE)
    )


# -------------------------------------------------------------------- OnError


@attrs.frozen(kw_only=True)
class OnErrorOutput(HookOutput):
    """Answer to OnError: nothing beyond the universal fields (observational)."""

    event: ClassVar[HookEvent | None] = HookEvent.ON_ERROR


@attrs.frozen(kw_only=True)
class OnErrorInput(HookInput[OnErrorOutput]):
    """Docker Agent ``on_error``: the runtime hit an error during a turn (a failed model
    call, a degenerate tool-call loop); Notification fires too. No matcher.
    """

    event: ClassVar[HookEvent] = HookEvent.ON_ERROR
    output_type: ClassVar[type[HookOutput]] = OnErrorOutput

    notification_level: str | None = attrs.field(default=None, metadata=meta("Always ``error``."))
    notification_message: str | None = attrs.field(
        default=None, metadata=meta(_NOTIFICATION_MESSAGE)
    )


# --------------------------------------------------------------- Notification


@attrs.frozen(kw_only=True)
class NotificationOutput(HookOutput):
    """Answer to Notification: nothing beyond the universal fields.

    Notifications cannot be blocked or changed; ``terminal_sequence`` is still emitted.
    """

    event: ClassVar[HookEvent | None] = HookEvent.NOTIFICATION


@attrs.frozen(kw_only=True)
class NotificationInput(HookInput[NotificationOutput]):
    """The host sends a notification (Docker Agent: an error or warning).

    Matcher field: ``notification_type``.
    """

    event: ClassVar[HookEvent] = HookEvent.NOTIFICATION
    output_type: ClassVar[type[HookOutput]] = NotificationOutput

    message: str | None = attrs.field(default=None, metadata=meta("The notification text."))
    title: str | None = attrs.field(default=None, metadata=meta("Notification title, if any."))
    notification_type: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Which notification fired: ``permission_prompt``, ``idle_prompt``, "
            "``auth_success``, ``elicitation_dialog``, ``elicitation_url_dialog``, "
            "``elicitation_complete``, ``elicitation_response``, ``agent_needs_input``, "
            "``agent_completed``; Deep Agents Code also ``cache_expiring``."
        ),
    )
    notification_level: str | None = attrs.field(
        default=None, metadata=meta("Docker Agent: ``error`` or ``warning``.")
    )
    notification_message: str | None = attrs.field(
        default=None, metadata=meta(_NOTIFICATION_MESSAGE)
    )


# --------------------------------------------------------------- ConfigChange


@attrs.frozen(kw_only=True)
class ConfigChangeOutput(HookOutput):
    """Answer to ConfigChange: ``decision: "block"`` keeps the new settings from applying
    (ignored for ``policy_settings``).
    """

    event: ClassVar[HookEvent | None] = HookEvent.CONFIG_CHANGE


@attrs.frozen(kw_only=True)
class ConfigChangeInput(HookInput[ConfigChangeOutput]):
    """A settings, managed-policy or skill file changed during the session.

    Matcher field: ``source``.
    """

    event: ClassVar[HookEvent] = HookEvent.CONFIG_CHANGE
    output_type: ClassVar[type[HookOutput]] = ConfigChangeOutput

    source: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Which configuration changed: ``user_settings``, ``project_settings``, "
            "``local_settings``, ``policy_settings`` or ``skills``."
        ),
    )
    file_path: str | None = attrs.field(
        default=None, metadata=meta("Path of the file that changed.")
    )


# ----------------------------------------------------------------- CwdChanged


@attrs.frozen(kw_only=True)
class CwdChangedOutput(HookOutput):
    """Answer to CwdChanged: set which files FileChanged watches. Cannot block."""

    event: ClassVar[HookEvent | None] = HookEvent.CWD_CHANGED

    watch_paths: Sequence[str] | None = attrs.field(
        default=None, metadata=meta(_WATCH_PATHS, merge=Merge.LAST)
    )


@attrs.frozen(kw_only=True)
class CwdChangedInput(HookInput[CwdChangedOutput]):
    """The working directory changed during the session (e.g. a ``cd``). No matcher."""

    event: ClassVar[HookEvent] = HookEvent.CWD_CHANGED
    output_type: ClassVar[type[HookOutput]] = CwdChangedOutput

    old_cwd: str | None = attrs.field(default=None, metadata=meta("The previous directory."))
    new_cwd: str | None = attrs.field(default=None, metadata=meta("The new directory."))


# ------------------------------------------------------------- DirectoryAdded


@attrs.frozen(kw_only=True)
class DirectoryAddedOutput(HookOutput):
    """Answer to DirectoryAdded: nothing beyond the universal fields (the add is done)."""

    event: ClassVar[HookEvent | None] = HookEvent.DIRECTORY_ADDED


@attrs.frozen(kw_only=True)
class DirectoryAddedInput(HookInput[DirectoryAddedOutput]):
    """A working directory was added mid-session (``/add-dir`` or an SDK
    ``register_repo_root`` request). Runs in the background. Matcher field: ``source``.
    """

    event: ClassVar[HookEvent] = HookEvent.DIRECTORY_ADDED
    output_type: ClassVar[type[HookOutput]] = DirectoryAddedOutput

    directory: str | None = attrs.field(
        default=None, metadata=meta("Absolute path of the added directory.")
    )
    source: str | None = attrs.field(
        default=None,
        metadata=meta("How it was added: ``slash_command`` or ``register_repo_root``."),
    )


# ---------------------------------------------------------------- FileChanged


@attrs.frozen(kw_only=True)
class FileChangedOutput(HookOutput):
    """Answer to FileChanged: update which files are watched. Cannot block."""

    event: ClassVar[HookEvent | None] = HookEvent.FILE_CHANGED

    watch_paths: Sequence[str] | None = attrs.field(
        default=None, metadata=meta(_WATCH_PATHS, merge=Merge.LAST)
    )


@attrs.frozen(kw_only=True)
class FileChangedInput(HookInput[FileChangedOutput]):
    """A watched file changed on disk, whatever changed it.

    Matcher field: the basename of ``file_path`` (the matcher also names the files to watch).
    """

    event: ClassVar[HookEvent] = HookEvent.FILE_CHANGED
    output_type: ClassVar[type[HookOutput]] = FileChangedOutput

    file_path: str | None = attrs.field(
        default=None, metadata=meta("Absolute path of the file that changed.")
    )
    file_event: str | None = attrs.field(
        default=None,
        metadata=meta(
            "What happened: ``change`` (modified), ``add`` (created) or ``unlink`` (deleted). "
            "Wire name ``event`` (renamed here because ``event`` is the class's event).",
            wire="event",
        ),
    )


# --------------------------------------------------------- InstructionsLoaded


@attrs.frozen(kw_only=True)
class InstructionsLoadedOutput(HookOutput):
    """Answer to InstructionsLoaded: nothing beyond the universal fields (they are discarded)."""

    event: ClassVar[HookEvent | None] = HookEvent.INSTRUCTIONS_LOADED


@attrs.frozen(kw_only=True)
class InstructionsLoadedInput(HookInput[InstructionsLoadedOutput]):
    """An instruction file (``CLAUDE.md``, ``.claude/rules/*.md``) was loaded into context,
    eagerly at session start or lazily later. Observational. Matcher field: ``load_reason``.
    """

    event: ClassVar[HookEvent] = HookEvent.INSTRUCTIONS_LOADED
    output_type: ClassVar[type[HookOutput]] = InstructionsLoadedOutput

    file_path: str | None = attrs.field(
        default=None, metadata=meta("Absolute path of the instruction file.")
    )
    memory_type: str | None = attrs.field(
        default=None,
        metadata=meta("Scope of the file: ``User``, ``Project``, ``Local`` or ``Managed``."),
    )
    load_reason: str | None = attrs.field(
        default=None,
        metadata=meta(
            "Why it was loaded: ``session_start``, ``nested_traversal``, ``path_glob_match``, "
            "``include`` or ``compact`` (re-loaded after compaction)."
        ),
    )
    globs: Sequence[str] | None = attrs.field(
        default=None,
        metadata=meta("Globs from the file's ``paths:`` frontmatter; ``path_glob_match`` only."),
    )
    trigger_file_path: str | None = attrs.field(
        default=None, metadata=meta("For lazy loads: the file whose access triggered the load.")
    )
    parent_file_path: str | None = attrs.field(
        default=None, metadata=meta("For ``include`` loads: the file that included this one.")
    )
