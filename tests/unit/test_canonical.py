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
