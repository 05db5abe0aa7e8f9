"""Salamis (Cyprus), Ecnomus, Drepanum (both starts), Chios, Side, Myonessus:
each file loads, its fleets match the book, its fixed placements are legal,
and every special rule the book gives it is there with the book's numbers.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.war_galley.battles.scenario import SPECIAL_RULES, ZONE_CONSTRAINTS, Scenario
from engine.war_galley.battles.scenario_files import (
    BATTLES_DIR,
    builtin_manifest,
    builtin_scenarios,
    galley_crew,
    load_scenario,
)
from engine.war_galley.battles.scenario import Deploy
from engine.war_galley.battles.scenario_layout import fixed_placements, group_slots, side_galleys
from engine.war_galley.map_and_galleys.hexes import Hex, MapSpec, neighbour
from engine.war_galley.map_and_galleys.position import format_position, parse_position
from engine.war_galley.map_and_galleys.manifest import CounterKey, expand_galleys

MINE = ["salamis-cyprus", "ecnomus", "drepanum-approach", "drepanum-battle", "chios", "side", "myonessus"]

# The book's galley lists, side by side: type -> number of counters.
BOOK_FLEETS: dict[str, dict[str, dict[str, int]]] = {
    "salamis-cyprus": {
        "antigonids": {"4": 17, "5": 10, "6": 3, "7": 2, "T": 18},
        "ptolemaics": {"4": 26, "5": 20},
    },
    "ecnomus": {
        "romans": {"5": 22, "cat3": 6, "T": 9},
        "carthaginians": {"cat3": 8, "5": 16},
    },
    "drepanum-approach": {"carthaginians": {"5": 31}, "romans": {"5": 31}},
    "drepanum-battle": {"carthaginians": {"5": 31}, "romans": {"5": 31}},
    "chios": {
        "macedonians": {"10": 1, "8": 2, "7": 1, "5": 6, "4": 6, "Trm": 1, "L": 25},
        "allies": {"5": 22, "Trm": 3, "cat3": 1},
    },
    "side": {
        "syrians": {"7": 3, "6": 4, "5": 10, "4": 20, "cat3": 10, "3": 5},
        "rhodians": {"4": 32, "cat3": 4, "3": 6},
    },
    "myonessus": {"syrians": {"7": 1, "6": 1, "5": 28}, "allies": {"5": 20, "cat3": 7}},
}

VICTORY = {
    "salamis-cyprus": {"antigonids": 125, "ptolemaics": 100},
    "ecnomus": {"romans": 65, "carthaginians": 75},
    "drepanum-approach": {"romans": 85, "carthaginians": 85},
    "drepanum-battle": {"romans": 85, "carthaginians": 85},
    "chios": {"allies": 60, "macedonians": 70},
    "side": {"rhodians": 135, "syrians": 100},
    "myonessus": {"allies": 85, "syrians": 75},
}

FACTS = {  # year, difficulty, ship scale (the book's words)
    "salamis-cyprus": (306, 3.5, "1 counter = 3 galleys"),
    "ecnomus": (256, 3.0, "1 counter = 8 galleys"),
    "drepanum-approach": (249, 2.5, "1 counter = 4 galleys"),
    "drepanum-battle": (249, 2.5, "1 counter = 4 galleys"),
    "chios": (201, 3.0, "1 counter = 3 galleys; the Macedonian lembi 1 counter = 6"),
    "side": (190, 3.0, "1 counter = 1 galley"),
    "myonessus": (190, 2.5, "1 counter = 3 galleys"),
}


def scenario(key: str) -> Scenario:
    return load_scenario(BATTLES_DIR / f"{key}.toml")


def rules(s: Scenario, name: str) -> list[dict]:
    return [r.params for r in s.special if r.name == name]


def rule(s: Scenario, name: str) -> dict:
    found = rules(s, name)
    assert len(found) == 1, (name, found)
    return found[0]


def group(s: Scenario, side: str, name: str):
    for g in s.side(side).deploy:
        if g.name == name:
            return g
    raise KeyError(name)


def placed(s: Scenario) -> dict[CounterKey, str]:
    map_ = s.map.joined()
    return {p.galley: format_position(p.position, map_) for p in fixed_placements(s)}


def slot_texts(group: Deploy, map_: MapSpec) -> list[str]:
    """A group's slots as the battle's notation writes them."""
    return [format_position(p, map_) for p in group_slots(group, map_)]


def follows(s: Scenario, ahead: str, behind: str) -> bool:
    """`behind` points at `ahead`'s stern: it is in its bow or bow/flank hex."""
    off = s.map.joined()
    a, b = parse_position(ahead, off), parse_position(behind, off)
    return a.stern in {neighbour(b.bow, b.facing + k) for k in (-1, 0, 1)}


