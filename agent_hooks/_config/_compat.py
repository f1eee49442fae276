"""The per-harness ``load_*`` functions of earlier releases, each a thin wrapper over
:func:`~._load.load` (``load_X(path)`` is ``load(path, harness=...)``) or over one
harness row's locations (``load_X_dir`` is :func:`~._discover.load_harness`). Their
results can be reloaded (:func:`~._snapshot.reload`) like ``load()``'s.

=========================  ==================================================
old name                   now
=========================  ==================================================
``load_claude_settings``   ``load(path, harness="claude-settings")``
``load_codex``             ``load(path, harness="codex-json")`` (``.toml``:
                           ``codex-toml``)
``load_codex_toml``        ``load(path, harness="codex-toml")``
``load_copilot``           ``load(path, harness="copilot")``
``load_cursor``            ``load(path, harness="cursor")``
``load_deepagents``        ``load(path, harness="deepagents")``
``load_gemini``            ``load(path, harness="gemini")``
``load_docker_agent``      ``load(path, harness="docker-agent", agent=...)``
``load_docker_settings``   ``load(path, harness="docker-settings")``
``load_docker_dropin``     ``load(path, harness="docker-dropin")``
``load_*_dir``, ``load_claude``: one harness's locations (``load_harness``)
``load_docker``,           Docker Agent's walker, hel's file and a Claude
``load_docker_dropins``,   plugin, as before, reloadable
``load_hel``,
``load_claude_plugin``
=========================  ==================================================
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

import attrs

from ._snapshot import LoadedConfig

__all__ = [
    "docker_cli_hooks",
    "load_claude",
    "load_claude_settings",
    "load_codex",
    "load_codex_dir",
    "load_codex_toml",
    "load_copilot",
    "load_copilot_dir",
    "load_cursor",
    "load_cursor_dir",
    "load_deepagents",
    "load_deepagents_dir",
    "load_docker",
    "load_docker_agent",
    "load_docker_dropin",
    "load_docker_dropins",
    "load_docker_settings",
    "load_gemini",
    "load_gemini_dir",
    "load_hel",
    "load_claude_plugin",
]


def _reloadable(fn: Callable[..., LoadedConfig]) -> Callable[..., LoadedConfig]:
    """``fn`` whose result reloads by calling it again with the same arguments."""

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> LoadedConfig:
        return attrs.evolve(fn(*args, **kwargs), recipe=lambda: call(*args, **kwargs))

    return call


def _file(harness: str) -> Callable[..., LoadedConfig]:
    def load_file(path: str | os.PathLike[str], **kwargs: Any) -> LoadedConfig:
        from ._harness import file_loader

        config: LoadedConfig = file_loader(harness)(os.fspath(path), **kwargs)
        return config

    load_file.__doc__ = f"One {harness} file: ``load(path, harness={harness!r})``."
    return _reloadable(load_file)


def _walker(harness: str) -> Callable[..., LoadedConfig]:
    def load_dir(project_dir: str | os.PathLike[str] | None = None, **kwargs: Any) -> LoadedConfig:
        from ._discover import load_harness
        from ._harness import HARNESSES

        if "enterprise" in kwargs:  # (load_cursor_dir's name for the system file)
            kwargs["system"] = kwargs.pop("enterprise")
        return load_harness(HARNESSES[harness], project_dir, **kwargs)

    load_dir.__doc__ = f"Every {harness} location: ``discover(ecosystems=[{harness!r}])``."
    return _reloadable(load_dir)


load_claude_settings = _file("claude-settings")
load_codex = _file("codex-json")
load_codex_toml = _file("codex-toml")
load_copilot = _file("copilot-hooks")
load_cursor = _file("cursor")
load_deepagents = _file("deepagents")
load_gemini = _file("gemini-settings")
load_docker_agent = _file("docker-agent")
load_docker_settings = _file("docker-settings")
load_docker_dropin = _file("docker-dropin")
load_claude = _walker("claude")
load_codex_dir = _walker("codex")
load_copilot_dir = _walker("copilot")
load_cursor_dir = _walker("cursor")
load_deepagents_dir = _walker("deepagents")
load_gemini_dir = _walker("gemini")


def _named(ref: str) -> Callable[..., LoadedConfig]:
    """The function ``"module:name"`` names, imported when first called."""

    def call(*args: Any, **kwargs: Any) -> LoadedConfig:
        from ._harness import resolve

        config: LoadedConfig = resolve(ref)(*args, **kwargs)
        return config

    call.__doc__ = f"See ``agent_hooks._config.{ref.replace(':', '.')}``."
    return _reloadable(call)


load_docker = _named("_docker:load_docker")
load_docker_dropins = _named("_docker:load_docker_dropins")
load_hel = _named("_hel:load_hel")
load_claude_plugin = _named("_plugin:load_claude_plugin")
docker_cli_hooks = _named("_docker:docker_cli_hooks")
