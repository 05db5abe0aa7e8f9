"""The canonical encoding of signed bodies (docs/protocol.md, "Canonical JSON").

One value has exactly one encoding, and a received body must *be* that
encoding: we parse strictly, re-encode, and compare bytes. So two parsers can
never read one signed file two ways, and no re-serialisation can change what
was signed (the Secure Scuttlebutt failure).

The encoding: JSON, UTF-8 without BOM; object keys sorted by code point and
unique; no whitespace outside strings; integers only, within +-(2**53 - 1);
no floats, NaN or Infinity; strings escaped exactly as Python's
`json.dumps(..., ensure_ascii=False)` does (\\" \\\\ \\b \\f \\n \\r \\t and
\\u00XX for other control characters; everything else as raw UTF-8).
"""

from __future__ import annotations

import json
from typing import Any

from pbem.errors import MalformedFile

MAX_DEPTH = 32
MAX_INT = 2**53 - 1


def encode(value: Any) -> bytes:
    """The canonical bytes of a JSON value built from dict/list/str/int/bool/None."""
    _check_value(value, 0)
    return _dumps(value)


def _dumps(value: Any) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def decode(data: bytes, what: str) -> Any:
    """Parse canonical bytes; raise MalformedFile naming `what` unless canonical."""
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise MalformedFile(f"{what}: not UTF-8 (byte {exc.start})") from None
    _check_depth(text, what)
    try:
        value = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_float=_no_float,
            parse_int=_bounded_int,
            parse_constant=_no_constant,
        )
    except _Rejected as exc:
        raise MalformedFile(f"{what}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise MalformedFile(f"{what}: not JSON ({exc.msg} at char {exc.pos})") from None
    except ValueError as exc:  # e.g. an integer longer than Python's int-string limit
        raise MalformedFile(f"{what}: not acceptable JSON ({exc})") from None
    # Parsed so, the value holds only what `encode` accepts (string keys, bounded integers, the depth
    # checked above): it is written again without `_check_value`'s walk over every item.
    try:
        again = _dumps(value)
    except UnicodeEncodeError as exc:  # a lone surrogate escaped in a string (\ud800)
        raise MalformedFile(f"{what}: {exc}") from None
    if again != data:
        raise MalformedFile(f"{what}: not in canonical form (see docs/protocol.md)")
    return value


class _Rejected(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _Rejected(f"duplicate key {key!r}")
        result[key] = value
    return result


def _no_float(text: str) -> Any:
    raise _Rejected(f"number {text} is not an integer")


def _bounded_int(text: str) -> int:
    value = int(text)
    if not -MAX_INT <= value <= MAX_INT:
        raise _Rejected(f"integer {value} outside +-(2**53 - 1)")
    return value


def _no_constant(text: str) -> Any:
    raise _Rejected(f"{text} is not allowed")


def _check_value(value: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise _Rejected(f"nested deeper than {MAX_DEPTH}")
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise _Rejected(f"integer {value} outside +-(2**53 - 1)")
        return
    if isinstance(value, list):
        for item in value:
            _check_value(item, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise _Rejected(f"object key {key!r} is not a string")
            _check_value(item, depth + 1)
        return
    raise _Rejected(f"{type(value).__name__} values are not allowed")


def _check_depth(text: str, what: str) -> None:
    """Refuse deep nesting before the parser recurses into it (docs/protocol.md: no value deeper than
    MAX_DEPTH, the body at depth 0). A container opened at depth MAX_DEPTH (the MAX_DEPTH + 1'th bracket)
    must be empty, as `encode` has it: whatever it held would stand deeper."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    in_string = False
    escaped = False
    innermost = False  # just opened a container at depth MAX_DEPTH: the next character must close it
    for char in text:
        if innermost:
            if char not in "]}":
                raise MalformedFile(f"{what}: nested deeper than {MAX_DEPTH}")
            innermost = False
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH + 1:
                raise MalformedFile(f"{what}: nested deeper than {MAX_DEPTH}")
            innermost = depth == MAX_DEPTH + 1
        elif char in "]}":
            depth -= 1
