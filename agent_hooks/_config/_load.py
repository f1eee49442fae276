"""``load(path)``: any supported hook file, its format detected from name and content.

=====================================  ===================
file                                   format
=====================================  ===================
``*.yaml`` / ``*.yml`` in ``hooks.d``  ``docker-dropin``
YAML with ``agents:``                  ``docker-agent``
YAML with ``settings:``                ``docker-settings``
other YAML (event keys)                ``docker-dropin``
``*.toml``                             ``codex-toml``
``.deepagents/hooks.json``             ``deepagents``
``.hel/hooks.json``                    ``hel``
``.codex/hooks.json``                  ``codex-json``
a Claude-compatible harness's file     its name (``factory``, ``qwen``,
(``.factory/``, ``.qwen/``, ...; see   ``augment``, ``goose``, ``openhands``,
:mod:`._family`)                       ``trae``, ``qoder``)
``.windsurf/hooks.json``,              ``windsurf``
``~/.codeium/[windsurf/]hooks.json``,
``/etc/windsurf/hooks.json``
``.clinerules/hooks/<Event>``,         ``cline``
``.cline/hooks/<Event>``,
``~/Documents/Cline/Hooks/<Event>``
``.kiro/agents/*.json``,               ``kiro`` (v3 ``.kiro/hooks/*.json``
``.amazonq/cli-agents/*.json``,        and ``*.kiro.hook``: refused)
``.kiro/hooks/*``
``.gemini/*.json``, Gemini event names ``gemini-settings``
``.cursor/hooks.json``, ``version`` +  ``cursor``
camelCase events
``.github/hooks/*.json``,              ``copilot-hooks``
``~/.copilot/hooks/*.json``, Copilot
events or entry keys
``.github/copilot/settings*.json``,    ``copilot-settings``
``~/.copilot/settings.json``
``hooks/hooks.json``                   ``claude-plugin``
``settings*.json``, ``managed-*``      ``claude-settings``
JSON that is a list, or a list         ``deepagents`` (legacy shape)
under ``hooks``
other JSON                             ``claude-hooks`` (or ``claude-settings``
                                       when it has keys besides ``hooks``)
=====================================  ===================
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping

import attrs

from .._base._lazy import submodule
from .._handlers._kinds import HandlerKinds
from .._wire._dialects import CLAUDE
from .._wire._json import loads_jsonc
from . import _common
from ._claude_format import hooks_file_builder
from ._common import MAX_CONFIG_BYTES, file_project, is_inside, json_has_hooks, load_source
from ._snapshot import LoadedConfig
from ._trust import TrustPolicy, TrustStore

__all__ = ["FORMATS", "detect_format", "load"]

TrustArg = TrustPolicy | TrustStore | bool | None

_FAMILY_NAMES = ("factory", "qwen", "augment", "goose", "openhands", "trae", "qoder")
"""The Claude-compatible harnesses of :mod:`._family`, each its own format."""


def grand_of(parts: list[str]) -> str:
    """The name of the directory above a file's directory (``""`` for none)."""
    return parts[-3] if len(parts) > 2 else ""


def _family_format(parts: list[str]) -> str | None:
    from ._family import family_of_path

    return family_of_path(parts)


FORMATS = {
    "claude": "claude-settings",
    "claude-settings": "claude-settings",
    "claude-hooks": "claude-hooks",
    "claude-plugin": "claude-plugin",
    "plugin": "claude-plugin",
    "deepagents": "deepagents",
    "dcode": "deepagents",
    "codex": "codex-json",
    "codex-json": "codex-json",
    "codex-toml": "codex-toml",
    "hel": "hel",
    "docker": "docker-agent",
    "docker-agent": "docker-agent",
    "docker-settings": "docker-settings",
    "docker-dropin": "docker-dropin",
    "gemini": "gemini-settings",
    "gemini-cli": "gemini-settings",
    "gemini-settings": "gemini-settings",
    "cursor": "cursor",
    "copilot": "copilot-hooks",
    "github-copilot": "copilot-hooks",
    "copilot-hooks": "copilot-hooks",
    "copilot-settings": "copilot-settings",
    **{name: name for name in _FAMILY_NAMES},
    "factory-droid": "factory",
    "qwen-code": "qwen",
    "auggie": "augment",
    "windsurf": "windsurf",
    "cline": "cline",
    "kiro": "kiro",
}
"""Accepted ``format=`` names -> the format they select."""


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
    """Load any supported hook file; the format is detected unless ``format`` names it.

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
        ValueError: ``format`` is not one of :data:`FORMATS`.
    """
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
        file_scope = _OUTSIDE_SCOPES.get(fmt)
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
    config = _dispatch(
        fmt, label, data, file_scope, pdir, trust, kinds, precedence, agent, plugin_data
    )
    if torn is not None:
        config = _common.refuse_config(config, torn)
    return attrs.evolve(config, recipe=recipe)


