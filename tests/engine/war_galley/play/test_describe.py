"""Every event kind in words (engine/war_galley/play/describe.py), and the exact words of the common ones."""

from __future__ import annotations

import importlib
import pkgutil

import engine.war_galley
from engine.events import DieRolled, Event
from engine.war_galley.galley_combat.ramming import MarkerPlaced, RamResolved, RamResult
from engine.war_galley.map_and_galleys.galley import parse_galley_id
from engine.war_galley.map_and_galleys.hexes import Direction, Hex
from engine.war_galley.map_and_galleys.position import Position, Side
from engine.war_galley.movement.moving import LeftMap, MarkerRemoved, RanAground, Stepped
from engine.war_galley.movement.steps import BowFlank, Forward
from engine.war_galley.play.describe import _WORDS, event_words

GRL1, R31 = parse_galley_id("GRL-1"), parse_galley_id("R3-1")


def _all_event_kinds() -> set[type]:
    for module in pkgutil.walk_packages(engine.war_galley.__path__, "engine.war_galley."):
        importlib.import_module(module.name)
    found: set[type] = set()
    todo = [Event]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def test_every_event_kind_has_words() -> None:
    kinds = _all_event_kinds()
    assert len(kinds) > 50
    missing = sorted(f"{k.__module__}.{k.__name__}" for k in kinds if k.__name__ not in _WORDS)
    assert not missing, f"event kinds without words (they fall back to a raw dump): {missing}"


def test_stepped() -> None:
    step = Stepped(rule="6.32", galley=GRL1, step=BowFlank(Side.PORT),
                   position=Position(Hex(40, 12), Direction.DOWN_LEFT, False), spent=1)
    assert event_words(step) == "GRL-1: moving into a Bow/Flank hex to port, now at 4012/4; 1 MP spent (6.32)"
    double = Stepped(rule="6.32", galley=R31, step=Forward(), position=Position(Hex(34, 21), Direction.UP, True),
                     spent=2)
    assert event_words(double) == "R3-1: moving forward, now at 3421-3422; 2 MP spent (6.32)"


def test_a_position_off_the_sheet_is_written_globally() -> None:
    step = Stepped(rule="6.32", galley=GRL1, step=Forward(),
                   position=Position(Hex(64, 40), Direction.UP, False), spent=3)
    assert event_words(step) == "GRL-1: moving forward, now at global 6440/0; 3 MP spent (6.32)"
    assert event_words(RanAground(rule="6.31", galley=GRL1, hex=Hex(-2, 3))) == "GRL-1 runs aground in global -203 (6.31)"


def test_markers() -> None:
    assert event_words(MarkerPlaced(rule="7.16", galley=R31, marker="Rammed")) == "Rammed marker on R3-1 (7.16)"
    assert (event_words(MarkerPlaced(rule="7.28", galley=R31, marker="Crippled (port)"))
            == "Crippled marker on R3-1 (port) (7.28)")
    assert (event_words(MarkerPlaced(rule="7.16", galley=GRL1, marker="Fouled with R3-1"))
            == "Fouled marker on GRL-1 (fouled with R3-1) (7.16)")
    assert (event_words(MarkerPlaced(rule="6.12", galley=GRL1, marker="Cruise Speed"))
            == "GRL-1 flips to its Cruise Speed side (6.12)")
    assert (event_words(MarkerRemoved(rule="6.37", galley=GRL1, marker="Half Speed"))
            == "Half Speed marker removed from GRL-1 (6.37)")


def test_aground_and_off_the_map() -> None:
    assert event_words(RanAground(rule="6.31", galley=GRL1, hex=Hex(40, 12))) == "GRL-1 runs aground in 4012 (6.31)"
    assert event_words(LeftMap(rule="9.1", galley=GRL1)) == "GRL-1 leaves the map for good (9.1)"


def test_ram_result() -> None:
    ram = RamResolved(rule="7.16", rammer=GRL1, target=R31, result=RamResult.FOULED, reaction=False)
    assert event_words(ram) == "GRL-1 rams R3-1: Rammed, the two are Fouled (7.16)"


def test_die_rolled() -> None:
    roll = DieRolled(rule="7.16", table="Retraction", natural=8, modifiers=(("rammer's Crew", -3),),
                     outcome="retracted")
    assert event_words(roll) == "Retraction: rolled 8 -3 (rammer's Crew) = 5: retracted (7.16)"
