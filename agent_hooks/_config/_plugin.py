"""Claude Code plugins: an enabled plugin's ``hooks/hooks.json``.

Apart from the settings loaders (:mod:`._claude`), so that loading a hooks file
does not create the :class:`Plugin` class.
"""

from __future__ import annotations

import os

import attrs

from .._handlers._kinds import HandlerKinds
from .._handlers._nodes import HandlerNode
from .._wire._dialects import CLAUDE, Dialect
from ._claude_format import hooks_file_builder
from ._common import PRECEDENCE, HookFile, Reading, is_inside, load_source
from ._snapshot import LoadedConfig
from ._trust import TrustArg

__all__ = ["Plugin", "load_claude_plugin"]


@attrs.frozen(kw_only=True)
class Plugin:
    """An enabled plugin whose ``hooks/hooks.json`` contributes hooks.

    ``data`` is its writable data directory (``${CLAUDE_PLUGIN_DATA}``);
    ``managed``: force-enabled by managed policy (exempt from
    ``allowManagedHooksOnly``); ``hooks_file`` overrides ``<root>/hooks/hooks.json``.
    """

    root: str
    data: str | None = None
    name: str | None = None
    managed: bool = False
    dialect: Dialect = CLAUDE
    hooks_file: str | None = None

    @classmethod
    def coerce(cls, value: Plugin | str | os.PathLike[str]) -> Plugin:
        return value if isinstance(value, Plugin) else cls(root=os.fspath(value))

    @property
    def path(self) -> str:
        return self.hooks_file or os.path.join(self.root, "hooks", "hooks.json")

    @property
    def env(self) -> dict[str, str]:
        """The variables exported to the plugin's command hooks."""
        root = os.path.abspath(self.root)
        env = {"CLAUDE_PLUGIN_ROOT": root, "PLUGIN_ROOT": root}
        if self.data:
            data = os.path.abspath(self.data)
            env.update(CLAUDE_PLUGIN_DATA=data, PLUGIN_DATA=data)
        return env


def load_claude_plugin(
    plugin: Plugin | str | os.PathLike[str],
    *,
    precedence: int | None = None,
    kinds: HandlerKinds | None = None,
    project_dir: str | os.PathLike[str] | None = None,
    data: bytes | None = None,
    trust: TrustArg = None,
) -> LoadedConfig:
    """A plugin's ``hooks/hooks.json``: ``${CLAUDE_PLUGIN_ROOT}`` / ``${CLAUDE_PLUGIN_DATA}``
    (and ``PLUGIN_ROOT`` / ``PLUGIN_DATA``) are substituted in exec form and exported
    to every command. Enabling a plugin is the consent: no workspace trust applies,
    except to a plugin file that lies inside the project directory, which is project
    content and needs the workspace's trust like any project hook file.
    A plugin's copy of a command stays separate from the same command elsewhere.
    """
    p = Plugin.coerce(plugin)
    pdir = os.fspath(project_dir) if project_dir is not None else None
    in_project = pdir is not None and is_inside(p.path, pdir)
    env = p.env
    root = env["CLAUDE_PLUGIN_ROOT"]

    def separate(node: HandlerNode) -> HandlerNode:
        if node.dedupe_key is None:
            return node
        return attrs.evolve(node, dedupe_key=("plugin", root, node.dedupe_key))

    config, _ = load_source(
        HookFile(format="claude-plugin", dialect=p.dialect, builder=hooks_file_builder),
        Reading(
            path=os.fspath(p.path),
            scope="project" if in_project else "plugin",
            project_dir=pdir,
            precedence=PRECEDENCE["plugin"] if precedence is None else precedence,
            trust=trust,
            kinds=kinds,
            data=data,
            env=env,
            plugin_root=root,
            plugin_data=env.get("CLAUDE_PLUGIN_DATA"),
            transform=separate,
        ),
    )

    return config


def load_plugin_file(
    path: str,
    *,
    scope: str | None = None,
    project_dir: str | None = None,
    precedence: int | None = None,
    trust: TrustArg = None,
    kinds: HandlerKinds | None = None,
    data: bytes | None = None,
    plugin_data: str | os.PathLike[str] | None = None,
) -> LoadedConfig:
    """A plugin's ``hooks/hooks.json`` by its path (the plugin is the directory above
    ``hooks/``); ``scope`` is decided by where it lies (:func:`load_claude_plugin`)."""
    plugin = Plugin(
        root=os.path.dirname(os.path.dirname(os.path.abspath(path))),
        data=os.fspath(plugin_data) if plugin_data is not None else None,
        hooks_file=path,
    )
    return load_claude_plugin(
        plugin, project_dir=project_dir, precedence=precedence, kinds=kinds, data=data, trust=trust
    )