_SCOPED_LOADERS: Mapping[str, tuple[str, str]] = {
    "claude-settings": ("_claude", "load_claude_settings"),
    "deepagents": ("_deepagents", "load_deepagents"),
    "codex-json": ("_codex", "load_codex"),
    "codex-toml": ("_codex", "load_codex_toml"),
    "gemini-settings": ("_gemini", "load_gemini"),
    "cursor": ("_cursor", "load_cursor"),
    "copilot-hooks": ("_copilot", "load_copilot"),
    "copilot-settings": ("_copilot", "load_copilot"),
    **{name: ("_family", f"load_{name}") for name in _FAMILY_NAMES},
    "windsurf": ("_windsurf", "load_windsurf"),
    "cline": ("_cline", "load_cline"),
    "kiro": ("_kiro", "load_kiro"),
}
"""Formats whose loader takes (path, scope, project_dir, trust, precedence, kinds, data):
its module and name. Each format's module is imported when a file of it is loaded."""


_OUTSIDE_SCOPES: Mapping[str, str] = {
    "claude-settings": "user",
    "deepagents": "user",
    "codex-json": "user",
    "codex-toml": "user",
    "docker-agent": "explicit",
    "docker-settings": "user",
    "docker-dropin": "user",
    "gemini-settings": "user",
    "cursor": "user",
    "copilot-hooks": "user",
    "copilot-settings": "user",
    **{name: "user" for name in _FAMILY_NAMES},
    "windsurf": "user",
    "cline": "user",
    "kiro": "user",
}
"""The scope of a file of each format that lies in no project."""


def _dispatch(
    fmt: str,
    label: str,
    data: bytes | None,
    scope: str | None,
    pdir: str | None,
    trust: TrustArg,
    kinds: HandlerKinds | None,
    precedence: int | None,
    agent: str | None,
    plugin_data: str | os.PathLike[str] | None,
) -> LoadedConfig:
    scoped = _SCOPED_LOADERS.get(fmt)
    if scoped is not None:  # the loaders that share one signature
        module, name = scoped
        loader: Callable[..., LoadedConfig] = getattr(submodule(__package__, module), name)
        return loader(
            label,
            scope=scope,
            project_dir=pdir,
            trust=trust,
            precedence=precedence,
            kinds=kinds,
            data=data,
        )
    if fmt == "claude-plugin":
        from pathlib import Path

        from ._plugin import Plugin, load_claude_plugin

        root = str(Path(os.path.abspath(label)).parent.parent)
        plugin = Plugin(
            root=root,
            data=os.fspath(plugin_data) if plugin_data is not None else None,
            hooks_file=label,
        )
        return load_claude_plugin(
            plugin, project_dir=pdir, precedence=precedence, kinds=kinds, data=data, trust=trust
        )
    if fmt == "hel":
        from pathlib import Path

        from ._hel import load_hel

        project = pdir or str(Path(os.path.abspath(label)).parent.parent)
        return load_hel(
            project, path=label, trust=trust, precedence=precedence, kinds=kinds, data=data
        )
    if fmt == "docker-agent":
        from ._docker import load_docker_agent

        return load_docker_agent(
            label,
            agent=agent,
            scope=scope,
            project_dir=pdir,
            trust=trust,
            precedence=precedence,
            kinds=kinds,
            data=data,
        )
    if fmt in ("docker-settings", "docker-dropin"):
        from ._docker import load_docker_dropin, load_docker_settings

        user_file = load_docker_settings if fmt == "docker-settings" else load_docker_dropin
        return user_file(
            label,
            scope=scope,
            project_dir=pdir,
            trust=trust,
            precedence=precedence,
            kinds=kinds,
            data=data,
        )
    # claude-hooks: a stand-alone Claude-shaped hooks file
    sc = scope or ("project" if pdir is not None and is_inside(label, pdir) else "explicit")
    config, _ = load_source(
        label,
        format="claude-hooks",
        scope=sc,
        dialect=CLAUDE,
        builder=hooks_file_builder,
        precedence=precedence,
        project_dir=pdir,
        trust=trust,
        kinds=kinds,
        data=data,
        probe=json_has_hooks,
    )
    return config
