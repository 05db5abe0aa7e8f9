"""The war-galley ruleset behind the protocol's contract, its notation, and a game by signed files."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder, NotationError, RulesError
from engine.war_galley.play.orders import parse_order
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.decisions import (
    AcceptHalt,
    Activate,
    Concede,
    Deploy,
    Double,
    Individual,
    Initiative,
    ProposeHalt,
    Speed,
    Squadrons,
    Transfer,
    from_json,
    to_json,
)
from pbem.signed import identity as ids
from pbem.game import writing
from pbem.game import referee
from pbem.game import ruleset as rulesets
from pbem.game.ruleset import Ruleset
from tests.engine.war_galley.game_support import SKIRMISH, g, skirmish, to_command_phase

CONTRACT = [name for name in Ruleset.__dict__ if not name.startswith("_")] + ["name", "version", "illegal_errors"]


def test_it_is_the_registered_war_galley_ruleset_with_the_whole_contract() -> None:
    assert rulesets.find("war-galley") is RULESET
    for name in CONTRACT:
        assert hasattr(RULESET, name), name
    assert RULESET.name == "war-galley" and RULESET.illegal_errors == (RulesError,)


def test_scenarios_are_the_books_battles_with_a_summary() -> None:
    infos = RULESET.scenarios()
    assert infos[0].name == "lade" and infos[0].sides == ("persians", "ionians")
    assert "494 B.C." in infos[0].summary and "difficulty 2" in infos[0].summary and "galleys" in infos[0].summary
    name, data = RULESET.load_scenario("lade")
    assert data == RULESET.builtin_scenario("lade") and RULESET.builtin_scenario("nowhere") is None
    with pytest.raises(RulesError, match="no scenario"):
        RULESET.load_scenario("nowhere")


def test_a_scenario_file_of_ones_own(tmp_path: Path) -> None:
    path = tmp_path / "skirmish.toml"
    path.write_text(SKIRMISH)
    name, data = RULESET.load_scenario(str(path))
    assert name == "skirmish" and RULESET.sides(data, RULESET.default_rules_data()) == ("rome", "carthage")


SAMPLES = [
    ("deploy: G5-11 2003-2002, G5-12 2203-2202; Hanno on G5-11, Gisgo on G5-12",
     Deploy(side="rome", galleys=((g("G5-11"), "2003-2002"), (g("G5-12"), "2203-2202")),
            commanders=(("Hanno", g("G5-11")), ("Gisgo", g("G5-12"))))),
    ("squadrons", Squadrons(side="rome")),
    ("squadrons: line astern Catulus; R5-51 to Metellus, R5-53 to Catulus",
     Squadrons(side="rome", line_astern=("Catulus",), assign=((g("R5-51"), "Metellus"), (g("R5-53"), "Catulus")))),
    ("initiative: carthage first", Initiative(side="rome", first="carthage")),
    ("speed Catulus: cruise", Speed(side="rome", squadron="Catulus")),
    ("speed M. Octavius: max R5-50 R5-51", Speed(side="rome", squadron="M. Octavius", maximum=(g("R5-50"), g("R5-51")))),
    ("activate Catulus:", Activate(side="rome", squadron="Catulus")),
    ("activate Catulus + Metellus: R5-50 max 6: F F P F F F; R5-52 cruise 3: B TPS; refloat R5-51",
     Activate(side="rome", squadron="Catulus", also="Metellus",
              plans=(parse_order("R5-50 max 6: F F P F F F"), parse_order("R5-52 cruise 3: B TPS")),
              refloat=(g("R5-51"),))),
    ("double Metellus", Double(side="rome", other="Metellus")),
    ("individual R5-53", Individual(side="rome", galley=g("R5-53"))),
    ("transfer Catulus to R5-51", Transfer(side="rome", commander="Catulus", to=g("R5-51"))),
    ("concede", Concede(side="rome")),
    ("propose halt", ProposeHalt(side="rome")),
    ("accept halt", AcceptHalt(side="rome")),
]


@pytest.mark.parametrize(("text", "decision"), SAMPLES, ids=[t.split(":")[0] for t, _ in SAMPLES])
def test_every_decision_has_a_notation_that_round_trips(text: str, decision: Any) -> None:
    state = to_command_phase(skirmish())  # Rome decides: the side comes from the state
    assert RULESET.format_order(to_json(decision)) == text
    assert from_json(RULESET.parse_order(text, state)) == decision
    assert from_json(to_json(decision)) == decision


def test_bad_notation_and_bad_json_are_rules_errors() -> None:
    state = to_command_phase(skirmish())
    with pytest.raises(NotationError):
        RULESET.parse_order("row harder", state)
    with pytest.raises(IllegalOrder, match="decision"):
        RULESET.apply(state, {"kind": "ram", "side": "rome"}, ForcedDice())


def test_every_listed_decision_formats_parses_and_applies() -> None:
    state = to_command_phase(skirmish(), maximum=("R5-50",))
    for decision in RULESET.legal(state):
        assert RULESET.parse_order(RULESET.format_order(decision), state) == decision
        RULESET.apply(state, decision, ForcedDice(*[3] * 10))


def test_pending_state_bytes_and_words() -> None:
    state = skirmish()
    assert RULESET.pending(state).automatic
    state, events = RULESET.advance(state, ForcedDice(4, 2))
    assert RULESET.pending(state).kind == "initiative" and RULESET.pending(state).side == "rome"
    words = [RULESET.describe_event(e) for e in events]
    assert "Turn 1: C. Initiative Phase (3.2)" in words
    assert all("(" in w for w in words)
    assert RULESET.state_bytes(state) == RULESET.state_bytes(state) and RULESET.result(state) is None
    assert "turn 1" in RULESET.describe(state)


def test_a_game_through_signed_files(tmp_path: Path) -> None:
    """make_invite, make_accept, make_move: files carry decisions, the dice resolve them, replay agrees."""
    path = tmp_path / "skirmish.toml"
    path.write_text(SKIRMISH)
    host, guest = ids.generate("alice", tmp_path / "keys"), ids.generate("bob", tmp_path / "keys")
    invite = writing.make_invite(host, "Alice", RULESET, str(path), "rome", {}, chain_length=64)
    game = referee.replay([invite.raw], ["0"])
    accept = writing.make_accept(game, guest, "Bob", 64)
    referee.admit(game, accept, "1")
    me = {"host": host, "guest": guest}
    chooser = random.Random(4)
    decided = 0
    for seq in range(2, 40):
        role = game.next_author
        view = writing.outlook(game, me[role])
        decisions = []
        if view.pending.side == game.player(role).side and not view.pending.finished:
            decisions = [chooser.choice(RULESET.legal(view.resolution.state))]
            decided += 1
        signed = writing.make_move(game, me[role], decisions)
        referee.admit(game, signed, str(seq))
    assert decided >= 10
    again = referee.replay([f.raw for f in game.files], [str(n) for n in range(len(game.files))])
    assert RULESET.state_bytes(again.resolved_state) == RULESET.state_bytes(game.resolved_state)
    assert game.resolved_state.turn >= 1