# ------------------------------------------------------------ every battle


@pytest.mark.parametrize("key", MINE)
def test_loads_with_the_books_facts(key: str) -> None:
    s = scenario(key)
    assert s.key == key
    year, difficulty, scale = FACTS[key]
    assert (s.year_bc, s.difficulty, s.ship_scale) == (year, difficulty, scale)
    assert {v.side: v.vp for v in s.victory.sides} == VICTORY[key]
    assert all(v.ratio == 2 for v in s.victory.sides) and s.victory.minor_on_halt


@pytest.mark.parametrize("key", MINE)
def test_galley_counts_match_the_book(key: str) -> None:
    s = scenario(key)
    for side_key, by_type in BOOK_FLEETS[key].items():
        keys = side_galleys(s.side(side_key))
        assert Counter(k.type for k in keys) == Counter(by_type), side_key
        assert len(keys) == len(set(keys))


@pytest.mark.parametrize("key", MINE)
def test_every_galley_is_deployed_once(key: str) -> None:
    s = scenario(key)
    for side in s.sides:
        named = [g for d in side.deploy for g in expand_galleys(d.galleys)]
        pooled = sum(d.count or 0 for d in side.deploy)
        assert len(named) == len(set(named))
        assert len(named) + pooled == len(side_galleys(side))


@pytest.mark.parametrize("key", MINE)
def test_slots_are_on_the_map_off_land_and_apart(key: str) -> None:
    s = scenario(key)
    off = s.map.joined()
    land = {off.parse(h) for a in s.map.land for h in a.hexes}
    seen: Counter[Hex] = Counter()
    for side in s.sides:
        for g in side.deploy:
            for p in group_slots(g, off):
                assert all(off.contains(h) for h in p.hexes), p
                assert not set(p.hexes) & land, p
                seen.update(p.hexes)
    assert [h for h, n in seen.items() if n > 1] == []
    manifest = builtin_manifest()
    for fixed in fixed_placements(s):
        assert manifest.ratings(fixed.galley).double == fixed.position.double, fixed


@pytest.mark.parametrize("key", MINE)
def test_slot_and_offmap_counts(key: str) -> None:
    s = scenario(key)
    off = s.map.joined()
    for side in s.sides:
        for g in side.deploy:
            if g.zone is not None:
                continue
            size = len(expand_galleys(g.galleys)) if g.count is None else g.count
            on_map = size - (g.offmap.count if g.offmap else 0)
            assert len(slot_texts(g, off)) >= on_map, g.name


def test_book_order() -> None:
    order = [s.key for s in builtin_scenarios()]
    book = ["lade", "arginusae", "catana", "salamis-cyprus", "ecnomus", "drepanum-approach",
            "drepanum-battle", "aegatian-isles", "chios", "side", "myonessus", "tauris",
            "naulochus", "actium"]
    assert [k for k in order if k in book] == [k for k in book if k in order]
    assert {s.key: s.book_order for s in builtin_scenarios() if s.key in MINE} == {
        "salamis-cyprus": 4, "ecnomus": 5, "drepanum-approach": 6, "drepanum-battle": 6,
        "chios": 8, "side": 9, "myonessus": 10,
    }


