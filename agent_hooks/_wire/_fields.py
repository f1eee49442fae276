"""Field types as data: one small descriptor tree per annotated field.

The wire codec converts and validates JSON values with it, and the JSON Schema
generator describes them with it, so the two can never disagree. Descriptors
are built once per class (cached) from the attrs annotations.
"""

from __future__ import annotations

import collections.abc
import functools
import reprlib
import types
import typing
from typing import Any, Literal, Union

import attrs

from .._events._model import FieldInfo, field_info

__all__ = [
    "FieldCodec",
    "SavedText",
    "TypeDesc",
    "WireBadValue",
    "field_codecs",
    "json_type_name",
    "short_repr",
    "snake_to_camel",
]


class WireBadValue(Exception):
    """A JSON value does not fit a field's type. ``invalid_value`` tells enum misses apart."""

    def __init__(self, message: str, *, invalid_value: bool = False) -> None:
        super().__init__(message)
        self.invalid_value = invalid_value


@attrs.frozen
class TypeDesc:
    """A field type: ``kind`` is str, int, float, bool, any, literal, map, list, object or union."""

    kind: str
    values: tuple[Any, ...] = ()
    """Allowed values (literal) or member descriptors (union, list item, map value)."""
    cls: type | None = None
    """The attrs class of an ``object``."""
    nullable: bool = False

    def describe(self) -> str:
        """A short human name for messages: ``string``, ``one of 'allow', 'deny'``."""
        if self.kind == "literal":
            return "one of " + ", ".join(repr(v) for v in self.values)
        if self.kind == "union":
            return " or ".join(t.describe() for t in self.values)
        return {
            "str": "a string",
            "int": "an integer",
            "float": "a number",
            "bool": "a boolean",
            "any": "any value",
            "map": "an object",
            "list": "an array",
            "object": "an object",
        }[self.kind]


def _desc(tp: Any) -> TypeDesc:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is Union or (hasattr(types, "UnionType") and origin is types.UnionType):
        members = [a for a in args if a is not type(None)]
        nullable = len(members) != len(args)
        if len(members) == 1:
            return attrs.evolve(_desc(members[0]), nullable=nullable)
        return TypeDesc("union", tuple(_desc(m) for m in members), nullable=nullable)
    if origin is Literal:
        return TypeDesc("literal", tuple(args))
    if tp is str:
        return TypeDesc("str")
    if tp is bool:
        return TypeDesc("bool")
    if tp is int:
        return TypeDesc("int")
    if tp is float:
        return TypeDesc("float")
    if tp is Any or tp is object:
        return TypeDesc("any")
    if origin in (dict, collections.abc.Mapping, collections.abc.MutableMapping) or tp is dict:
        value = _desc(args[1]) if len(args) == 2 else TypeDesc("any")
        return TypeDesc("map", (value,))
    if origin in (list, tuple, collections.abc.Sequence) or tp in (list, tuple):
        item = _desc(args[0]) if args else TypeDesc("any")
        return TypeDesc("list", (item,))
    if isinstance(tp, type) and attrs.has(tp):
        return TypeDesc("object", cls=tp)
    raise TypeError(f"agent_hooks cannot describe field type {tp!r}")


def snake_to_camel(name: str) -> str:
    """``updated_input`` -> ``updatedInput``."""
    head, *rest = name.rstrip("_").split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


