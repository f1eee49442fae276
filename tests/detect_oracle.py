"""The file-name if-chain ``detect_format`` was before detection became data on the
harness rows (issue #29): kept here, frozen, as the oracle the rows must agree with
(tests/config/test_detect_rows.py)."""

from __future__ import annotations

import json
import os
from fnmatch import fnmatchcase

from agent_hooks._config._common import MAX_CONFIG_BYTES
from agent_hooks._config._family import FAMILIES
from agent_hooks._config._harness import HARNESSES
from agent_hooks._wire._json import loads_jsonc


def _family_places() -> list[tuple[str, list[str]]]:
    """The family harnesses' locations as the names a path must end with (a system
    file's by its last two), in the order the if-chain tried them (split once, not per
    path)."""
    places = []
    for name in FAMILIES:
        for loc in HARNESSES[name].locations:
            want = loc.path.strip("/").split("/")
            places.append((name, want[-2:] if loc.root == "system" else want))
    return places


_FAMILY_PLACES = _family_places()


def family_of_path(parts: list[str]) -> str | None:
    if len(parts) < 2:
        return None
    for name, want in _FAMILY_PLACES:
        tail = parts[-len(want) :]
        if len(tail) == len(want) and all(map(fnmatchcase, tail, want)):
            return name
    return None


def grand_of(parts: list[str]) -> str:
    """The name of the directory above a file's directory (``""`` for none)."""
    return parts[-3] if len(parts) > 2 else ""


def _family_format(parts: list[str]) -> str | None:
    return family_of_path(parts)


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

        from agent_hooks._config._docker import load_yaml
    except ImportError:
        return None
    try:
        doc = load_yaml(data.decode("utf-8-sig"))
    except (ValueError, yaml.YAMLError):  # (a document over the size limits: ValueError)
        return None
    return {str(k) for k in doc} if isinstance(doc, dict) else None
