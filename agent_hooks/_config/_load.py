"""``load(path)``: any supported hook file, its format detected from name and content.

Detection looks at where the file lies first (a harness's own directory: ``.codex/``,
``.cursor/hooks.json``, ``.github/hooks/``, a Claude-compatible harness's files as its
row in :mod:`._harness` places them...), then at what it holds (YAML keys, Gemini's
or Copilot's own event names, Cursor's ``version``); other JSON is Claude Code's shape
(``claude-hooks``, or ``claude-settings`` when it has keys besides ``hooks``). Which
function reads a file of each format is its harness row's (:data:`~._harness.HARNESSES`).
"""

from __future__ import annotations

import json
import os

import attrs

from .._handlers._kinds import HandlerKinds
from .._wire._json import loads_jsonc
from . import _common
from ._common import MAX_CONFIG_BYTES, file_project
from ._harness import FORMATS, file_loader, format_harness
from ._snapshot import LoadedConfig
from ._trust import TrustArg

__all__ = ["FORMATS", "detect_format", "load"]


def grand_of(parts: list[str]) -> str:
    """The name of the directory above a file's directory (``""`` for none)."""
    return parts[-3] if len(parts) > 2 else ""


def _family_format(parts: list[str]) -> str | None:
    from ._family import family_of_path

    return family_of_path(parts)


def _single_format_row(parts: list[str]) -> str | None:
    """The format of a harness with one file format, one of whose (unglobbed) locations
    the path ends as (a system file by its last two names); ``None`` for none."""
    from ._harness import HARNESSES

    for h in HARNESSES.values():
        if len(h.formats) != 1 or h.family is not None:
            continue
        for loc in h.locations:
            want = loc.path.strip("/").split("/")
            if loc.root == "system":
                want = want[-2:]
            if "*" not in loc.path and parts[-len(want) :] == want:
                return h.formats[0].name
    return None


def _components(path: str | os.PathLike[str]) -> list[str]:
    """The names in ``path`` after its drive and root, split as :mod:`pathlib` splits them
    (empty and ``.`` components dropped), without importing it: ``Path(path).name`` is the
    last, ``Path(path).parent.name`` the one before."""
    rest = os.path.splitdrive(os.fspath(path))[1]
    if os.altsep:
        rest = rest.replace(os.altsep, os.sep)
    return [part for part in rest.split(os.sep) if part and part != "."]


def _suffix(name: str) -> str:
    """``PurePath(name).suffix``: the last ``.ext`` of a file name, ``""`` for none."""
    i = name.rfind(".")
    return name[i:] if 0 < i < len(name) - 1 else ""


def detect_format(path: str | os.PathLike[str], data: bytes | None = None) -> str:
    """The format of a hook file, from its name, its directory, and (when given) its bytes."""
    parts = _components(path)
    name = parts[-1] if parts else ""
    parent = parts[-2] if len(parts) > 1 else ""
    suffix = _suffix(name).lower()
    if data is not None and len(data) > MAX_CONFIG_BYTES:
        data = None  # refused by its loader, unparsed: the name decides alone
    if suffix in (".yaml", ".yml"):
        if parent == "hooks.d":
            return "docker-dropin"
        doc = _yaml_keys(data)
        if doc is None:
            return "docker-settings" if name in ("config.yaml", "config.yml") else "docker-agent"
        if "agents" in doc:
            return "docker-agent"
        if "settings" in doc:
            return "docker-settings"
        return "docker-dropin"
    single = _single_format_row(parts)
    if single is not None:
        return single
    if suffix == ".toml":
        return "codex-toml"
    if parent == ".deepagents":
        return "deepagents"
    if parent == ".hel" and name == "hooks.json":
        return "hel"
    if parent == ".codex":
        return "codex-json"
    family = _family_format(parts)
    if family is not None:
        return family
    if name == "hooks.json" and parent in (".windsurf", "windsurf", "Windsurf", ".codeium"):
        return "windsurf"
    if name.endswith(".kiro.hook") or (
        name.endswith(".json")
        and (parent, grand_of(parts))
        in (
            ("agents", ".kiro"),
            ("hooks", ".kiro"),
            ("cli-agents", ".amazonq"),
            ("cli-agents", "amazonq"),
        )
    ):
        return "kiro"
    if (parent == "hooks" and grand_of(parts) in (".clinerules", ".cline")) or (
        parent == "Hooks" and grand_of(parts) == "Cline"
    ):
        return "cline"
    native = _native_format(parts, name, parent, data)
    if native is not None:
        return native
    if name.startswith("managed-settings") or name in ("settings.json", "settings.local.json"):
        return "claude-settings"
    if name == "hooks.json" and parent == "hooks":
        return "claude-plugin"
    try:
        doc = json.loads((data or b"{}").decode("utf-8-sig") or "{}")
    except (ValueError, RecursionError):
        return "claude-hooks"
    if isinstance(doc, list) or (isinstance(doc, dict) and isinstance(doc.get("hooks"), list)):
        return "deepagents"
    if isinstance(doc, dict) and set(doc) - {"hooks", "description", "$schema"}:
        return "claude-settings"
    return "claude-hooks"