def test_book_order_numbers_the_thirteen_battles_as_the_book_lists_its_wars() -> None:
    """"The wars covered by the scenarios are": Lade; Arginusae; Catana; Salamis (Cyprus); Ecnomus, Drepanum,
    The Aegatian Islands; Chios; Side, Myonessus; Tauris, Naulochus, Actium: 13 battles, Drepanum's two
    scenarios (the approach and the battle) one of them."""
    book = {"lade": 1, "arginusae": 2, "catana": 3, "salamis-cyprus": 4, "ecnomus": 5, "drepanum-approach": 6,
            "drepanum-battle": 6, "aegatian-isles": 7, "chios": 8, "side": 9, "myonessus": 10, "tauris": 11,
            "naulochus": 12, "actium": 13}
    assert {s.key: s.book_order for s in builtin_scenarios()} == book


def test_new_rule_names_are_registered() -> None:
    assert "boarding_transports" in SPECIAL_RULES
    assert {"two_lines", "commander_wings", "commander_columns"} <= set(ZONE_CONSTRAINTS)


# ------------------------------------------------------------ Salamis


def test_salamis_lines_and_commanders() -> None:
    s = scenario("salamis-cyprus")
    at = placed(s)
    green = lambda t, i: CounterKey("green", t, i)  # noqa: E731
    assert at[green("7", 1)] == "3907-3906" and at[green("7", 2)] == "3507-3506"
    quads = [at[green("4", i)] for i in range(8, 18)]
    assert len(quads) == 10 and not {"3907-3906", "3507-3506"} & set(quads)
    assert {parse_position(p).bow.row for p in quads} == {7}
    assert at[green("T", 1)] == "3007/3" and at[green("T", 11)] == "2007/3"
    assert at[green("T", 12)] == "2805/3" and at[green("T", 18)] == "2205/3"
    assert at[CounterKey("red", "5", 8)] == "2120-2121" and at[CounterKey("red", "4", 26)] == "3423-3424"
    left = group(s, "antigonids", "Left Wing, Front Line")
    assert left.commander_at == {"Demetrius": "3907", "Memnon": "3507"}
    assert group(s, "antigonids", "Left Wing, Reserve Line").assign == "player"
    assert s.initiative.first_turn == "side" and s.initiative.side == "antigonids"
    assert s.wind.mode == "none" and s.wind.sails == []
    assert [c.edge for c in s.map.coast] == ["10xx"]


def test_salamis_boarding_transports_and_flame() -> None:
    s = scenario("salamis-cyprus")
    assert rule(s, "boarding_transports") == {"side": "antigonids", "manpower": "printed", "ram": False, "rake": False}
    assert not rules(s, "transports_no_manpower")
    flame = {g.galleys for g in s.side("antigonids").fleets[0].galleys if "flame" in g.capabilities}
    assert flame == {"5#1-10", "6#1-3", "7#1-2"}
    assert builtin_manifest().ratings(CounterKey("green", "T", 1)).manpower == 3


# ------------------------------------------------------------ Ecnomus


def test_ecnomus_joined_along_the_long_edge() -> None:
    s = scenario("ecnomus")
    off = s.map.joined()
    assert off.parse("S1000") == Hex(10, 29)  # just south of N1028
    assert off.parse("N1028") == Hex(10, 28)
    assert [(c.edge, c.sheet) for c in s.map.coast] == [("60xx", "")]
    for p in fixed_placements(s):
        assert format_position(p.position, off).startswith("S" if p.side == "romans" else "N"), p


