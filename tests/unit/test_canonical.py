import pytest
from hypothesis import given, strategies as st

from pbem import canonical
from pbem.errors import MalformedFile

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


def test_documented_vector() -> None:
    value = {"b": [1, -2, True, None], "a": "é\"\\\n\u0001", "A": {}}
    assert canonical.encode(value) == '{"A":{},"a":"é\\"\\\\\\n\\u0001","b":[1,-2,true,null]}'.encode()


@given(json_values)
def test_encode_decode_round_trip(value: object) -> None:
    data = canonical.encode(value)
    assert canonical.decode(data, "x") == value
    assert canonical.encode(canonical.decode(data, "x")) == data


@pytest.mark.parametrize(
    "data, reason",
    [
        (b'{"a":1,"a":2}', "duplicate key"),
        (b'{"a":1.0}', "not an integer"),
        (b'{"a":1e3}', "not an integer"),
        (b'[NaN]', "NaN"),
        (b'{ "a":1}', "canonical"),
        (b'{"b":1,"a":2}', "canonical"),
        (b'{"a":"\\u00e9"}', "canonical"),
        (b'{"a":01}', "JSON"),
        (b'[9007199254740992]', "outside"),
        (b"\xef\xbb\xbf{}", "BOM"),
        (b"\xff", "UTF-8"),
        (b"[" * 40 + b"]" * 40, "deeper"),
        (b"", "JSON"),
    ],
)
def test_rejects_anything_but_the_canonical_form(data: bytes, reason: str) -> None:
    with pytest.raises(MalformedFile, match=reason):
        canonical.decode(data, "file 7")


def test_error_names_the_file() -> None:
    with pytest.raises(MalformedFile, match="^games/000007.pbem: "):
        canonical.decode(b"{}x", "games/000007.pbem")


# Values near the limits the shortcut relies on: integers about 2**53, nesting about MAX_DEPTH.
edgy_values = st.recursive(
    st.none() | st.integers(-(2**54), 2**54) | st.sampled_from([2**53 - 1, 2**53, -(2**53) + 1, -(2**53)]) | st.text(max_size=3),
    lambda children: st.lists(children, max_size=2) | st.dictionaries(st.text(max_size=2), children, max_size=2),
    max_leaves=40,
)


def _nested(value: object, depth: int) -> object:
    for _ in range(depth):
        value = [value]
    return value


def _verdict(data: bytes) -> object:
    try:
        return canonical.decode(data, "f")
    except MalformedFile as exc:
        return str(exc)


@given(edgy_values, st.integers(0, 36), st.booleans())
def test_the_decode_shortcut_gives_the_full_checks_verdict(value: object, depth: int, empty: bool) -> None:
    """`decode` skips walking the value when the text cannot fail the walk: same value or same error."""
    import json

    inner = [] if empty else value
    data = json.dumps(_nested(inner, depth), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    fast = _verdict(data)
    always = canonical._needs_check
    canonical._needs_check = lambda text: True  # type: ignore[assignment]
    try:
        full = _verdict(data)
    finally:
        canonical._needs_check = always  # type: ignore[assignment]
    assert fast == full
