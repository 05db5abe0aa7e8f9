"""The counter manifest and commanders agree with every fact the rulebook fixes.

One test per fact of shared/rules/charts-and-counters.md (Counters,
Commanders) and of the scenario book about counters.
"""

from __future__ import annotations

import pytest

from engine.errors import RulesDataError
from engine.war_galley.battles.scenario_files import builtin_commanders, builtin_manifest
from engine.war_galley.map_and_galleys.manifest import CounterKey, Manifest, load_commanders, load_manifest
from engine.war_galley.map_and_galleys.ratings import Ratings


@pytest.fixture(scope="module")
def manifest() -> Manifest:
    return builtin_manifest()


def of_type(manifest: Manifest, type_: str) -> list[tuple[CounterKey, Ratings]]:
    found = [(k, r) for k, r in manifest.items() if k.type == type_]
    assert found, f"no counters of type {type_}"
    return found


def test_liburnian_cruise_4(manifest: Manifest) -> None:  # 6.13
    assert {r.cruise.speed for _, r in of_type(manifest, "L2")} == {4}


def test_quadrireme_maximum_6(manifest: Manifest) -> None:  # 7.27
    assert {r.maximum.speed for _, r in of_type(manifest, "4")} == {6}


def test_quinquereme_maximum_7(manifest: Manifest) -> None:  # 7.27
    assert {r.maximum.speed for _, r in of_type(manifest, "5")} == {7}


def test_twelve_differently_rated_quinqueremes(manifest: Manifest) -> None:  # scenario book
    assert len({r for _, r in of_type(manifest, "5")}) == 12


def test_cruise_4_max_6_crew_3_galley_exists(manifest: Manifest) -> None:  # 6.43 example
    assert any(r.cruise.speed == 4 and r.maximum.speed == 6 and r.crew == 3 for _, r in manifest.items())


def test_transports_print_m3_and_cannot_ram(manifest: Manifest) -> None:  # Catana, Salamis, 7.11
    for _, r in of_type(manifest, "T"):
        assert r.manpower == 3
        assert r.cruise.ram_attack == 0 and r.maximum.ram_attack == 0


def test_crew_1_to_4(manifest: Manifest) -> None:  # 6.41
    assert {r.crew for _, r in manifest.items()} <= {1, 2, 3, 4}


def test_attack_higher_on_maximum_side(manifest: Manifest) -> None:  # 2.1
    for key, r in manifest.items():
        assert r.maximum.ram_attack >= r.cruise.ram_attack, key
        if r.type != "T":
            assert r.maximum.ram_attack > r.cruise.ram_attack, key


def test_ram_defense_is_one_number(manifest: Manifest) -> None:  # 9.1 and 10.0 read one Ram Defense
    for key, r in manifest.items():
        assert r.cruise.ram_defense == r.maximum.ram_defense, key


def test_anastrophe_triremes_and_a_few_biremes_at_maximum_only(manifest: Manifest) -> None:  # 7.31
    for key, r in manifest.items():
        assert not r.cruise.anastrophe, key
        if r.type in ("3", "cat3"):
            assert r.maximum.anastrophe, key
        elif r.type != "2":
            assert not r.maximum.anastrophe, key
    biremes = [k for k, r in of_type(manifest, "2") if r.maximum.anastrophe]
    assert 0 < len(biremes) <= 4


def test_towers_cost_one_maximum_speed(manifest: Manifest) -> None:  # 6.13 play note
    towered = [(k, r) for k, r in manifest.items() if r.towers]
    assert towered
    for key, r in towered:
        assert r.maximum.speed == manifest.types[key.type].maximum.speed - 1, key


def test_counter_sizes(manifest: Manifest) -> None:  # 4.0: ~75 ft single, war galleys double
    for key, r in manifest.items():
        assert r.double == (r.type not in ("L", "RL", "T")), key


def test_no_towers_in_naulochus_fleets(manifest: Manifest) -> None:  # Naulochus: no T-rated galleys
    runs = [("red", "L2", range(1, 6)), ("red", "cat3", range(31, 42)), ("red", "4", range(27, 39)),
            ("red", "5", range(1, 6)), ("red", "6", range(6, 7)), ("green", "L2", range(1, 15)),
            ("green", "cat3", range(1, 26))]
    for colour, type_, ids in runs:
        for i in ids:
            assert not manifest.ratings(CounterKey(colour, type_, i)).towers


def test_actium_has_towered_counters(manifest: Manifest) -> None:  # Actium: "galleys without a T"
    assert any(manifest.ratings(CounterKey("red", "6", i)).towers for i in range(6, 14))


def test_unknown_counter_is_an_error(manifest: Manifest) -> None:
    with pytest.raises(RulesDataError, match="no counter"):
        manifest.ratings(CounterKey("red", "10", 2))


def test_octavius_4_0_at_tauris() -> None:  # Tauris note a
    c = builtin_commanders().get("tauris", "pompeians", "Marcus Octavius")
    assert (c.command_range, c.initiative) == (4, 0)


def test_admirals_have_initiative_and_sqcs_do_not() -> None:  # 5.11, 5.12
    for sides in builtin_commanders().rosters.values():
        for roster in sides.values():
            for c in roster:
                assert (c.initiative is not None) == (c.rank == "admiral"), c.name
                assert c.re_command_range <= c.command_range


MINIMAL = b"""
schema = 1
counters = []
[types.L]
name = "Lembi"
double = false
crew = 2
manpower = 1
cruise = { ram_attack = 1, ram_defense = 2, speed = 4 }
maximum = { ram_attack = 2, ram_defense = 2, speed = 6 }
"""


def test_manifest_needs_every_type() -> None:
    with pytest.raises(RulesDataError, match="no defaults for type"):
        load_manifest(MINIMAL, "mini.toml")


def test_manifest_syntax_error_names_file_and_line() -> None:
    with pytest.raises(RulesDataError, match=r"mini\.toml.*line 2"):
        load_manifest(b"schema = 1\ntypes = = 2\n", "mini.toml")


def test_manifest_unknown_field_names_path() -> None:
    bad = MINIMAL.replace(b"crew = 2", b"crew = 2\nspeedy = 1")
    with pytest.raises(RulesDataError, match=r"mini\.toml.*unknown field `speedy`.*\$\.types\.L"):
        load_manifest(bad, "mini.toml")


def test_manifest_counter_with_bad_crew() -> None:
    path = builtin_manifest().source
    text = open(path, "rb").read().replace(b'ids = "1-4"\ncrew = 3', b'ids = "1-4"\ncrew = 5', 1)
    with pytest.raises(RulesDataError, match=r"counters\[\d+\].*Crew 5 outside 1-4"):
        load_manifest(text, "x.toml")


def test_commanders_admiral_without_initiative() -> None:
    bad = b'schema = 1\n[scenarios.x]\na = [{ name = "A", rank = "admiral", command_range = 3, re_command_range = 2 }]\n'
    with pytest.raises(RulesDataError, match=r"c\.toml.*needs initiative.*\$\.scenarios\.x\.a\[0\]"):
        load_commanders(bad, "c.toml")
