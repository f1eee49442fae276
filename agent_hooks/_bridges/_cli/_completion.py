"""``agent-hooks completion bash|zsh|fish``: a shell completion script, written from the
command-line parser itself (every command, nested action, option and option value the
parser knows), so it never drifts from ``--help``.

The parser tree is read through what :class:`~agent_hooks._bridges._cli._Parser`
records (its ``arguments`` and ``commands``) and the public attributes of
:class:`argparse.Action` (``option_strings``, ``nargs``, ``choices``, ``metavar``,
``help``). An option's value completes to its choices when it has any, to directories
for a ``DIR`` metavar, to file names otherwise. Hidden options (``help=SUPPRESS``) are
left out. Nothing here is imported unless the ``completion`` command runs (or the full
parser is built, for ``--help``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["SHELLS", "Level", "levels", "register", "script"]


def register(subparsers: Any) -> None:
    """Add ``completion`` to the top-level parser."""
    helptext = "print a shell completion script (bash, zsh or fish)"
    p = subparsers.add_parser(
        "completion",
        help=helptext,
        description="Print the completion script of SHELL on stdout. bash: add "
        "'eval \"$(agent-hooks completion bash)\"' to ~/.bashrc. zsh: add "
        "'source <(agent-hooks completion zsh)' to ~/.zshrc (after compinit), or save it "
        "as _agent-hooks in a directory of $fpath. fish: agent-hooks completion fish > "
        "~/.config/fish/completions/agent-hooks.fish",
    )
    p.add_argument("shell", choices=tuple(SHELLS), metavar="SHELL", help="bash, zsh or fish")
    p.set_defaults(func=_main)


class Option:
    """One option of a command: its spellings, and what its value completes to."""

    def __init__(self, action: argparse.Action) -> None:
        self.names: tuple[str, ...] = tuple(action.option_strings)
        self.takes_value = action.nargs != 0
        self.choices: tuple[str, ...] = tuple(str(c) for c in action.choices or ())
        self.directory = action.metavar == "DIR"
        self.help = _first_clause(action.help or "")


class Level:
    """One command level: the top (``path == ()``), a command (``("daemon",)``) or a
    nested action (``("daemon", "status")``)."""

    def __init__(self, path: tuple[str, ...], parser: Any, help: str) -> None:
        self.path = path
        self.help = help
        self.commands: dict[str, str] = {
            name: _first_clause(sub.summary or sub.description or "")
            for name, sub in parser.commands.items()
        }
        self.options: list[Option] = []
        self.words: list[str] = []
        """Positional choices (``completion``'s SHELL)."""
        for action in parser.arguments:
            if action.help == argparse.SUPPRESS:
                continue
            if action.option_strings:
                self.options.append(Option(action))
            elif action.choices is not None and set(action.choices) != set(parser.commands):
                self.words += [str(c) for c in action.choices]

    @property
    def key(self) -> str:
        return " ".join(self.path)

    def candidates(self) -> list[str]:
        """Every word that may come next at this level."""
        return [n for o in self.options for n in o.names] + list(self.commands) + self.words


def levels(parser: Any, path: tuple[str, ...] = (), help: str = "") -> Iterator[Level]:
    """Every command level of ``parser`` (built by ``build_parser()``), depth first."""
    level = Level(path, parser, help)
    yield level
    for name, sub in parser.commands.items():
        yield from levels(sub, (*path, name), level.commands[name])


def _first_clause(text: str) -> str:
    text = " ".join(text.split())
    for stop in (". ", "; ", " ("):
        text = text.split(stop, 1)[0]
    return text.rstrip(".")


def _sh_words(words: list[str]) -> str:
    return " ".join(words)


def _transitions(all_levels: list[Level]) -> list[tuple[str, str, str]]:
    """(level key, command word, next level key) of every command word."""
    return [(lv.key, name, " ".join((*lv.path, name))) for lv in all_levels for name in lv.commands]


def _bash(all_levels: list[Level]) -> str:
    out = [
        "# bash completion for agent-hooks (written by `agent-hooks completion bash`)",
        "_agent_hooks() {",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
        '    local level="" word i',
        "    COMPREPLY=()",
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        '        word="${COMP_WORDS[i]}"',
        '        case "$level|$word" in',
    ]
    out += [f'            "{k}|{w}") level="{n}" ;;' for k, w, n in _transitions(all_levels)]
    out += ["        esac", "    done", '    case "$level|$prev" in']
    for lv in all_levels:
        for o in (o for o in lv.options if o.takes_value):
            pattern = "|".join(f'"{lv.key}|{n}"' for n in o.names)
            if o.choices:
                body = f'COMPREPLY=($(compgen -W "{_sh_words(list(o.choices))}" -- "$cur"))'
            elif o.directory:
                body = 'COMPREPLY=($(compgen -d -- "$cur"))'
            else:
                body = ":"  # (an empty answer: -o default completes file names)
            out.append(f"        {pattern}) {body}; return ;;")
    out += ["    esac", '    case "$level" in']
    for lv in all_levels:
        words = _sh_words(lv.candidates())
        out.append(f'        "{lv.key}") COMPREPLY=($(compgen -W "{words}" -- "$cur")) ;;')
    out += ["    esac", "}", "complete -o default -F _agent_hooks agent-hooks", ""]
    return "\n".join(out)


def _zsh(all_levels: list[Level]) -> str:
    out = [
        "#compdef agent-hooks",
        "# zsh completion for agent-hooks (written by `agent-hooks completion zsh`)",
        "_agent_hooks() {",
        '    local level="" word i prev="${words[CURRENT-1]}"',
        "    for ((i = 2; i < CURRENT; i++)); do",
        '        word="${words[i]}"',
        '        case "$level|$word" in',
    ]
    out += [f'            "{k}|{w}") level="{n}" ;;' for k, w, n in _transitions(all_levels)]
    out += ["        esac", "    done", '    case "$level|$prev" in']
    for lv in all_levels:
        for o in (o for o in lv.options if o.takes_value):
            pattern = "|".join(f'"{lv.key}|{n}"' for n in o.names)
            if o.choices:
                body = f"compadd -- {_sh_words(list(o.choices))}"
            elif o.directory:
                body = "_directories"
            else:
                body = "_files"
            out.append(f"        {pattern}) {body}; return ;;")
    out += ["    esac", '    case "$level" in']
    for lv in all_levels:
        out.append(f'        "{lv.key}") compadd -- {_sh_words(lv.candidates())} ;;')
    out += [
        "    esac",
        "}",
        'if [[ "${funcstack[1]}" == "_agent-hooks" ]]; then',
        '    _agent_hooks "$@"',
        "else",
        "    compdef _agent_hooks agent-hooks",
        "fi",
        "",
    ]
    return "\n".join(out)


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish(all_levels: list[Level]) -> str:
    out = ["# fish completion for agent-hooks (written by `agent-hooks completion fish`)"]
    out.append(
        "function __agent_hooks_level --description 'the command words typed so far'\n"
        "    set -l level\n"
        "    for word in (commandline -opc)[2..-1]\n"
        "        switch \"$level|$word\"\n"
        + "".join(
            f"            case {_fish_quote(f'{k}|{w}')}\n                set level {_fish_quote(n)}\n"
            for k, w, n in _transitions(all_levels)
        )
        + "        end\n"
        "    end\n"
        '    echo "$level"\n'
        "end"
    )
    out.append("complete -c agent-hooks -f")
    for lv in all_levels:
        cond = f"-n {_fish_quote(f'test (__agent_hooks_level) = {_fish_quote(lv.key)}')}"
        for name, help in lv.commands.items():
            out.append(f"complete -c agent-hooks {cond} -a {name} -d {_fish_quote(help)}")
        for word in lv.words:
            out.append(f"complete -c agent-hooks {cond} -a {word}")
        for o in lv.options:
            spell = " ".join(
                f"-l {n[2:]}" if n.startswith("--") else f"-s {n[1:]}" for n in o.names
            )
            value = ""
            if o.takes_value:
                if o.choices:
                    value = f" -x -a {_fish_quote(' '.join(o.choices))}"
                elif o.directory:
                    value = " -x -a '(__fish_complete_directories)'"
                else:
                    value = " -r -F"
            out.append(
                f"complete -c agent-hooks {cond} {spell}{value} -d {_fish_quote(o.help)}"
            )
    return "\n".join(out) + "\n"


SHELLS: dict[str, Callable[[list[Level]], str]] = {"bash": _bash, "zsh": _zsh, "fish": _fish}
"""Shell name -> the writer of its completion script."""


def script(shell: str) -> str:
    """The completion script of ``shell`` (a key of :data:`SHELLS`) for the full
    command line."""
    from . import build_parser

    return SHELLS[shell](list(levels(build_parser())))


def _main(args: argparse.Namespace) -> int:
    sys.stdout.write(script(args.shell))
    return 0