def test_ecnomus_transports_behind_squadron_three() -> None:
    s = scenario("ecnomus")
    off = s.map.joined()
    third = group_slots(group(s, "romans", "Squadron III"), off)
    transports = group_slots(group(s, "romans", "Transport Squadron"), off)
    assert len(third) == len(transports) == 9
    for g, t in zip(third, transports):
        assert t.facing == g.facing == 0 and g.double
        assert t.bow == neighbour(g.stern, g.facing + 3)


def test_ecnomus_fleets_and_formations() -> None:
    s = scenario("ecnomus")
    at = placed(s)
    assert at[CounterKey("green", "5", 11)] == "N3709-N3708"
    assert at[CounterKey("green", "cat3", 1)] == "N2616-N2615" and at[CounterKey("green", "cat3", 8)] == "N2602-N2601"
    triarii = slot_texts(group(s, "romans", "Squadron IV (Triarii)"), s.map.joined())
    assert triarii[0] == "S3026-S3027" and [int(p[1:3]) for p in triarii[1:]] == [32, 34, 36, 38, 40, 42]
    for name in ("Hanno's Squadron", "Gisgo's Squadron"):
        slots = slot_texts(group(s, "carthaginians", name), s.map.joined())
        assert all(follows(s, a, b) for a, b in zip(slots, slots[1:]))
    corvus = {g.galleys for g in s.side("romans").fleets[0].galleys if "corvus" in g.capabilities}
    assert corvus == {"5#8-29"}
    from engine.war_galley.battles.scenario_files import builtin_commanders

    admirals = [c.name for c in builtin_commanders().roster("ecnomus", "romans") if c.rank == "admiral"]
    assert sorted(admirals) == ["Manlius", "Regulus"]


def test_ecnomus_special_rules() -> None:
    s = scenario("ecnomus")
    assert rule(s, "corvus") == {
        "side": "romans", "types": ["5"], "grapple_drm": 2, "enemy_disengage_drm": -2,
        "own_disengage_drm": -1, "maximum_speed": False, "end": "bow",
    }
    assert rule(s, "in_command_first_turn") == {"side": "romans", "group": "Squadron IV (Triarii)", "turns": 1}
    options = {o.key: o for o in s.options}
    assert set(options) == {"transports", "roman_sails"}  # roman_sails: the book's "may start with sails raised"
    assert options["transports"].choices == ["ignore", "towed"]
    by_option = {r.name: r.option for r in s.special}
    assert by_option["ignore_transports"] == "transports=ignore"
    for name in ("towed_transports", "transport_command_limit", "transport_squadron"):
        assert by_option[name] == "transports=towed"
    assert rule(s, "ignore_transports")["first_turn_speed"] == 2
    towed = rule(s, "towed_transports")
    assert (towed["speed_factor"], towed["rounding"], towed["cut_tow_mp"], towed["adjacent_enemy"]) == (0.5, "up", 1, False)
    assert rule(s, "transport_command_limit")["command_squadrons"] == 4
    vp = rule(s, "transport_vp")
    assert (vp["vp"], vp["transports_per_exit"], vp["exit_edge"], vp["exit_sheet"]) == (10, 2, "xx28", "S")
    assert by_option["transport_vp"] is None
    assert s.initiative.side == "carthaginians"
    assert (s.wind.mode, s.wind.marker, s.wind.toward) == ("direction_only", "S6028", "S5927")
    assert rule(s, "sails_up_start") == {"side": "romans"}  # was a wind parameter no code read (issue 11)
    assert by_option["sails_up_start"] == "roman_sails"


# ------------------------------------------------------------ Drepanum

CITY = [f"60{r:02d}" for r in range(16, 29)]