@attrs.frozen
class FieldCodec:
    """Everything the codec needs about one field, computed once per class."""

    name: str
    type: TypeDesc
    info: FieldInfo
    required: bool
    claude_key: str
    docker_key: str

    def key(self, wire: str) -> str:
        """The JSON key of this field in a wire format."""
        return self.claude_key if wire == "claude" else self.docker_key

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every key accepted on decoding: both wire spellings, the Python name, aliases."""
        seen: dict[str, None] = {}
        for k in (self.claude_key, self.docker_key, self.name, *self.info.deprecated_aliases):
            seen[k] = None
        return tuple(seen)


_CODECS: dict[tuple[type, bool], tuple[FieldCodec, ...]] = {}


def field_codecs(cls: type, output: bool) -> tuple[FieldCodec, ...]:
    """The codecs of an attrs class's fields.

    ``output`` selects the key rule: outputs use camelCase in the claude wire
    format; inputs use the snake_case Python names in both formats. Fields marked
    ``passthrough`` (what the wire held that the class does not declare) are not wire
    fields and are left out. Computed once per class and cached.
    """
    cached = _CODECS.get((cls, output))
    if cached is not None:
        return cached
    hints = typing.get_type_hints(cls)
    result = []
    for a in attrs.fields(cls):
        info = field_info(a)
        if info.passthrough:
            continue
        docker = info.wire or a.name.rstrip("_")
        claude = (info.wire or snake_to_camel(a.name)) if output else docker
        required = a.default is attrs.NOTHING
        result.append(
            FieldCodec(
                name=a.name,
                type=_desc(hints[a.name]),
                info=info,
                required=required,
                claude_key=claude,
                docker_key=docker,
            )
        )
    _CODECS[(cls, output)] = codecs = tuple(result)
    return codecs


def convert(
    t: TypeDesc, value: Any, *, wire: str, output: bool, notes: list[str] | None = None
) -> Any:
    """Check a decoded JSON value against a type and turn it into the Python value.

    Arrays become tuples, objects of an attrs type become instances.

    Raises:
        WireBadValue: the value does not fit.
    """
    if value is None:
        if t.nullable or t.kind == "any":
            return None
        raise WireBadValue(f"expected {t.describe()}, got null")
    kind = t.kind
    if kind == "any":
        return value
    if kind == "str":
        if isinstance(value, str):
            return value
    elif kind == "bool":
        if isinstance(value, bool):
            return value
    elif kind == "int":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif kind == "float":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                return float(value)
            except OverflowError:  # an integer beyond the float range
                raise WireBadValue(f"expected {t.describe()}, got a number too large") from None
    elif kind == "literal":
        if value in t.values and type(value) in {type(v) for v in t.values}:
            return value
        raise WireBadValue(f"expected {t.describe()}, got {short_repr(value)}", invalid_value=True)
    elif kind == "map":
        if isinstance(value, dict):
            (vt,) = t.values
            if vt.kind == "any":
                return value
            return {
                k: convert(vt, v, wire=wire, output=output, notes=notes) for k, v in value.items()
            }
    elif kind == "list":
        if isinstance(value, (list, tuple)):
            (it,) = t.values
            return tuple(convert(it, v, wire=wire, output=output, notes=notes) for v in value)
    elif kind == "object":
        if isinstance(value, dict):
            assert t.cls is not None
            return decode_object(t.cls, value, wire=wire, output=output, notes=notes)
    elif kind == "union":
        for member in t.values:
            try:
                return convert(member, value, wire=wire, output=output, notes=notes)
            except WireBadValue:
                continue
    raise WireBadValue(f"expected {t.describe()}, got {json_type_name(value)}")


@attrs.frozen
class _ObjectKeys:
    """How a nested object of one attrs class is read: each field with the keys it is
    accepted under (in order of preference), and every key any field takes."""

    fields: tuple[tuple[FieldCodec, tuple[str, ...]], ...]
    known: frozenset[str]


@functools.cache
def _object_keys(cls: type, output: bool) -> _ObjectKeys:
    fields = tuple((fc, fc.spellings) for fc in field_codecs(cls, output))
    return _ObjectKeys(fields=fields, known=frozenset(k for _, keys in fields for k in keys))


def decode_object(
    cls: type, value: dict[str, Any], *, wire: str, output: bool, notes: list[str] | None = None
) -> Any:
    """Decode a nested JSON object into an attrs instance, strictly.

    Each field takes the first of its spellings present (see
    :attr:`FieldCodec.spellings`); fields are read in class order, so the first
    field that does not fit is the one reported. Unknown keys of an answer
    (``output``) are an error; those of a payload are dropped and, when ``notes``
    is given, listed there (sorted).

    Raises:
        WireBadValue: a required key is missing or a value does not fit.
    """
    index = _object_keys(cls, output)
    kwargs: dict[str, Any] = {}
    for fc, keys in index.fields:
        for key in keys:
            if key in value:
                try:
                    kwargs[fc.name] = convert(
                        fc.type, value[key], wire=wire, output=output, notes=notes
                    )
                except WireBadValue as exc:
                    raise WireBadValue(
                        f"{fc.key(wire)}: {exc}", invalid_value=exc.invalid_value
                    ) from None
                break
        else:
            if fc.required:
                raise WireBadValue(f"missing required key {fc.key(wire)!r}")
    unknown = sorted(value.keys() - index.known, key=str)
    if unknown and not output and notes is not None:
        # inputs tolerate keys a newer harness added to nested objects, and say so
        notes.extend(f"{k!r} in {cls.__name__}" for k in unknown)
    if unknown and output:
        raise WireBadValue(f"unknown keys {', '.join(map(repr, unknown))}")
    return cls(**kwargs)


class SavedText(str):
    """A message string shown shortened: the text is a preview that names the file holding
    the whole text (``full``, saved at ``path``). Its wire form (:func:`to_json`) is the
    whole text, so that a harness reading an answer applies its own limit to it."""

    full: str
    path: str | None

    def __new__(cls, shown: str, *, full: str, path: str | None) -> SavedText:
        text = super().__new__(cls, shown)
        text.full = full
        text.path = path
        return text

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, Any]]:  # copy and pickle
        return (str(self),), {"full": self.full, "path": self.path}


def to_json(value: Any, *, wire: str, output: bool) -> Any:
    """Turn a Python field value into JSON data (attrs instances by their wire keys).

    Dicts and lists are new at every depth, so the result shares none with ``value``.
    Any depth: a value is as deep as the JSON parser that read it allowed, whatever
    recursion the caller has left. The first :data:`_RECURSION_DEPTH` levels are
    converted by recursion (fast), the rest with an explicit stack.

    Raises:
        ValueError: ``value`` holds itself (JSON data cannot).
    """
    return _to_json(value, wire, output, 0)


_RECURSION_DEPTH = 64
"""Levels :func:`to_json` converts by recursion before it goes on with a stack (each
level is at most two frames, well inside any caller's recursion limit)."""


def _to_json(value: Any, wire: str, output: bool, depth: int) -> Any:
    t = type(value)
    if t in _SCALARS:
        return value
    if t is SavedText:
        return value.full
    if depth >= _RECURSION_DEPTH:
        return _to_json_deep(value, wire, output)
    depth += 1
    if t is dict:
        return {
            str(k): v if type(v) in _SCALARS else _to_json(v, wire, output, depth)
            for k, v in value.items()
        }
    if isinstance(value, (str, int, float, bool)):
        return value
    if attrs.has(t):
        return {
            fc.key(wire): _to_json(v, wire, output, depth)
            for fc in field_codecs(t, output)
            if (v := getattr(value, fc.name)) is not None
        }
    if isinstance(value, collections.abc.Mapping):
        return {
            str(k): v if type(v) in _SCALARS else _to_json(v, wire, output, depth)
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _SCALARS else _to_json(v, wire, output, depth) for v in value]
    return value


def _to_json_deep(value: Any, wire: str, output: bool) -> Any:
    """:func:`to_json` with an explicit stack instead of recursion."""
    top: list[Any] = [None]
    # Each entry: (a value, the container its JSON goes into, its key or index there), or
    # the id of a container whose contents are all converted.
    todo: list[tuple[Any, Any, Any] | int] = [(value, top, 0)]
    open_ids: set[int] = set()  # containers around the value being converted
    while todo:
        entry = todo.pop()
        if isinstance(entry, int):
            open_ids.discard(entry)
            continue
        item, into, key = entry
        into[key] = _fresh(item, wire, output, todo, open_ids)
    return top[0]


def _fresh(
    item: Any,
    wire: str,
    output: bool,
    todo: list[tuple[Any, Any, Any] | int],
    open_ids: set[int],
) -> Any:
    """One value of :func:`_to_json_deep`: a scalar as it is, or a new container whose
    non-scalar members are put on ``todo`` to be converted in place."""
    t = type(item)
    if t in _SCALARS:
        return item
    if t is SavedText:
        return item.full
    if isinstance(item, (str, int, float, bool)):
        return item
    fresh: dict[str, Any] | list[Any]
    if attrs.has(t):
        fresh = {
            fc.key(wire): v
            for fc in field_codecs(t, output)
            if (v := getattr(item, fc.name)) is not None
        }
        members: Any = fresh.items()
    elif isinstance(item, collections.abc.Mapping):
        fresh = {str(k): v for k, v in item.items()}
        members = fresh.items()
    elif isinstance(item, (list, tuple)):
        fresh = list(item)
        members = enumerate(fresh)
    else:
        return item
    ident = id(item)
    if ident in open_ids:
        raise ValueError(f"a {t.__name__} that holds itself is not JSON data")
    open_ids.add(ident)
    todo.append(ident)  # popped once every member below it is done
    todo.extend((v, fresh, k) for k, v in members if type(v) not in _SCALARS)
    return fresh


_SCALARS = frozenset({str, int, float, bool, type(None)})


_SHORT = reprlib.Repr()
_SHORT.maxlevel = 4
_SHORT.maxstring = _SHORT.maxother = 200
_SHORT.maxdict = _SHORT.maxlist = _SHORT.maxtuple = 8


def short_repr(value: object) -> str:
    """``repr(value)`` for a message: nesting, long strings and long containers cut
    (a value from a hook may be deeper than ``repr`` can go)."""
    return _SHORT.repr(value)


def json_type_name(value: object) -> str:
    """A short name of a value's JSON type, for messages: ``a string``, ``an object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, collections.abc.Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__