_GEMINI_ONLY = frozenset(
    {"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel"}
    | {"BeforeToolSelection", "PreCompress"}
)
_COPILOT_ONLY = frozenset(
    {"userPromptSubmitted", "userPromptTransformed", "agentStop", "errorOccurred"}
    | {"permissionRequest", "notification"}
)
_COPILOT_ENTRY_KEYS = frozenset({"bash", "powershell", "timeoutSec", "exec"})


def _native_format(parts: list[str], name: str, parent: str, data: bytes | None) -> str | None:
    """The format of a Gemini CLI, Cursor or Copilot file, from where it lies (``.gemini/``,
    ``.cursor/hooks.json``, ``.github/hooks/``, ``.copilot/``) or what it holds (their
    own event names and entry keys); ``None`` for the other formats."""
    grand = parts[-3] if len(parts) > 2 else ""
    if parent == ".gemini" and name.endswith(".json"):
        return "gemini-settings"
    if parent == ".cursor" and name == "hooks.json":
        return "cursor"
    if parent == "hooks" and grand in (".github", ".copilot") and name.endswith(".json"):
        return "copilot-hooks"
    if name.startswith("settings") and (
        (parent == "copilot" and grand == ".github") or parent == ".copilot"
    ):
        return "copilot-settings"
    try:  # (comments read: Gemini CLI allows them in its settings)
        doc = loads_jsonc((data or b"{}").decode("utf-8-sig") or "{}")
    except (ValueError, RecursionError):
        return None
    hooks = doc.get("hooks") if isinstance(doc, dict) else None
    if not isinstance(hooks, dict):
        return None
    keys = {k for k in hooks if isinstance(k, str)}
    if keys & _GEMINI_ONLY:
        return "gemini-settings"
    entries = [e for v in hooks.values() if isinstance(v, list) for e in v if isinstance(e, dict)]
    if keys & _COPILOT_ONLY or any(_COPILOT_ENTRY_KEYS & set(e) for e in entries):
        return "copilot-hooks"
    if "version" in doc and keys and all(k[:1].islower() for k in keys):
        return "cursor"
    return None


def _yaml_keys(data: bytes | None) -> set[str] | None:
    if data is None:
        return None
    try:
        import yaml

        from ._docker import load_yaml
    except ImportError:
        return None
    try:
        doc = load_yaml(data.decode("utf-8-sig"))
    except (ValueError, yaml.YAMLError):  # (a document over the size limits: ValueError)
        return None
    return {str(k) for k in doc} if isinstance(doc, dict) else None


