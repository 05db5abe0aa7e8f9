"""Battle files are read with the orders' one hex and position notation, on each battle's joined map.

Hexes and positions round-trip on every battle's map (with sheet letters on
the joined ones, without on one sheet), a column laid under another sheet
names the hex shown over it, and a bad hex in a file is one line naming the
file, the entry and why.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import NotationError, RulesDataError
from engine.war_galley.battles.scenario_files import (
    BATTLES_DIR,
    builtin_commanders,
    builtin_manifest,
    builtin_scenarios,
    parse_scenario,
)
from engine.war_galley.map_and_galleys.hexes import DIRECTIONS, SINGLE_SHEET, FIRST_ROW, LAST_ROW, Hex, MapSpec
from engine.war_galley.map_and_galleys.position import Position, format_position, parse_position

MAPS: dict[str, MapSpec] = {s.key: s.map.joined() for s in builtin_scenarios()}
JOINED = sorted(key for key, m in MAPS.items() if len(m.sheets) > 1)
SINGLE = sorted(key for key, m in MAPS.items() if len(m.sheets) == 1)
HEXES: dict[str, list[Hex]] = {key: sorted(m.hexes()) for key, m in MAPS.items()}


def test_the_book_joins_three_battles_and_the_rest_are_one_sheet() -> None:
    assert JOINED == ["actium", "ecnomus", "side"]
    assert SINGLE and all(MAPS[key] == SINGLE_SHEET for key in SINGLE)


@st.composite
def battle_hex(draw: st.DrawFn, keys: list[str]) -> tuple[MapSpec, Hex]:
    key = draw(st.sampled_from(keys))
    return MAPS[key], draw(st.sampled_from(HEXES[key]))


@st.composite
def battle_position(draw: st.DrawFn, keys: list[str]) -> tuple[MapSpec, Position]:
    map_, bow = draw(battle_hex(keys))
    position = Position(bow, draw(st.sampled_from(DIRECTIONS)), draw(st.booleans()))
    if not map_.contains(position.stern):
        position = Position(bow, position.facing, False)
    return map_, position


@given(battle_hex(JOINED))
def test_hexes_round_trip_with_sheet_letters(drawn: tuple[MapSpec, Hex]) -> None:
    map_, h = drawn
    text = map_.format(h)
    assert text[0].isalpha() and map_.parse(text) == h
    assert map_.format(map_.parse(text)) == text


@given(battle_hex(SINGLE))
def test_hexes_round_trip_without_sheet_letters(drawn: tuple[MapSpec, Hex]) -> None:
    map_, h = drawn
    text = map_.format(h)
    assert text.isdigit() and len(text) == 4 and map_.parse(text) == h


@given(battle_position(JOINED))
def test_positions_round_trip_with_sheet_letters(drawn: tuple[MapSpec, Position]) -> None:
    map_, position = drawn
    text = format_position(position, map_)
    assert parse_position(text, map_) == position
    assert format_position(parse_position(text, map_), map_) == text


@given(battle_position(SINGLE))
def test_positions_round_trip_without_sheet_letters(drawn: tuple[MapSpec, Position]) -> None:
    map_, position = drawn
    text = format_position(position, map_)
    assert not any(c.isalpha() for c in text) and parse_position(text, map_) == position


@pytest.mark.parametrize("key, under, over", [("actium", "N60", "S10"), ("side", "S60", "N10")])
def test_a_covered_column_names_the_hex_shown_over_it(key: str, under: str, over: str) -> None:
    """Actium: "S10xx lies on N60xx" (the book's line "N53-N60, S11-S17"); Side likewise."""
    map_ = MAPS[key]
    for row in range(FIRST_ROW, LAST_ROW + 1):
        covered, shown = f"{under}{row:02d}", f"{over}{row:02d}"
        assert map_.parse(covered) == map_.parse(shown)
        assert map_.format(map_.parse(covered)) == shown  # written as the sheet on top shows it
    assert parse_position(f"{under}19-{under}20", map_) == parse_position(f"{over}19-{over}20", map_)


def test_a_column_off_every_sheet_is_still_refused() -> None:
    with pytest.raises(NotationError, match="not a hex of the map"):
        MAPS["actium"].parse("S6119")
    with pytest.raises(NotationError, match="not a hex of the map"):
        MAPS["actium"].parse("N6029")  # below the covered column


# ------------------------------------------------------------ a bad hex in a file

LADE = (BATTLES_DIR / "lade.toml").read_bytes()
ECNOMUS = (BATTLES_DIR / "ecnomus.toml").read_bytes()


def refused(data: bytes, old: bytes, new: bytes) -> str:
    assert old in data
    with pytest.raises(RulesDataError) as caught:
        parse_scenario(data.replace(old, new, 1), "my.toml", builtin_manifest(), builtin_commanders())
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    "data, old, new, expected",
    [
        (LADE, b'first = "2007-2006"', b'first = "6107-6106"',
         "my.toml: sides[0].deploy[0].positions/lines: 6107 is not a hex of the map"),
        (LADE, b'first = "2007-2006"', b'first = "N2007-2006"',
         "my.toml: sides[0].deploy[0].positions/lines: no map sheet 'N' in this battle (sheets: '')"),
        (LADE, b'first = "2007-2006", last = "5007-5006"', b'first = "2007-2006", last = "5008-5007"',
         "my.toml: sides[0].deploy[0].positions/lines: line 2007-2006..5008-5007: "
         "bows share neither a row nor a column"),
        (ECNOMUS, b'"S3712-S3713"', b'"3712-3713"',
         "my.toml: sides[0].deploy[0].positions/lines: 3712 needs a sheet letter on this map (N, S)"),
        (ECNOMUS, b'Agricola = "S3621"', b'Agricola = "S3629"',
         "my.toml: sides[0].deploy[2].commander_at.Agricola: S3629 is not a hex of the map"),
    ],
    ids=["off-the-sheet", "no-such-sheet", "crooked-line", "letter-missing", "commander-off-map"],
)
def test_a_bad_hex_is_one_line_naming_file_entry_and_why(data: bytes, old: bytes, new: bytes, expected: str) -> None:
    assert refused(data, old, new) == expected
