"""Write the JSON Schemas of every hook event's payload and answer into ``typings/``.

Usage (from the repository root)::

    python typings/generate.py           # (re)write typings/*.json and typings/README.md
    python typings/generate.py --check   # exit 1, listing what differs; writes nothing

The schemas come from :func:`agent_hooks._wire._schema.all_schemas`, which reads the
event classes through the wire codec's own field descriptors.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

try:
    from agent_hooks import HookEvent
    from agent_hooks._events._capabilities import CAPABILITIES
    from agent_hooks._wire._native_schema import native_schemas
    from agent_hooks._wire._schema import SCHEMA_BASE_URL, all_schemas
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(HERE.parent))
    from agent_hooks import HookEvent
    from agent_hooks._events._capabilities import CAPABILITIES
    from agent_hooks._wire._native_schema import native_schemas
    from agent_hooks._wire._schema import SCHEMA_BASE_URL, all_schemas

README = "README.md"

_README_HEAD = f"""\
# typings: JSON Schemas of hook payloads and answers

Generated files: do not edit them by hand. They are written by `typings/generate.py`
from the event classes of `agent_hooks`, through the same field descriptors the wire
codec uses, so a schema cannot disagree with what `decode_input` / `decode_output`
accept.

Regenerate after changing an event class, a field's documentation or the capability
table:

```sh
python typings/generate.py           # rewrite the files
python typings/generate.py --check   # exit 1 and list stale, missing or extra files
```

`tests/events/test_schema.py` runs the check, so a stale file fails the test suite.

## What the files are

Two JSON Schema (draft 2020-12) documents per event, with `$id`
`{SCHEMA_BASE_URL}<file name>`:

* `<Event>.input.schema.json`: the payload a hook reads on stdin. Keys are snake_case
  in both wire formats; `hook_event_name` is the claude spelling (`PreToolUse`) or
  the docker spelling (`pre_tool_use`). Fields a harness may omit are not required.
  Unknown keys are allowed (`additionalProperties: true`): harnesses add fields over
  time, and agent_hooks keeps them in `HookInput.extra`.
* `<Event>.output.schema.json`: an answer in the claude wire format. camelCase keys;
  the universal fields (`continue`, `stopReason`, `suppressOutput`, `systemMessage`,
  `terminalSequence`, and `decision`/`reason` where the event honours them) at the
  top level; the event's own fields inside `hookSpecificOutput`, whose
  `hookEventName` names the event. Only the fields the event honours are listed.
  Unknown keys are allowed as well: that is deliberately looser than
  `additionalProperties: false`, because real hooks print keys of their own and
  agent_hooks ignores them with a diagnostic rather than rejecting the answer.
  Docker Agent answers use the snake_case spellings of the same keys
  (`hook_specific_output`, `permission_decision`, ...), which these schemas do not
  describe.

An unset field is omitted on the wire rather than written as `null`, so the schemas
describe each field by its type alone. Every property carries the field's
documentation as `description`; nested objects are `$defs` entries.

## Events

| event | docker name | input | output | summary |
|---|---|---|---|---|
"""


_NATIVE_HEAD = """
## Harnesses with their own wire format

`dialects/<harness>.<event>.input.schema.json` and `.output.schema.json`: the payload
Gemini CLI, Cursor and Copilot (its camelCase form) send for each of their events, and
an answer in their own shape. They are derived from the schemas above and the dialect
rows the translation reads (`agent_hooks/_wire/_dialects.py`), so they cannot disagree
with it. `agent-hooks run` accepts these payloads and answers in these shapes.

| harness | event | input | output |
|---|---|---|---|
"""


def render(schema: dict[str, Any]) -> str:
    """One schema file's text: sorted keys, two-space indent, trailing newline."""
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def readme() -> str:
    """The text of ``typings/README.md``."""
    rows = []
    for ev in sorted(HookEvent, key=lambda e: e.value):
        rows.append(
            f"| {ev.value} | `{ev.snake}` | [input]({ev.value}.input.schema.json) "
            f"| [output]({ev.value}.output.schema.json) | {CAPABILITIES[ev].summary} |"
        )
    native = sorted({name.rsplit(".", 3)[0] for name in native_schemas()})
    lines = [
        f"| `{stem.split('/')[1].split('.')[0]}` | `{stem.split('.', 1)[1]}` "
        f"| [input]({stem}.input.schema.json) | [output]({stem}.output.schema.json) |"
        for stem in native
    ]
    return _README_HEAD + "\n".join(rows) + "\n" + _NATIVE_HEAD + "\n".join(lines) + "\n"


def expected_files() -> dict[str, str]:
    """Every generated file name in ``typings/`` and its expected text."""
    files = {name: render(schema) for name, schema in all_schemas().items()}
    files.update((name, render(schema)) for name, schema in native_schemas().items())
    files[README] = readme()
    return files


def check(directory: Path = HERE) -> list[str]:
    """What differs between ``directory`` and the generated files, one line each.

    An empty list means the directory is up to date. Only ``*.json`` files and the
    README are considered; any other file (this script) is left alone.
    """
    expected = expected_files()
    problems: list[str] = []
    for name, text in sorted(expected.items()):
        path = directory / name
        if not path.is_file():
            problems.append(f"missing: {name}")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"differs: {name}")
    for path in sorted([*directory.glob("*.json"), *directory.glob("dialects/*.json")]):
        name = path.relative_to(directory).as_posix()
        if name not in expected:
            problems.append(f"extra: {name}")
    return problems


def write(directory: Path = HERE) -> list[str]:
    """Write every generated file into ``directory``, delete stale ``*.json`` files,
    and return the names of the files that changed."""
    expected = expected_files()
    changed: list[str] = []
    for path in sorted([*directory.glob("*.json"), *directory.glob("dialects/*.json")]):
        name = path.relative_to(directory).as_posix()
        if name not in expected:
            path.unlink()
            changed.append(name)
    for name, text in sorted(expected.items()):
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(name)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 listing files that differ, are missing or are extra",
    )
    parser.add_argument(
        "--dir", type=Path, default=HERE, help="target directory (default: typings/)"
    )
    args = parser.parse_args(argv)
    if args.check:
        problems = check(args.dir)
        for line in problems:
            print(line)
        if problems:
            print(f"{len(problems)} file(s) out of date; run: python typings/generate.py")
            return 1
        return 0
    changed = write(args.dir)
    print(f"{len(changed)} file(s) written in {args.dir}" if changed else "up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
