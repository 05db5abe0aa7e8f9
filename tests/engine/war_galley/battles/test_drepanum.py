"""Drepanum's area D (2.2, 6.31; scenario book, "Map"): the shipped file holds the hexes the text fixes,
and a player's own scenario file may add the rest of the printed map's area D."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.errors import RulesDataError
from engine.war_galley.map_and_galleys.galley import parse_galley_id
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.movement.moving import RanAground, move, surroundings
from engine.war_galley.movement.steps import Forward, Plan
from engine.war_galley.play.legal import legal
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn import hooks
from engine.war_galley.turn.state import GameState, Phase
from tests.engine.war_galley.scenario_support import SeededDice, apply, deployed

CITY = [f"60{r}" for r in range(16, 29)]  # "any northernmost hex from 6016-6028 (the city of Drepanum)"
ISLET = "4522"  # stands for a printed area-D hex the text does not give: the test's own, not the book's
CITY_LIST = ", ".join(f'"{h}"' for h in CITY)


def own_file(tmp_path: Path, extra: list[str], name: str = "my-drepanum.toml") -> Path:
    """The built-in Battle start with `extra` hexes added to its area D, as a player's own file."""
    _, data = RULESET.load_scenario("drepanum-battle")
    text = data.decode()
    area = f'hexes = [{CITY_LIST}]\nnote = "The city of Drepanum'
    assert text.count(area) == 1  # [[map.land]] D; the run_aground_vp list is written inline
    text = text.replace(area, f'hexes = [{CITY_LIST}, {", ".join(repr(h).replace(chr(39), chr(34)) for h in extra)}]'
                              '\nnote = "The city of Drepanum')
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def set_up(path: Path) -> GameState:
    _, data = RULESET.load_scenario(str(path))
    dice = SeededDice(random.Random(2))
    state, _ = RULESET.advance(RULESET.new_game(data, default_rules_data(), {}), dice)
    while state.phase is Phase.DEPLOYMENT:
        state = apply(state, legal(state)[0], dice)
    return state


def test_the_shipped_area_d_is_the_city_the_text_names() -> None:
    state = deployed("drepanum-battle")
    land = {state.board.map.format(h) for h in state.board.land}
    assert land == set(CITY)


def test_a_players_own_area_d_hexes_are_land_and_running_into_one_runs_aground(tmp_path: Path) -> None:
    built_in = deployed("drepanum-battle")
    state = set_up(own_file(tmp_path, [ISLET]))
    islet = state.board.map.parse(ISLET)
    assert built_in.board.is_sea(islet) and not state.board.is_sea(islet)
    # R5-54 (4523-4524) heads straight at 4522: one Forward step puts its bow on the added land (6.31).
    galley = state.galley(parse_galley_id("R5-54"))
    assert galley.position is not None and state.board.map.format(galley.position.bow) == "4523"
    around = surroundings(state.board, state.galleys, galley, state.wind, state.turn, state.charts)
    aground, events = move(around, galley, Plan(galley.id, SpeedSide.CRUISE, 1, (Forward(),)))
    ran = [e for e in events if isinstance(e, RanAground)]
    assert ran and ran[0].hex == islet and aground.aground is not None
    # The city's 3 VP (Drepanum, Victory) stay on 6016-6028: aground on the rest of area D is 9.1's
    # ordinary Run Aground, the galley stays (6.36) and Carthage scores its Ram Defense.
    after = state.with_galley(aground)
    from engine.war_galley.turn.casualties import settle
    after, _ = settle(after, ran, {g.id: g for g in state.galleys}, SeededDice(random.Random(0)))
    after, told = hooks.after(after, ("C. Pulcher",), state, list(ran))
    assert not told and after.vp("romans") == 0
    assert after.vp("carthaginians") == galley.ratings.cruise.ram_defense
    assert after.galley(galley.id).position is not None


def test_a_players_area_d_hex_under_a_listed_position_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RulesDataError, match="is on land"):
        RULESET.load_scenario(str(own_file(tmp_path, ["4523"])))  # R5-54's bow hex
