"""Malformed input, property-based: no byte of any file can change unnoticed.

Property 2 (no tampering) at the level of bytes, and the strict encoding of
docs/protocol.md ("Canonical JSON", "Bodies"): every damaged, oversized,
deeply nested, non-canonical or unknown-field file is refused with its own
error naming the file, and nothing raises anything but a PbemError.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from pbem.exchange import armor
from pbem.signed import canonical
from pbem.signed import movefile
from pbem.game import store
from pbem.errors import (
    BadSignature,
    BrokenChain,
    KeyProblem,
    MalformedFile,
    PbemError,
    WrongGame,
    WrongTurn,
)
from pbem.signed.movefile import author_of, file_name

from .conftest import Kit, Recorded

FIXTURE_OK = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


def middle(rec: Recorded) -> int:
    rolling = rec.rolling()
    return rolling[len(rolling) // 2]


def load_fails(folder: Path, k: int, raw: bytes) -> PbemError:
    """Put `raw` in place of file k, replay, restore; the error, which must name file k."""
    path = folder / file_name(k)
    original = path.read_bytes()
    path.write_bytes(raw)
    try:
        with pytest.raises(PbemError) as info:
            store.load(folder)
    finally:
        path.write_bytes(original)
    assert str(path) in str(info.value), info.value
    return info.value


# ----- any damage to any file ------------------------------------------------------------


@settings(FIXTURE_OK, max_examples=250)
@given(data=st.data())
def test_flipping_any_byte_of_any_file_is_caught_naming_that_file(recorded: Recorded, game_dir: Path, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(recorded.raws) - 1), label="file")
    raw = recorded.raws[k]
    offset = data.draw(st.integers(0, len(raw) - 1), label="offset")
    mask = data.draw(st.integers(1, 255), label="xor")
    bad = raw[:offset] + bytes([raw[offset] ^ mask]) + raw[offset + 1 :]
    error = load_fails(game_dir, k, bad)
    # Which check fires depends on the byte (a game id digit: WrongGame; a link: BrokenChain;
    # a key: KeyProblem ...), but it is always a protocol error about that file.
    assert type(error) in {MalformedFile, BadSignature, KeyProblem, WrongGame, BrokenChain, WrongTurn}, error
    store.load(game_dir)  # restored


@FIXTURE_OK
@given(data=st.data())
def test_flipping_a_bit_of_any_signature_is_bad_signature(recorded: Recorded, game_dir: Path, data: st.DataObject) -> None:
    import base64

    k = data.draw(st.integers(0, len(recorded.raws) - 1), label="file")
    body, sig_line, _ = recorded.raws[k].split(b"\n")
    sig = bytearray(base64.b64decode(sig_line))
    bit = data.draw(st.integers(0, 511), label="bit")
    sig[bit // 8] ^= 1 << (bit % 8)
    error = load_fails(game_dir, k, body + b"\n" + base64.b64encode(bytes(sig)) + b"\n")
    assert type(error) is BadSignature


@FIXTURE_OK
@given(data=st.data())
def test_changing_any_digit_of_a_signed_hex_field_is_bad_signature(recorded: Recorded, game_dir: Path, data: st.DataObject) -> None:
    """A well-formed change to the body (another valid hex digit) breaks the signature."""
    k = data.draw(st.integers(2, len(recorded.raws) - 1), label="file")
    name = data.draw(st.sampled_from(["reveal", "state"]), label="field")
    body = dict(recorded.bodies[k])
    position = data.draw(st.integers(0, 63), label="digit")
    digit = data.draw(st.sampled_from("0123456789abcdef").filter(lambda c: c != body[name][position]))
    body[name] = body[name][:position] + digit + body[name][position + 1 :]
    sig_line = recorded.raws[k].split(b"\n")[1]
    error = load_fails(game_dir, k, canonical.encode(body) + b"\n" + sig_line + b"\n")
    assert type(error) is BadSignature


@FIXTURE_OK
@given(data=st.data())
def test_truncated_file_is_malformed(recorded: Recorded, game_dir: Path, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(recorded.raws) - 1), label="file")
    length = data.draw(st.integers(0, len(recorded.raws[k]) - 1), label="length")
    assert type(load_fails(game_dir, k, recorded.raws[k][:length])) is MalformedFile


@FIXTURE_OK
@given(data=st.data())
def test_appended_bytes_are_malformed(recorded: Recorded, game_dir: Path, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(recorded.raws) - 1), label="file")
    extra = data.draw(st.binary(min_size=1, max_size=200) | st.just(b"\n") | st.just(b"x\n") | st.just(recorded.raws[k]))
    assert type(load_fails(game_dir, k, recorded.raws[k] + extra)) is MalformedFile


@FIXTURE_OK
@given(data=st.data())
def test_binary_garbage_is_malformed(recorded: Recorded, game_dir: Path, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(recorded.raws) - 1), label="file")
    garbage = data.draw(st.binary(max_size=2000))
    assume(garbage != recorded.raws[k])
    assert type(load_fails(game_dir, k, garbage)) is MalformedFile


@pytest.mark.parametrize("where", ["invite", "accept", "middle", "last"])
def test_empty_huge_and_garbage_files_are_malformed_both_ways(kit: Kit, recorded: Recorded, tmp_path: Path, where: str) -> None:
    k = {"invite": 0, "accept": 1, "middle": middle(recorded), "last": len(recorded.raws) - 1}[where]
    body = dict(recorded.bodies[k])
    huge_field = "note" if k >= 2 else "name"
    big = "x" * (1 << 20)
    if k >= 2:
        body["note"] = big
    else:
        role = "host" if k == 0 else "guest"
        body[role] = dict(body[role], name=big)
    huge = kit.resign(body, recorded.identity(author_of(k)))
    assert len(huge) > 1 << 20 and huge_field
    for raw in (b"", b"\n", b"\n\n", huge, bytes(range(256)), b"\x00" * 100, "\u00e9\n\u00e9\n".encode("latin-1")):
        message = kit.attack(tmp_path / str(len(raw)), k, raw, MalformedFile)
        if raw is huge:
            assert "more than" in message


def test_note_and_decisions_beyond_their_limits_are_malformed(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    kit.attack(tmp_path / "note", k, kit.changed(k, note="x" * (movefile.MAX_NOTE_CHARS + 1)), MalformedFile)
    many = [{"action": "rest"}] * (movefile.MAX_DECISIONS + 1)
    kit.attack(tmp_path / "decisions", k, kit.changed(k, decisions=many), MalformedFile)


# ----- the encoding, even when correctly signed --------------------------------------------


def signed_variant(kit: Kit, rec: Recorded, k: int, body_bytes: bytes) -> bytes:
    return kit.sign_bytes(body_bytes, rec.identity(author_of(k)))


@pytest.mark.parametrize("depth", [34, 40, 1000, 100_000])
@pytest.mark.parametrize("bracket", ["[]", '{"a":}'])
def test_deeply_nested_json_is_malformed(kit: Kit, recorded: Recorded, tmp_path: Path, depth: int, bracket: str) -> None:
    k = middle(recorded)
    body = canonical.encode(recorded.bodies[k])
    if bracket == "[]":
        nested = "[" * depth + "]" * depth
    else:
        nested = '{"a":' * depth + "1" + "}" * depth
    old = canonical.encode(recorded.bodies[k]["decisions"]).decode()
    bad = body.replace(f'"decisions":{old}'.encode(), f'"decisions":[{nested}]'.encode())
    assert bad != body
    message = kit.attack(tmp_path, k, signed_variant(kit, recorded, k, bad), MalformedFile)
    assert "nested deeper" in message


def test_moderate_nesting_parses_and_brackets_in_strings_do_not_count(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """No false alarms: a note full of brackets is a valid file; shallow nesting reaches the ruleset."""
    k = recorded.acks()[0]
    note = "[{" * 1900  # far more brackets than MAX_DEPTH, all inside a string
    folder = kit.lay_out(tmp_path / "note", recorded.raws[:k] + [kit.changed(k, note=note)])
    assert store.load(folder).files[k].body.note == note
    from pbem.errors import IllegalDecision

    k = middle(recorded)
    nested: Any = {"action": "strike"}
    for _ in range(10):
        nested = [nested]
    kit.attack(tmp_path / "nested", k, kit.changed(k, decisions=[nested]), IllegalDecision)


def test_duplicate_keys_are_malformed(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    body = canonical.encode(recorded.bodies[k])
    # The same key twice, in place (so the order stays sorted): a parser that keeps the first
    # and one that keeps the last would read two different notes from one signed file.
    bad = body.replace(b'"note":', b'"note":"first","note":', 1)
    message = kit.attack(tmp_path / "note", k, signed_variant(kit, recorded, k, bad), MalformedFile)
    assert "duplicate" in message
    bad = body.replace(b'"author":', b'"author":"guest","author":', 1)
    kit.attack(tmp_path / "author", k, signed_variant(kit, recorded, k, bad), MalformedFile)
    body0 = canonical.encode(recorded.bodies[0])
    bad = body0.replace(b'"anchor":', b'"anchor":"00","anchor":', 1)
    kit.attack(tmp_path / "anchor", 0, signed_variant(kit, recorded, 0, bad), MalformedFile)


@pytest.mark.parametrize("number", ["1.5", "2.0", "1e3", "1E3", "-0.0", "NaN", "Infinity", "-Infinity", "9007199254740992", "-9007199254740992"])
def test_floats_constants_and_big_numbers_are_malformed(kit: Kit, recorded: Recorded, tmp_path: Path, number: str) -> None:
    k = middle(recorded)
    body = canonical.encode(recorded.bodies[k])
    time = str(recorded.bodies[k]["time"]).encode()
    bad = body.replace(b'"time":' + time, b'"time":' + number.encode())
    assert bad != body
    kit.attack(tmp_path, k, signed_variant(kit, recorded, k, bad), MalformedFile)


def test_a_huge_integer_is_malformed(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    body = canonical.encode(recorded.bodies[k])
    time = str(recorded.bodies[k]["time"]).encode()
    bad = body.replace(b'"time":' + time, b'"time":' + b"1" * 5000)
    kit.attack(tmp_path, k, signed_variant(kit, recorded, k, bad), MalformedFile)


@pytest.mark.parametrize("where, at", [("invite", "top"), ("accept", "top"), ("middle", "top"), ("invite", "player"), ("accept", "player")])
def test_unknown_fields_are_malformed(kit: Kit, recorded: Recorded, tmp_path: Path, where: str, at: str) -> None:
    k = {"invite": 0, "accept": 1, "middle": middle(recorded)}[where]
    body = dict(recorded.bodies[k])
    if at == "top":
        body["bonus"] = 1
    else:
        role = "host" if k == 0 else "guest"
        body[role] = dict(body[role], luck=6)
    kit.attack(tmp_path, k, kit.resign(body, recorded.identity(author_of(k))), MalformedFile)


def test_unknown_items_in_a_recorded_roll_are_malformed(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """[0, "initiative", 3, "extra"] carries a signed field nobody checks: other parsers
    would refuse the file, this one accepts it (two readings of one signed file)."""
    k = recorded.moves(lambda k, b: bool(b["rolls"]) and k + 1 < len(recorded.bodies))[3]
    rolls = [list(r) + ["extra"] for r in recorded.bodies[k]["rolls"]]
    kit.attack(tmp_path, k, kit.changed(k, rolls=rolls), MalformedFile)


@pytest.mark.parametrize("field", ["kind", "game", "seq", "prev", "author", "time", "reveal", "rolls", "state", "decisions", "note"])
def test_missing_fields_are_malformed(kit: Kit, recorded: Recorded, tmp_path: Path, field: str) -> None:
    k = middle(recorded)
    body = {name: value for name, value in recorded.bodies[k].items() if name != field}
    kit.attack(tmp_path, k, kit.resign(body, recorded.identity(author_of(k))), MalformedFile)


@pytest.mark.parametrize("version", [0, 2, -1, "1", True, None, [1]])
def test_wrong_format_version_is_malformed(kit: Kit, recorded: Recorded, tmp_path: Path, version: Any) -> None:
    for k in (0, middle(recorded)):
        kit.attack(tmp_path / str(k), k, kit.changed(k, pbem=version), MalformedFile)


@pytest.mark.parametrize(
    "field, value",
    [
        ("game", "A" * 32),
        ("game", "0" * 31),
        ("prev", "0" * 63),
        ("reveal", "AB" * 32),
        ("reveal", "0" * 62),
        ("state", "g" * 64),
        ("seq", -1),
        ("author", "referee"),
        ("kind", "invite"),
        ("kind", "accept"),
        ("rolls", [[1, "first", 3]]),
        ("rolls", [[0, "first", 7]]),
        ("rolls", [[0, "first", 0]]),
        ("decisions", {"action": "strike"}),
        ("note", 5),
    ],
)
def test_fields_of_the_wrong_form_are_malformed(kit: Kit, recorded: Recorded, tmp_path: Path, field: str, value: Any) -> None:
    k = middle(recorded)
    kit.attack(tmp_path, k, kit.changed(k, **{field: value}), MalformedFile)


def _noncanonical(body: dict[str, Any]) -> dict[str, bytes]:
    canonical_bytes = canonical.encode(body)
    text = canonical_bytes.decode()
    variants = {
        "keys unsorted": json.dumps(dict(reversed(list(body.items()))), separators=(",", ":"), ensure_ascii=False).encode(),
        "spaces": json.dumps(body, sort_keys=True, ensure_ascii=False).encode(),
        "ascii escapes": json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode(),
        "escaped slash": text.replace("/", "\\/").encode(),
        "upper-case escape": text.replace("\\u001f", "\\u001F").encode(),
        "escaped letter": text.replace('"note":"', '"note":"\\u004e', 1).replace('"note":"\\u004eN', '"note":"\\u004e', 1).encode(),
        "leading space": b" " + canonical_bytes,
        "trailing space": canonical_bytes + b" ",
        "trailing CR": canonical_bytes + b"\r",
        "byte-order mark": b"\xef\xbb\xbf" + canonical_bytes,
    }
    for name, variant in variants.items():
        assert variant != canonical_bytes, name
        assert json.loads(variant.decode("utf-8-sig")) == body, name  # the same value, other bytes
    return variants


@pytest.mark.parametrize(
    "variant",
    ["keys unsorted", "spaces", "ascii escapes", "escaped slash", "upper-case escape", "escaped letter",
     "leading space", "trailing space", "trailing CR", "byte-order mark"],
)
def test_equivalent_but_non_canonical_json_is_malformed_even_if_signed(
    kit: Kit, recorded: Recorded, tmp_path: Path, variant: str
) -> None:
    """Sign bytes, keep bytes: an equivalent re-serialisation, signed by the right key, is refused."""
    k = recorded.rolling()[1]
    body = dict(recorded.bodies[k], note="Naïve / \u001f \"quoted\" ünïcode, Νίκη")
    good = kit.resign(body, recorded.identity(author_of(k)))
    folder = kit.lay_out(tmp_path / "good", recorded.raws[:k] + [good])
    store.load(folder)  # the canonical form of that body is a valid file
    raw = signed_variant(kit, recorded, k, _noncanonical(body)[variant])
    message = kit.attack(tmp_path, k, raw, MalformedFile)
    assert "canonical" in message or "JSON" in message


def test_crlf_line_endings_are_malformed(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    raw = recorded.raws[k].replace(b"\n", b"\r\n")
    kit.attack(tmp_path, k, raw, MalformedFile)


@pytest.mark.parametrize("field", ["reveal", "game"])
def test_hex_field_with_a_trailing_newline_is_malformed(kit: Kit, recorded: Recorded, tmp_path: Path, field: str) -> None:
    """Two spellings of one reveal would give two signed files (two hashes) for one meaning;
    the spec says exactly 64 (32) lowercase hex digits, so another implementation would
    refuse the file this one accepts."""
    if field == "reveal":
        k = middle(recorded)
        raw = kit.changed(k, reveal=recorded.bodies[k]["reveal"] + "\n")
    else:
        k = 0
        raw = kit.changed(0, game=recorded.bodies[0]["game"] + "\n")
    bad = kit.lay_out(tmp_path / "bad", recorded.raws[:k] + [raw])
    with pytest.raises(MalformedFile):
        store.load(bad)


@pytest.mark.parametrize(
    "k, kind",
    [(0, "accept"), (0, "move"), (1, "invite"), (1, "move"), (2, "invite"), (2, "accept")],
)
def test_a_file_of_the_wrong_kind_for_its_place_is_malformed(kit: Kit, recorded: Recorded, tmp_path: Path, k: int, kind: str) -> None:
    kit.attack(tmp_path, k, kit.changed(k, kind=kind), MalformedFile)


# ----- the parsers alone, on anything ------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53 - 1), 2**53 - 1) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(value=JSON_VALUES)
def test_canonical_round_trip(value: Any) -> None:
    data = canonical.encode(value)
    assert canonical.decode(data, "x") == value
    assert data == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@settings(max_examples=150, deadline=None)
@given(value=JSON_VALUES, sort=st.booleans(), spaced=st.booleans(), ascii_only=st.booleans(), indent=st.sampled_from([None, 0, 2]))
def test_any_other_serialisation_of_a_value_is_refused(value: Any, sort: bool, spaced: bool, ascii_only: bool, indent: int | None) -> None:
    other = json.dumps(
        value, sort_keys=sort, separators=(", ", ": ") if spaced else (",", ":"), ensure_ascii=ascii_only, indent=indent
    ).encode()
    if other == canonical.encode(value):
        return
    with pytest.raises(MalformedFile):
        canonical.decode(other, "x")


@settings(max_examples=500, deadline=None)
@given(data=st.binary(max_size=300) | st.text(max_size=300).map(lambda t: t.encode("utf-8")))
def test_decode_of_any_bytes_is_canonical_or_malformed(data: bytes) -> None:
    try:
        value = canonical.decode(data, "x")
    except MalformedFile:
        return
    assert canonical.encode(value) == data


@settings(max_examples=500, deadline=None)
@given(data=st.binary(max_size=400))
def test_parse_of_any_bytes_is_a_file_or_malformed(data: bytes) -> None:
    try:
        movefile.parse(data, "x")
    except MalformedFile as exc:
        assert str(exc).startswith("x: ")


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=500), wrap=st.integers(1, 80), quote=st.sampled_from(["", "> ", ">> ", " > "]))
def test_dearmor_of_any_text_gives_files_or_malformed(text: str, wrap: int, quote: str) -> None:
    quoted = "\n".join(quote + line for line in text.splitlines())
    try:
        files = armor.dearmor_all(quoted, "mail")
    except MalformedFile as exc:
        assert str(exc).startswith("mail: ")
    else:
        assert files and all(isinstance(f, bytes) for f in files)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_armor_survives_rewrapping_and_quoting(recorded: Recorded, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(recorded.raws) - 1))
    text = armor.armor(recorded.raws[k], "Game: x File: y")
    width = data.draw(st.integers(4, 76))
    lines = []
    for line in text.splitlines():
        if line.startswith("-----") or ":" in line or not line:
            lines.append(line)
        else:
            joined = line
            lines.extend(joined[i : i + width] for i in range(0, len(joined), width))
    quote = data.draw(st.sampled_from(["", "> ", "> > ", ">>"]))
    mail = "\r\n".join(quote + line for line in lines)
    assert armor.dearmor_all(mail, "mail") == [recorded.raws[k]]