@pytest.mark.parametrize("key", ["drepanum-approach", "drepanum-battle"])
def test_drepanum_common(key: str) -> None:
    s = scenario(key)
    assert s.roster == "drepanum"
    assert [h for a in s.map.land if a.letter == "D" for h in a.hexes] == CITY
    romans = s.side("romans")
    manifest = builtin_manifest()
    crews = {k.id: galley_crew(s, romans, k, manifest) for k in side_galleys(romans)}
    assert {i for i, c in crews.items() if c == 2} == set(range(50, 61))  # the vanguard
    assert {i for i, c in crews.items() if c == 1} == set(range(30, 50))  # the rest
    assert rule(s, "run_aground_vp") == {
        "side": "romans", "vp": 3, "hexes": CITY, "eliminated": False, "may_return": False, "remove": True,
    }
    assert rule(s, "line_astern_command")["except_groups"] == ["Vanguard"]
    assert s.wind.mode == "none"
    assert s.initiative.first_turn == "side" and s.initiative.side == "carthaginians"


def test_drepanum_approach() -> None:
    s = scenario("drepanum-approach")
    port = group(s, "carthaginians", "In port")
    assert port.zone is not None and port.zone.bow_hexes == CITY and port.zone.stern_offmap
    # the player picks the lead galleys: 4 on the map (the historical squadrons), 27 behind them
    assert port.count == 31 and port.offmap is not None and port.offmap.count == 27
    assert port.commanders == ["Adherbal", "Hanno", "Gisgo", "Himilco"]
    # "pointed directly to sea": the stern of a bow in 6016-6028 lies off the map
    for facing in port.zone.facings:
        for h in CITY:
            assert neighbour(s.map.joined().parse(h), facing + 3).col > 60
    assert 5 in port.zone.facings  # PLAY NOTE: 6016 pointing into 5915
    assert neighbour(Hex(60, 16), 5) == Hex(59, 15)
    assert rule(s, "port_start")["squadrons"] == [1, 4]
    first, second = group(s, "romans", "Squadron #1"), group(s, "romans", "Squadron #2")
    assert first.offmap is not None and second.offmap is not None
    assert first.offmap.count == second.offmap.count == 10
    assert first.offmap.entry == second.offmap.entry == ["1027", "1028"]
    assert first.offmap.from_turn == second.offmap.from_turn == 3
    assert second.offmap.after == "Squadron #1"  # the book's "Squadron #2", read as #1
    assert first.commanders == ["Metellus"] and second.commanders == ["C. Pulcher"]
    assert len(slot_texts(group(s, "romans", "Vanguard"), s.map.joined())) == 11
    until = {p["side"]: p["until"] for p in rules(s, "no_max_speed_until")}
    assert until == {"romans": "all_on_map", "carthaginians": "all_in_water"}
    assert [r.option for r in s.special if r.name == "no_max_speed_first_turn"] == ["roman_first_turn"]
    assert rule(s, "no_max_speed_first_turn") == {"side": "romans"}


def test_drepanum_battle() -> None:
    s = scenario("drepanum-battle")
    off = s.map.joined()
    line = group(s, "carthaginians", "Line Abreast")
    slots = slot_texts(line, off)
    assert len(slots) == 31 and slots[0] == "4909-4908" and slots[-1] == "1909-1908"
    assert {parse_position(p).facing for p in slots} == {3}  # heading east
    assert line.commander_at == {"Adherbal": "3409"} and slots[15] == "3409-3408"
    vanguard = placed(s)
    assert vanguard[CounterKey("red", "5", 50)] == "4226-4125"
    assert group(s, "romans", "Vanguard").commander_at == {"Fabius": "4826"}
    main = group(s, "romans", "Main body")
    assert main.zone is not None
    assert (main.zone.columns, main.zone.rows) == ((20, 39), (25, 28))
    assert main.zone.params["commander_columns"] == {"C. Pulcher": 25, "Metellus": 36}
    assert "double_line_astern" in main.zone.constraints
    assert not rules(s, "port_start") and not rules(s, "no_max_speed_until")


# ------------------------------------------------------------ Chios


