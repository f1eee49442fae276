"""Prompt templates for model, prompt and agent hooks.

Two syntaxes, as the harnesses define them:

* Claude Code: ``$ARGUMENTS`` is replaced by the hook input as JSON; ``\\$``
  escapes a literal dollar sign. Prompt hooks without ``$ARGUMENTS`` get the
  input appended (``append_arguments``).
* Docker Agent: a Go ``text/template`` subset: ``{{ .ToolName }}`` (input
  fields by their Go names, i.e. the PascalCase of the payload keys, or the
  payload keys themselves), pipelines with ``toJSON`` and ``truncate N``
  (``{{ .ToolInput | toJSON | truncate 200 }}`` or ``{{ truncate 200 .Prompt }}``);
  nested fields as in Go (``{{ .ToolInput.command }}``). An unknown field renders
  as an empty string.

Both are substituted in one pass over the template: what a substitution inserts
(the input's own text) is never read as template syntax.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["render_template"]

_TOKEN = re.compile(r"\\\$|\$ARGUMENTS|\{\{-?\s*(.*?)\s*-?\}\}", re.DOTALL)
"""One pass: an escaped dollar, ``$ARGUMENTS``, or a Go-template action."""


def _pascal(key: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in key.split("_"))


def _lookup(payload: Mapping[str, Any], name: str) -> Any:
    if name in payload:
        return payload[name]
    head, dot, rest = name.partition(".")
    if dot:  # .ToolInput.command: a field of a field
        inner = _field(payload, head)
        return _lookup(inner, rest) if isinstance(inner, Mapping) else None
    return _field(payload, name)


def _field(payload: Mapping[str, Any], name: str) -> Any:
    if name in payload:
        return payload[name]
    folded = name.lower().replace("_", "")
    for key, value in payload.items():
        if key.lower().replace("_", "") == folded or _pascal(key) == name:
            return value
    return None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _truncate(value: Any, n: int) -> str:
    text = _text(value)
    return text if len(text) <= n else text[:n] + "…"


def _eval_command(words: list[str], payload: Mapping[str, Any], piped: Any, has_pipe: bool) -> Any:
    head = words[0] if words else ""
    args = words[1:]
    if head.startswith("."):
        return _lookup(payload, head[1:]) if head != "." else dict(payload)
    if head == "toJSON":
        value = _eval_command(args, payload, None, False) if args else piped
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if head == "truncate":
        if not args or not args[0].isdigit():
            raise ValueError("truncate needs a length: truncate 200")
        n = int(args[0])
        value = _eval_command(args[1:], payload, None, False) if len(args) > 1 else piped
        return _truncate(value, n)
    if head.startswith('"') and head.endswith('"'):
        return json.loads(head)
    raise ValueError(f"unknown template function {head!r}")


def _eval(expr: str, payload: Mapping[str, Any]) -> str:
    value: Any = None
    piped = False
    for stage in expr.split("|"):
        words = stage.split()
        value = _eval_command(words, payload, value, piped)
        piped = True
    return _text(value)


def render_template(
    template: str, payload: Mapping[str, Any], *, append_arguments: bool = False
) -> str:
    """Render ``template`` against the hook input (its claude wire dict).

    ``append_arguments``: when the template has no ``$ARGUMENTS``, append the input
    JSON after a blank line (Claude Code prompt hooks).

    Raises:
        ValueError: a Go-template action uses an unknown function or bad arguments.
    """
    arguments = json.dumps(payload, ensure_ascii=False)
    used = False

    def substitute(m: re.Match[str]) -> str:
        nonlocal used
        token = m.group(0)
        if token == "\\$":
            return "$"
        if token == "$ARGUMENTS":
            used = True
            return arguments
        return _eval(m.group(1), payload)

    text = _TOKEN.sub(substitute, template)
    if append_arguments and not used:
        text = f"{text.rstrip()}\n\n{arguments}"
    return text