def load(
    path: str | os.PathLike[str],
    *,
    harness: str | None = None,
    format: str | None = None,
    scope: str | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    home: str | os.PathLike[str] | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    precedence: int | None = None,
    agent: str | None = None,
    plugin_data: str | os.PathLike[str] | None = None,
    data: bytes | None = None,
    required: bool = False,
) -> LoadedConfig:
    """Load any supported hook file; the format is detected unless ``harness`` (or its
    older spelling ``format``) names it: a harness's name or alias (its first format), or
    a format's own name (:data:`FORMATS`).

    The file is read once: its format, its trust (for project-scoped files) and
    its hooks all come from those bytes. A file inside ``project_dir`` is that
    project's file and needs its trust. A file outside it (or with no
    ``project_dir``) that lies in a project all the same, found from the file alone
    (the nearest directory above it with ``.git``, ``.claude/``, ``.codex/``,
    ``.deepagents/`` or ``.hel/``, never the home directory nor the user's own
    ``~/.claude``-style directories: :func:`find_project_root`), is that project's
    file: it needs that project's trust, and its ``${CLAUDE_PROJECT_DIR}``
    placeholders and Python module search refer to that project. Where the caller
    happens to run never makes a repository's file a user file. An absent file is
    an empty configuration, not an error. ``data``: the file's bytes when the
    caller already read them (they are used instead of reading the file).

    A file caught while it is being rewritten in place (empty, or cut short, and
    changing or just changed) is read again for up to
    :data:`~agent_hooks._config._common.SETTLE_TIME` seconds
    (:func:`~agent_hooks._config._common.read_settled`); still empty, it is
    ``unreadable``, with a ``config_read_failed`` error. ``required``: the caller named
    the file (``agent-hooks run --config``) and means its hooks: an empty file is then
    ``unreadable`` too, not "no hooks" (write ``{}`` for a file that configures none).

    Raises:
        ValueError: ``harness`` is not one of :data:`FORMATS`, or both it and ``format``
            are given.
    """
    if harness is not None:
        if format is not None and format != harness:
            raise ValueError("give harness= or format=, not both")
        format = harness
    label = os.fspath(path)
    home_s = os.fspath(home) if home is not None else None
    if format is not None and format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; known: {', '.join(sorted(FORMATS))}")
    pdir = os.fspath(project_dir) if project_dir is not None else None
    root = file_project(label, pdir, home=home_s)
    if root is not None:
        pdir = root
    absent = False
    torn: str | None = None
    if data is None:
        try:
            data, torn = _common.read_settled(label)
        except FileNotFoundError:
            absent = True
        except OSError:
            pass  # the format's loader reads again and reports why it cannot
    if torn is None and required and data is not None and not data.strip():
        torn = "the file is empty, but it was named to be loaded (write {} for no hooks)"
    fmt = FORMATS[format] if format is not None else detect_format(label, data)
    file_scope = scope
    if file_scope is None and root is None:
        # Not a project file (decided here, with ``home``): the format's own scope for
        # files outside a project, so that its loader does not look again.
        file_scope = format_harness(fmt)[1].outside
        if fmt == "claude-settings" and os.path.basename(label).startswith("managed-settings"):
            file_scope = "managed"

    def recipe() -> LoadedConfig:
        return load(
            label,
            format=format,
            scope=scope,
            project_dir=project_dir,
            home=home,
            trust=trust,
            kinds=kinds,
            precedence=precedence,
            agent=agent,
            plugin_data=plugin_data,
            required=required,
        )

    if absent:
        return LoadedConfig(recipe=recipe)
    extras = {"agent": agent, "plugin_data": plugin_data, "family": fmt, "home": None}
    config: LoadedConfig = file_loader(fmt)(
        label,
        scope=file_scope,
        project_dir=pdir,
        precedence=precedence,
        trust=trust,
        kinds=kinds,
        data=data,
        **{k: extras[k] for k in format_harness(fmt)[1].extras},
    )
    if torn is not None:
        config = _common.refuse_config(config, torn)
    return attrs.evolve(config, recipe=recipe)