def test_chios_fleets_and_rules() -> None:
    s = scenario("chios")
    allies = s.side("allies")
    assert [f.key for f in allies.fleets] == ["pergamenes", "rhodians"]
    assert allies.fleets[0].commanders == ["Attalus", "Dionysidorus"]
    assert allies.fleets[1].commanders == ["Theopholiscus", "Philostratus"]
    assert rule(s, "separate_fleets") == {"side": "allies", "fleets": ["pergamenes", "rhodians"]}
    assert rule(s, "no_command_ship") == {"side": "allies", "fleet": "pergamenes", "types": ["Trm"]}
    lembi = rule(s, "lembi_commanders")
    assert lembi["commanders"] == ["Lembi I", "Lembi II", "Lembi III"] and lembi["types"] == ["L"]
    assert (s.wind.mode, s.wind.marker, s.wind.toward) == ("steady", "6000", "5900")
    assert s.initiative.first_turn == "roll"
    assert sorted(c.edge for c in s.map.coast) == ["xx00", "xx28"]


def test_chios_formations() -> None:
    s = scenario("chios")
    off = s.map.joined()
    at = placed(s)
    assert at[CounterKey("red", "10", 1)] == "2721-2720"
    heavy = slot_texts(group(s, "macedonians", "Main Squadron: heavy galleys"), off)
    assert {h for p in heavy for h in parse_position(p, off).hexes} == {Hex(27, r) for r in range(14, 20)}
    line = slot_texts(group(s, "macedonians", "Main Squadron: line"), off)
    column = line[:2] + ["2721-2720"] + heavy + line[2:]
    assert all(follows(s, a, b) for a, b in zip(column, column[1:]))
    for name, count in (("Lembi 1st Line", 8), ("Lembi 2nd Line", 9), ("Lembi 3rd Line", 8)):
        g = group(s, "macedonians", name)
        slots = slot_texts(g, off)
        assert len(slots) == count and all("/" in p for p in slots)
        chain = slots[len(g.positions):] + slots[: len(g.positions)]  # head first
        assert all(follows(s, a, b) for a, b in zip(chain, chain[1:])), name
    perg = slot_texts(group(s, "allies", "Pergamene double column"), off)
    assert len(perg) == 14 and perg[0] == "3623-3722"
    for col in (perg[:7], perg[7:]):
        assert all(follows(s, a, b) for a, b in zip(col, col[1:]))
    port = group(s, "allies", "Rhodian Port Squadron")
    starboard = group(s, "allies", "Rhodian Starboard Squadron")
    assert port.count == starboard.count == 6
    assert port.commander_at == {"Philostratus": "5009"} and starboard.commander_at == {"Theopholiscus": "4904"}
    assert {parse_position(p).facing for g in (port, starboard) for p in slot_texts(g, off)} == {5}


# ------------------------------------------------------------ Side


def test_side_map_joined_at_the_short_edges() -> None:
    s = scenario("side")
    off = s.map.joined()
    assert [(sheet.letter, sheet.col_shift, sheet.row_shift) for sheet in off.sheets] == [("S", 0, 0), ("N", 50, 0)]
    assert off.parse("S6010") == off.parse("N1010")  # S60xx lies under N10xx
    assert [(c.edge, c.sheet) for c in s.map.coast] == [("60xx", "N")]
    for side in s.sides:
        for g in side.deploy:
            for pos in slot_texts(g, off):
                assert pos.startswith("N"), pos


