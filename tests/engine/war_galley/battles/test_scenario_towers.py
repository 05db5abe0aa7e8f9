"""Scenario towers (8.47-8.48, Naulochus' option, Actium): the counters get T and one less Maximum Speed at set-up."""

from __future__ import annotations

from engine.war_galley.manpower_combat.towers import JettisonTowers, after_move, ram_drm, towered
from engine.war_galley.map_and_galleys.galley import Galley, GalleyType
from engine.war_galley.map_and_galleys.manifest import CounterKey
from engine.war_galley.map_and_galleys.ratings import Ratings, SpeedSide
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data, load_rules_data, parse
from engine.war_galley.movement.moving import move, surroundings
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.movement.steps import Forward, Plan
from tests.engine.war_galley.manpower_support import charts
from tests.engine.war_galley.scenario_support import deployed, new

MANIFEST = parse(load_rules_data(default_rules_data())).manifest


def printed(galley: Galley) -> Ratings:
    """The counter's ratings as the manifest prints them."""
    return MANIFEST.ratings(CounterKey(galley.id.colour.name.lower(), galley.id.type.value, galley.id.number))


def test_actium_galleys_all_have_towers_and_one_less_maximum_without_a_printed_t() -> None:
    state = new("actium")
    assert state.galleys and not state.devices.height_advantage
    for g in state.galleys:
        counter = printed(g)
        assert g.ratings.towers and towered(g)
        less = 0 if counter.towers else 1
        assert g.ratings.maximum.speed == counter.maximum.speed - less, g.id
        assert g.ratings.cruise == counter.cruise
        assert ram_drm(charts(), g) == -1


def test_naulochus_towers_option_on_every_galley_but_the_liburnians() -> None:
    on = new("naulochus", {"towers": "on"})
    off = new("naulochus")
    assert any(g.id.type is GalleyType("L2") for g in on.galleys)
    for g in on.galleys:
        counter = printed(g)
        if g.id.type is GalleyType("L2"):
            assert not g.ratings.towers and g.ratings.maximum.speed == counter.maximum.speed
        else:
            assert g.ratings.towers and g.ratings.maximum.speed == counter.maximum.speed - 1, g.id
    for g in off.galleys:
        assert not g.ratings.towers and g.ratings.maximum == printed(g).maximum, g.id


def test_a_scenario_towered_galley_jettisons_and_announces_one_more_maximum_next() -> None:
    state = deployed("actium")
    galley = next(g for g in state.galleys if g.position is not None and not printed(g).towers)
    towered_max = speed_limit(galley, SpeedSide.MAXIMUM).mp
    assert towered_max == printed(galley).maximum.speed - 1
    plan = Plan(galley.id, SpeedSide.CRUISE, 2, (JettisonTowers(), Forward()))
    moved, _ = move(surroundings(state.board, state.galleys, galley, state.wind, state.turn, state.charts), galley, plan)
    after, events = after_move(moved, plan)
    assert after.towers_jettisoned and not towered(after) and events
    assert ram_drm(charts(), after) == 0
    assert speed_limit(after, SpeedSide.MAXIMUM).mp == towered_max + 1
