import pytest
from hypothesis import given, strategies as st

from pbem.signed import canonical
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


@pytest.mark.parametrize("levels", [31, 32, 33, 34])
@pytest.mark.parametrize("inner", [b"", b"1", b'"[a]"', b"{}", b"[]", b'{"k":1}', b"null,2"])
@pytest.mark.parametrize("open_, close", [(b"[", b"]"), (b'{"k":', b"}")])
def test_nesting_decode_refuses_exactly_what_encode_refuses(levels: int, inner: bytes, open_: bytes, close: bytes) -> None:
    """docs/protocol.md: no value deeper than 32 (the body at depth 0). 32 arrays around a scalar are
    allowed and 33 are not; an empty container may stand at depth 32. Decode once let a scalar stand at
    depth 33, which encode refuses: a body pbem could read but never write."""
    if open_ != b"[" and inner in (b"", b"null,2"):
        return  # not JSON as an object's value
    data = open_ * levels + inner + close * levels
    try:
        value = canonical.decode(data, "x")
    except MalformedFile as exc:
        decoded = str(exc)
    else:
        decoded = "ok"
    try:
        canonical.encode(value if decoded == "ok" else canonical.json.loads(data))
    except (MalformedFile, ValueError) as exc:
        encoded = str(exc)
    else:
        encoded = "ok"
    assert (decoded == "ok") == (encoded == "ok"), (decoded, encoded)
    if decoded != "ok":
        assert "nested deeper than 32" in decoded