def test_side_deployments() -> None:
    s = scenario("side")
    off = s.map.joined()
    syrians = group(s, "syrians", "Syrian fleet")
    z = syrians.zone
    assert z is not None and z.sheet == "N" and z.columns == (25, 55) and z.facings == [0]
    assert z.params["front_rows"] == [21, 22] and z.params["distance"] == 2
    assert z.params["commander_wings"] == {"Hannibal": "left", "Apollonius": "right"}
    assert {"two_lines", "commander_wings"} <= set(z.constraints)
    expected = {"Right Wing": (16, 8, "N4400"), "Center Line": (10, 2, "N5000"), "Left Wing": (16, 8, "N5500")}
    for name, (count, offmap, entry) in expected.items():
        g = group(s, "rhodians", name)
        slots = slot_texts(g, off)
        assert g.count == count and len(slots) == 8 and g.offmap is not None
        assert (g.offmap.count, g.offmap.entry) == (offmap, [entry])
        assert all(follows(s, a, b) for a, b in zip(slots, slots[1:])), name
        tail = parse_position(slots[-1], off)
        assert tail.double
        assert entry in {off.format(tail.bow), off.format(tail.stern)}
    assert group(s, "rhodians", "Right Wing").commander_at == {"Eudamus": "N3106"}
    assert group(s, "rhodians", "Center Line").commander_at == {"Pamphilidus": "N4108"}
    assert group(s, "rhodians", "Left Wing").commander_at == {"Chariclitus": "N5010"}


def test_side_special_rules() -> None:
    s = scenario("side")
    assert rule(s, "approach_phase") == {"side": "rhodians", "turns": 1, "command_required": True}
    assert rule(s, "pestilence") == {"side": "rhodians", "fatigue_drm": 1}
    assert (s.wind.mode, s.wind.marker, s.wind.toward) == ("steady", "S1028", "S1127")
    flame = {g.galleys for side in s.sides for f in side.fleets for g in f.galleys if "flame" in g.capabilities}
    assert flame == {"7#1-3", "6#1-4", "5#83-92", "4#20-39", "4#8-19"}


# ------------------------------------------------------------ Myonessus


def test_myonessus_firepots_and_fleets() -> None:
    s = scenario("myonessus")
    roman, rhodian = s.side("allies").fleets
    assert (roman.key, rhodian.key) == ("romans", "rhodians")
    assert rhodian.commanders == ["Eudamus"] and roman.commanders == ["Aemilius", "Agricola", "Drusus"]
    (pots,) = rhodian.galleys
    assert pots.galleys == "cat3#26-32" and pots.capabilities == ["firepots"]
    assert all("flame" in g.capabilities for g in roman.galleys)
    assert all("flame" in g.capabilities for g in s.side("syrians").fleets[0].galleys)
    assert rule(s, "separate_fleets") == {"side": "allies", "fleets": ["romans", "rhodians"]}
    assert not rules(s, "no_fire") and s.wind.mode == "none" and s.initiative.first_turn == "roll"
    assert [c.edge for c in s.map.coast] == ["60xx"]


def test_myonessus_deployments() -> None:
    s = scenario("myonessus")
    off = s.map.joined()
    at = placed(s)
    assert at[CounterKey("red", "7", 4)] == "3021-3022"
    assert at[CounterKey("red", "6", 5)] == "4120-4121"
    offmap = {g.name: g.offmap.count for g in s.side("syrians").deploy if g.offmap}
    assert sorted(offmap.values()) == [3, 3, 4, 4] and sum(offmap.values()) == 14
    for g in s.side("syrians").deploy:
        slots = slot_texts(g, off)
        assert len(slots) == 4 and {parse_position(p).facing for p in slots} == {0}
        assert parse_position(slots[0]).bow.row in (20, 21)
    roman = slot_texts(group(s, "allies", "Roman Squadron"), off)
    assert len(roman) == 20 and roman[0] == "2806-2805" and roman[-1] == "4706-4705"
    assert group(s, "allies", "Roman Squadron").commander_at == {"Aemilius": "2906"}
    rhodian = slot_texts(group(s, "allies", "Rhodian Squadron"), off)
    assert rhodian[0] == "5306-5206" and rhodian[-1] == "4100-4000"
    assert all(follows(s, a, b) for a, b in zip(rhodian, rhodian[1:]))
    assert {parse_position(p).facing for p in rhodian} == {2}


def test_files_are_the_seven() -> None:
    assert all(Path(BATTLES_DIR / f"{k}.toml").exists() for k in MINE)
