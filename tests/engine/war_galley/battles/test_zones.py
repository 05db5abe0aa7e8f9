"""Relational deployment rules (engine.war_galley.battles.zones) and fixed commander hexes, checked at set-up."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.battles.deployment import check_deploy
from engine.war_galley.map_and_galleys.galley import parse_galley_id
from engine.war_galley.play.legal import legal
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.decisions import Deploy
from engine.war_galley.turn.state import Phase
from tests.engine.war_galley.scenario_support import SeededDice, apply, new

G = parse_galley_id


def at_deploy(key: str, side: str):  # type: ignore[no-untyped-def]
    dice = SeededDice(random.Random(0))
    state, _ = RULESET.advance(new(key), dice)
    while state.deploy[0].side != side:
        state = apply(state, legal(state)[0], dice)
    return state


def moved_to(example: Deploy, galley: str, where: str) -> Deploy:
    return replace(example, galleys=tuple((g, where if g == G(galley) else t) for g, t in example.galleys))


def test_naulochus_line_abreast_in_at_most_two_rows() -> None:
    state = at_deploy("naulochus", "pompeians")
    example = legal(state)[0]
    check_deploy(state, example)
    rows = {text[2:4] for _, text in example.galleys}
    assert len(rows) <= 2
    gid, text = example.galleys[0]
    broken = moved_to(example, str(gid), "4025-4026")  # a third row
    with pytest.raises(IllegalOrder, match="line_abreast"):
        check_deploy(state, broken)


def test_side_two_lines_and_commander_wings() -> None:
    state = at_deploy("side", "syrians")
    example = legal(state)[0]
    check_deploy(state, example)
    hannibal = dict(example.commanders)["Hannibal"]
    apollonius = dict(example.commanders)["Apollonius"]
    swapped = replace(example, commanders=tuple((n, apollonius if n == "Hannibal" else hannibal if n == "Apollonius" else g)
                                                for n, g in example.commanders))
    with pytest.raises(IllegalOrder, match="commander_wings"):
        check_deploy(state, swapped)


def test_drepanum_battle_double_line_astern_and_commander_columns() -> None:
    state = at_deploy("drepanum-battle", "romans")
    example = legal(state)[0]
    check_deploy(state, example)
    pulcher = dict(example.commanders)["C. Pulcher"]
    metellus = dict(example.commanders)["Metellus"]
    wrong = replace(example, commanders=tuple((n, metellus if n == "C. Pulcher" else pulcher if n == "Metellus" else g)
                                              for n, g in example.commanders))
    with pytest.raises(IllegalOrder, match="commander_columns"):
        check_deploy(state, wrong)


def test_catana_transports_near_the_war_galleys_in_one_line() -> None:
    state = at_deploy("catana", "carthaginians")
    example = legal(state)[0]
    check_deploy(state, example)
    transport = next(g for g, _ in example.galleys if g.type.value == "T")
    with pytest.raises(IllegalOrder, match="near_galleys|single_line_abreast"):
        check_deploy(state, moved_to(example, str(transport), "1010/3"))


def test_fixed_commander_hex_when_the_player_assigns_the_places() -> None:
    state = at_deploy("drepanum-battle", "carthaginians")
    example = legal(state)[0]
    check_deploy(state, example)
    adherbal = dict(example.commanders)["Adherbal"]
    other = next(g for g, _ in example.galleys if g != adherbal)
    wrong = replace(example, commanders=tuple((n, other if n == "Adherbal" else g) for n, g in example.commanders))
    with pytest.raises(IllegalOrder, match="Adherbal starts on the galley in 3409"):
        check_deploy(state, wrong)


def test_chios_attalus_fixed_and_no_tremiola_command_ship() -> None:
    state = at_deploy("chios", "allies")
    assert state.phase is Phase.DEPLOYMENT
    example = legal(state)[0]
    check_deploy(state, example)
    ship = dict(example.commanders)["Attalus"]
    position = dict(example.galleys)[ship]
    assert position.startswith("3623")
