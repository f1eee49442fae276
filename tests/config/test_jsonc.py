"""The reader of JSON with comments (``agent_hooks._wire._json.loads_jsonc``), as Gemini
CLI and Qwen Code read their settings (``JSON.parse(stripJsonComments(text))``): any
JSON document with comments between its tokens is the same value; strings holding
``//``, ``/*`` or escapes stay as they are; an error's line and column are those of the
original text; trailing commas only when asked for."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent_hooks._wire._json import loads_jsonc, strip_jsonc

# strings rich in what a comment stripper could get wrong
TRICKY = st.text(alphabet=st.sampled_from(list('ab/*"\\\n\t é\u2028')), max_size=12)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY, inner, max_size=4),
    max_leaves=12,
)

comment_text = st.text(alphabet=st.sampled_from(list('ab /*"\\,]}{[:\t\r')), max_size=10)
gaps = st.lists(
    st.one_of(
        st.sampled_from([" ", "\n", "\t", "\r\n"]),
        comment_text.map(lambda t: f"//{t}\n"),
        comment_text.filter(lambda t: "*/" not in t).map(lambda t: f"/*{t}*/"),
        comment_text.filter(lambda t: "*/" not in t).map(lambda t: f"/*{t}\n{t}\r\n*/"),
    ),
    max_size=3,
).map("".join)


def tokens(value: Any, ascii: bool) -> list[str]:
    """``value``'s JSON text as a list of tokens."""
    if isinstance(value, dict):
        out = ["{"]
        for i, (k, v) in enumerate(value.items()):
            out += ([","] if i else []) + [json.dumps(k, ensure_ascii=ascii), ":"]
            out += tokens(v, ascii)
        return [*out, "}"]
    if isinstance(value, list):
        out = ["["]
        for i, v in enumerate(value):
            out += ([","] if i else []) + tokens(v, ascii)
        return [*out, "]"]
    return [json.dumps(value, ensure_ascii=ascii)]


@st.composite
def commented(draw: Any, value: Any = None) -> tuple[Any, list[str]]:
    """A JSON value, and its tokens with white space and comments between them (and
    before and after)."""
    value = draw(json_values) if value is None else value
    parts = tokens(value, draw(st.booleans()))
    out = [draw(gaps)]
    for token in parts:
        out += [token, draw(gaps)]
    return value, out


@settings(max_examples=200, deadline=None)
@given(commented())
def test_comments_between_tokens_change_nothing(case: tuple[Any, list[str]]) -> None:
    value, parts = case
    text = "".join(parts)
    assert loads_jsonc(text) == value
    assert len(strip_jsonc(text)) == len(text)


@settings(max_examples=100, deadline=None)
@given(TRICKY, commented())
def test_strings_stay_intact(text: str, case: tuple[Any, list[str]]) -> None:
    _, parts = case
    doc = "".join(["[", json.dumps(text), ",", *parts, "]"])
    assert loads_jsonc(doc)[0] == text
    for marker in ("//", "/*", "*/"):
        s = f"x{marker}y"
        assert loads_jsonc(json.dumps({s: s})) == {s: s}


@settings(max_examples=150, deadline=None)
@given(commented(), st.data())
def test_an_error_is_reported_at_its_place_in_the_file(
    case: tuple[Any, list[str]], data: st.DataObject
) -> None:
    _, parts = case
    gap = data.draw(st.integers(0, len(parts) // 2)) * 2  # a gap: between tokens
    text_before = "".join(parts[:gap]) + parts[gap]
    bad = text_before + "@" + "".join(parts[gap + 1 :])
    with pytest.raises(json.JSONDecodeError) as info:
        loads_jsonc(bad)
    if info.value.pos < len(text_before):
        return  # (an earlier error: a value before the bad token was already incomplete)
    assert info.value.pos == len(text_before)
    assert info.value.lineno == text_before.count("\n") + 1
    assert info.value.colno == len(text_before) - text_before.rfind("\n")


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.integers() | TRICKY,
        lambda inner: (
            st.lists(inner, min_size=1, max_size=3)
            | st.dictionaries(TRICKY, inner, min_size=1, max_size=3)
        ),
        max_leaves=8,
    ),
    gaps,
)
def test_trailing_commas_only_when_asked(value: Any, gap: str) -> None:
    text = json.dumps(value)
    if not isinstance(value, (list, dict)):
        return
    trailing = f"{text[:-1]},{gap}{text[-1]}"
    assert loads_jsonc(trailing, trailing_commas=True) == value
    with pytest.raises(json.JSONDecodeError):
        loads_jsonc(trailing)
    assert loads_jsonc(text, trailing_commas=True) == value


def test_strip_json_comments_rules() -> None:
    # a line comment ends before \r\n, a lone \r does not end it
    assert loads_jsonc('{"a": 1 // x\r\n}') == {"a": 1}
    assert strip_jsonc('1 // x\r"y"\n') == "1" + " " * 9 + "\n"
    # a block comment keeps its line breaks, so later lines keep their numbers
    assert strip_jsonc("/* a\nb */1") == "    \n    1"
    # one that is never closed runs to the end of the text
    assert loads_jsonc('{"a": 1} /* unclosed') == {"a": 1}
    with pytest.raises(json.JSONDecodeError, match="line 1 column 10 is never closed"):
        loads_jsonc('{"a": 1, /* unclosed')
    # escapes inside strings
    assert loads_jsonc(r'["a\\", "//", "\"/*"] // end') == ["a\\", "//", '"/*']
    # a slash that starts no comment is left for the parser
    with pytest.raises(json.JSONDecodeError):
        loads_jsonc("[1 / 2]")
    # trailing commas through comments, not a double comma
    assert loads_jsonc("[1, /* x */ // y\n]", trailing_commas=True) == [1]
    with pytest.raises(json.JSONDecodeError):
        loads_jsonc("[1,,]", trailing_commas=True)
