"""Every scenario file loads and is consistent; schema errors name file and field."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.errors import RulesDataError
from engine.war_galley.battles.scenario import SPECIAL_RULES, Line
from engine.war_galley.battles.scenario_files import (
    BATTLES_DIR,
    builtin_commanders,
    builtin_manifest,
    builtin_scenarios,
    galley_crew,
    load_scenario,
    parse_scenario,
)
from engine.war_galley.battles.scenario_layout import expand_line, fixed_placements, group_slots, side_galleys
from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET, Hex
from engine.war_galley.map_and_galleys.position import format_position, parse_position
from engine.war_galley.map_and_galleys.manifest import CounterKey

FILES = sorted(BATTLES_DIR.glob("*.toml"))


def test_battle_files_exist() -> None:
    names = {p.stem for p in FILES}
    assert {"lade", "actium"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_scenario_loads_and_is_consistent(path: Path) -> None:
    s = load_scenario(path)
    assert s.key == path.stem
    manifest = builtin_manifest()
    map_ = s.map.joined()
    # galleys referenced exist in the manifest
    for side in s.sides:
        keys = side_galleys(side)
        assert keys and len(keys) == len(set(keys))
        for key in keys:
            assert key in manifest, key
    # commander names referenced exist in the roster
    roster_key = s.roster or s.key
    for side in s.sides:
        roster = s.commanders.get(side.key) or builtin_commanders().roster(roster_key, side.key)
        names = {c.name for c in roster}
        for fleet in side.fleets:
            assert set(fleet.commanders) <= names
        # every roster commander takes part and starts somewhere
        assert names == {n for f in side.fleets for n in f.commanders}
        placed = [n for g in side.deploy for n in g.commanders] + side.commanders_anywhere
        assert sorted(placed) == sorted(names)
    # no two slots share a hex (both halves compared on the joined map)
    seen: Counter[Hex] = Counter()
    for side in s.sides:
        for group in side.deploy:
            for pos in group_slots(group, map_):
                seen.update(pos.hexes)
    assert not [h for h, n in seen.items() if n > 1]
    # fixed placements put each counter in a position of its size
    for p in fixed_placements(s):
        assert manifest.ratings(p.galley).double == p.position.double, p


def test_builtin_scenarios_in_book_order() -> None:
    scenarios = builtin_scenarios()
    assert [s.book_order for s in scenarios] == sorted(s.book_order for s in scenarios)
    assert len({s.key for s in scenarios}) == len(scenarios) == len(FILES)


def test_lade_lines_expand_from_the_book() -> None:
    s = load_scenario(BATTLES_DIR / "lade.toml")
    persians = s.side("persians").deploy[0]
    slots = [format_position(p) for p in group_slots(persians, s.map.joined())]
    assert len(slots) == 62  # "31 galleys ... from 2007-6 to 5007-6" and the second line
    assert slots[0] == "2007-2006" and slots[30] == "5007-5006" and slots[31] == "2004-2003"
    placed = {p.galley: format_position(p.position) for p in fixed_placements(s)}
    assert placed[CounterKey("red", "3", 1)] == "4815-4816"  # Samos leads its column
    assert placed[CounterKey("red", "3", 13)] == "4427-4428"
    assert CounterKey("red", "3", 35) not in placed  # Dionysius enters from off-map


def test_actium_joined_map_overlap() -> None:
    s = load_scenario(BATTLES_DIR / "actium.toml")
    map_ = s.map.joined()
    # S10xx is laid over N60xx: the same hex on the joined map, either number naming it
    assert parse_position("S1019-S1020", map_) == parse_position("N6019-N6020", map_)
    assert map_.format(map_.parse("N6019")) == "S1019"  # written as the sheet on top shows it
    centre = s.side("octavians").deploy[1]
    front = [format_position(p, map_) for p in expand_line(centre.lines[0], map_)]
    # "from N5319 to S1719 (N53-N60, S11-S17)": N60 and S10 are one hex, counted once
    assert front == [f"N{c}19-N{c}20" for c in range(53, 60)] + [f"S{c}19-S{c}20" for c in range(10, 18)]


def test_actium_antonian_crews() -> None:
    s = load_scenario(BATTLES_DIR / "actium.toml")
    side = s.side("antonians")
    manifest = builtin_manifest()
    assert {galley_crew(s, side, k, manifest) for k in side_galleys(side)} == {1}
    assert side.fleets[0].flagship_crew == {"Antony": 3, "Cleopatra": 3}


def test_special_rule_names_are_known() -> None:
    for s in builtin_scenarios():
        for rule in s.special:
            assert rule.name in SPECIAL_RULES


def test_positions_bow_first() -> None:
    # geometry.md: 6.32 example, 2319-2320 moving bow/flank ends 2419-2319
    assert parse_position("2319-2320").facing == 0
    assert parse_position("2419-2319").facing == 1  # one hexside clockwise
    assert parse_position("2219-2319").facing == 5  # or anticlockwise
    assert parse_position("4121-4022").facing == 1  # 6.34: from 4022-4023
    assert parse_position("2319/4").facing == 4
    with pytest.raises(ValueError, match="not adjacent"):
        parse_position("2319-2321")


def test_line_astern_helper() -> None:
    slots = [format_position(p) for p in expand_line(Line(first="4815-4816", last="4825-4826"), SINGLE_SHEET)]
    assert slots == ["4815-4816", "4817-4818", "4819-4820", "4821-4822", "4823-4824", "4825-4826"]


# ------------------------------------------------------------ broken files

LADE = (BATTLES_DIR / "lade.toml").read_bytes()


def broken(old: bytes, new: bytes) -> bytes:
    assert old in LADE
    return LADE.replace(old, new, 1)


def parse(data: bytes) -> None:
    parse_scenario(data, "my.toml", builtin_manifest(), builtin_commanders())


def test_syntax_error_names_file_and_line() -> None:
    line = LADE[: LADE.index(b"year_bc")].count(b"\n") + 1
    with pytest.raises(RulesDataError, match=rf"my\.toml: TOML syntax error.*line {line}\b"):
        parse(broken(b"year_bc = 494", b"year_bc = = 494"))


def test_unknown_field_names_path() -> None:
    with pytest.raises(RulesDataError, match=r"my\.toml.*unknown field `colur`.*\$\.sides\[1\]"):
        parse(broken(b'colour = "red"', b'colur = "red"'))


def test_wrong_type_names_path() -> None:
    with pytest.raises(RulesDataError, match=r"my\.toml.*Expected `int`.*\$\.year_bc"):
        parse(broken(b"year_bc = 494", b'year_bc = "494 B.C."'))


def test_bad_hex_notation_names_path() -> None:
    with pytest.raises(RulesDataError, match=r"my\.toml.*regex.*\$\.sides\[0\]\.deploy\[0\]\.lines\[0\]\.first"):
        parse(broken(b'first = "2007-2006"', b'first = "207-2006"'))


def test_non_adjacent_position() -> None:
    with pytest.raises(RulesDataError, match=r"my\.toml: sides\[0\]\.deploy\[0\].*not adjacent"):
        parse(broken(b'first = "2007-2006"', b'first = "2007-2005"'))


def test_galley_missing_from_manifest() -> None:
    bad = broken(b'galleys = [{ galleys = "3#1-62" }]', b'galleys = [{ galleys = "3#1-63" }]')
    with pytest.raises(RulesDataError, match=r"my\.toml: sides\[0\]\.fleets\[0\]\.galleys\[0\]\.galleys: green 3#63 is not in the counter manifest"):
        parse(bad)


def test_unknown_commander() -> None:
    bad = broken(b'commanders = ["Samos"]', b'commanders = ["Samoa"]')
    with pytest.raises(RulesDataError, match=r"my\.toml: sides\[1\]\.deploy\[0\]\.commanders: 'Samoa'"):
        parse(bad)


def test_overlapping_placements() -> None:
    bad = broken(b'first = "2815-2816", last = "2827-2828"', b'first = "3015-3016", last = "3027-3028"')
    with pytest.raises(RulesDataError, match=r"my\.toml: sides\[1\]\.deploy\[4\] slot 0 \(3015-3016\): overlaps"):
        parse(bad)


def test_placement_count_must_match() -> None:
    bad = broken(b'galleys = ["3#22-24"]', b'galleys = ["3#22-23"]')
    with pytest.raises(RulesDataError, match=r"my\.toml: sides\[1\]\.deploy\[3\]: 2 galleys on the map but 3 positions"):
        parse(bad)


def test_unknown_special_rule() -> None:
    with pytest.raises(RulesDataError, match=r"my\.toml: special\[0\]\.name: unknown special rule 'no_admirals'"):
        parse(broken(b'name = "no_admiral"', b'name = "no_admirals"'))


def test_galley_undeployed() -> None:
    bad = broken(b'galleys = [{ galleys = "3#1-62" }]', b'galleys = [{ galleys = "3#1-62" }, { galleys = "3#42" }]')
    with pytest.raises(RulesDataError, match="listed twice"):
        parse(bad)


def test_unreadable_file_is_a_rules_data_error(tmp_path: Path) -> None:
    with pytest.raises(RulesDataError, match="cannot read"):
        load_scenario(tmp_path / "nope.toml")


def test_documented_example_loads() -> None:
    import re

    doc = (BATTLES_DIR.parents[2] / "docs" / "scenario-schema.md").read_text()
    example = re.search(r"```toml\n(.*?)```", doc, re.S)
    assert example is not None
    s = parse_scenario(example.group(1).encode(), "example", builtin_manifest(), builtin_commanders())
    assert [format_position(p.position) for p in fixed_placements(s)] == ["2020-2021", "2120-2121", "2220-2221", "2320-2321"]
