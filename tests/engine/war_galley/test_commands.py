"""Commands for team games (issue 26): each side's commands, what a decision concerns, what the rules await.

engine.war_galley.play.commands behind the ruleset's optional contract methods `commands`, `commands_of` and
`awaited_commands` (engine/contract.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from engine.errors import RulesError
from engine.war_galley.battles.setup import new_game
from engine.war_galley.map_and_galleys.rulesdata import default_rules_data
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.commands import first_command
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.activation import allowed, double_options
from engine.war_galley.turn.decisions import (
    AcceptHalt,
    Activate,
    Boarding,
    Concede,
    Decision,
    Deploy,
    Double,
    Individual,
    Initiative,
    ProposeHalt,
    Speed,
    Squadrons,
    Standing,
    Transfer,
    to_json,
)
from engine.war_galley.turn.state import GameState, Phase, Segment
from tests.engine.war_galley.game_support import SKIRMISH, at, decide, g, run, skirmish, to_command_phase
from tests.engine.war_galley.scenario_support import commit, new
from tests.engine.war_galley.test_integration_combat import apply as apply_with, order
from tests.engine.war_galley.test_integration_manpower import alongside, grappled

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
BATTLES = [s.name for s in RULESET.scenarios() if s.name != "tournament"]


def of(state: GameState, decision: Decision | dict[str, Any]) -> list[str]:
    return RULESET.commands_of(state, decision if isinstance(decision, dict) else to_json(decision))


# --- commands(...) ---------------------------------------------------------------------------------------


def test_the_battle_files_are_the_books_thirteen_battles() -> None:
    """Drepanum is two files: the approach and the battle."""
    assert len({b.removesuffix("-approach").removesuffix("-battle") for b in BATTLES}) == 13


@pytest.mark.parametrize("battle", BATTLES)
def test_every_battles_commands_are_its_commanders_admiral_first_no_duplicates(battle: str) -> None:
    data = RULESET.builtin_scenario(battle)
    assert data is not None
    found = RULESET.commands(data, default_rules_data())
    state = new(battle)
    assert list(found) == list(RULESET.sides(data, default_rules_data()))
    for side, names in found.items():
        mine = state.commanders_of(side)
        assert len(set(names)) == len(names)
        assert sorted(names) == sorted(c.name for c in mine)  # every commander, as the game names him
        admirals = [c.name for c in mine if c.admiral]
        assert names[0] == (admirals[0] if admirals else mine[0].name)
        assert [n for n in names if n != names[0]] == [c.name for c in mine if c.name != names[0]]  # file order
        assert first_command(state, side) == names[0]


def test_tauris_commands_are_the_books() -> None:
    """The scenario book, Tauris: "Publius Vatinius (Admiral), *Agricola [a], and *Drusus"; "Marcus Octavius
    (Admiral) [a], *Cleomacles, and *Varus"."""
    _, data = RULESET.load_scenario("tauris")
    assert RULESET.commands(data, default_rules_data()) == {
        "caesarians": ["Publius Vatinius", "Agricola", "Drusus"],
        "pompeians": ["Marcus Octavius", "Cleomacles", "Varus"],
    }


def test_two_admirals_the_first_named_first_and_no_admiral_the_first_named() -> None:
    rules = default_rules_data()
    assert RULESET.commands(RULESET.load_scenario("ecnomus")[1], rules)["romans"][:2] == ["Regulus", "Manlius"]
    assert RULESET.commands(RULESET.load_scenario("lade")[1], rules)["ionians"][0] == "Samos"  # no admiral


def test_an_admiral_named_after_a_squadron_commander_still_comes_first() -> None:
    fleet = 'commanders = ["Catulus", "Metellus"]\n\n[[sides.deploy]]'
    assert fleet in SKIRMISH
    text = SKIRMISH.replace(fleet, 'commanders = ["Metellus", "Catulus"]\n\n[[sides.deploy]]')
    state = new_game(text.encode(), default_rules_data(), {})
    assert [c.name for c in state.commanders_of("rome")] == ["Metellus", "Catulus"]
    assert RULESET.commands(text.encode(), default_rules_data())["rome"] == ["Catulus", "Metellus"]
    assert first_command(state, "rome") == "Catulus"


def test_tournament_names_no_commands_before_the_fleets_are_chosen() -> None:
    _, data = RULESET.load_scenario("tournament")
    assert RULESET.commands(data, default_rules_data()) == {"red": [], "green": []}


# --- commands_of(...) ------------------------------------------------------------------------------------


def test_activate_concerns_its_squadron_and_a_double_activations_second() -> None:
    state = to_command_phase(skirmish())
    assert of(state, Activate(side="rome", squadron="Catulus")) == ["Catulus"]
    assert of(state, Activate(side="rome", squadron="Catulus", also="Metellus")) == ["Catulus", "Metellus"]


def test_an_individual_squadrons_activation_is_the_sides() -> None:
    state = to_command_phase(skirmish())
    assert state.squadron("R5-53").individual
    assert of(state, Individual(side="rome", galley=g("R5-53"))) == []
    assert of(state, Activate(side="rome", squadron="R5-53")) == []


def test_double_concerns_the_admirals_squadron_then_the_other() -> None:
    near = to_command_phase(at(at(skirmish(), "R5-52", "2220-2221"), "R5-51", "1820-1821"))
    assert of(near, Double(side="rome", other="Metellus")) == ["Catulus", "Metellus"]
    far = to_command_phase(skirmish())  # no Double Activation possible: still the side's Admiral
    assert of(far, Double(side="rome", other="Metellus")) == ["Catulus", "Metellus"]


def test_speed_concerns_its_squadron_and_the_rest_shortcut_every_squadron_left() -> None:
    state = speed_phase()
    assert of(state, Speed(side="rome", squadron="Metellus")) == ["Metellus"]
    assert of(state, Speed(side="rome", squadron="R5-53")) == []  # an Individual Squadron galley's: the side's
    # `rest` sets the side's other squadrons too, the Individual one with them: the side's share, its Admiral.
    assert of(state, Speed(side="rome", squadron="Metellus", rest="max")) == ["Metellus", "Catulus"]
    assert of(state, Speed(side="rome", squadron="R5-53", rest="cruise")) == ["Catulus", "Metellus"]


def test_transfer_concerns_the_commander_and_what_follows_it() -> None:
    state = to_command_phase(skirmish())
    to = g("R5-51")
    assert of(state, Transfer(side="rome", commander="Metellus", to=to)) == ["Metellus"]
    follows = Transfer(side="rome", commander="Metellus", to=to, if_done=Activate(side="rome", squadron="Metellus"),
                       if_failed=Activate(side="rome", squadron="Catulus"))
    assert of(state, follows) == ["Metellus", "Catulus"]
    then_side = Transfer(side="rome", commander="Metellus", to=to, if_done=Squadrons(side="rome"))
    assert of(state, then_side) == ["Metellus", "Catulus"]  # phase B's squadrons are the side's: its Admiral


def test_boarding_concerns_the_squadron_just_activated() -> None:
    state = grappled(alongside())  # R5-52 (Metellus' squadron) grappled with G5-13
    state, _ = apply_with(state, order(state, "activate Metellus:"))
    assert state.segment is Segment.BOARDING
    assert of(state, Boarding(side="rome")) == ["Metellus"]
    assert RULESET.awaited_commands(state) == ["Metellus"]
    assert of(to_command_phase(skirmish()), Boarding(side="rome")) == []  # no Boarding Segment


@pytest.mark.parametrize("decision", [
    Deploy(side="rome"), Squadrons(side="rome", line_astern=("Catulus",)), Initiative(side="rome", first="rome"),
    Standing(side="rome", speed="max"), Concede(side="rome"), ProposeHalt(side="rome"), AcceptHalt(side="rome"),
    Individual(side="rome", galley=g("R5-53")),
])
def test_side_wide_decisions_concern_no_command(decision: Decision) -> None:
    assert of(to_command_phase(skirmish()), decision) == []


def test_reactions_and_secret_choices_are_the_sides() -> None:
    state = to_command_phase(skirmish())
    assert of(state, {"kind": "reactions", "side": "rome", "orders": {}}) == []
    assert of(state, commit("fleet", "5#50-53; admiral Agrippa")) == []


@pytest.mark.parametrize("value", [{"kind": "activate", "side": "rome"}, {"kind": "sail"}, "activate", 7, None])
def test_a_value_that_is_no_decision_is_refused_as_apply_refuses_it(value: Any) -> None:
    state = to_command_phase(skirmish())
    with pytest.raises(RULESET.illegal_errors):
        RULESET.commands_of(state, value)
    assert issubclass(RULESET.illegal_errors[0], RulesError)


def test_a_lost_or_transferred_commander_keeps_his_command() -> None:
    state = to_command_phase(skirmish())
    moved = state.with_commander(replace(state.commander("Metellus"), galley=g("R5-51"), reduced=True))
    assert of(moved, Activate(side="rome", squadron="Metellus")) == ["Metellus"]


def test_an_admiral_demoted_by_9_2_stays_his_sides_first_command() -> None:
    """Version 2 makes an admiral lost beside another a Squadron Commander (9.2); his seat keeps the side."""
    state = new("ecnomus")
    regulus = state.commander("Regulus")
    demoted = state.with_commander(replace(regulus, admiral=False, permanent_re=True, reduced=True))
    assert first_command(demoted, "romans") == "Regulus"


# --- awaited_commands(...) --------------------------------------------------------------------------------


def speed_phase() -> GameState:
    """Phase D, Rome to set: Catulus', Metellus' and the Individual Squadron R5-53."""
    state, _, _ = run(skirmish(), 4, 2)  # Rome wins the initiative
    state, _ = decide(state, Initiative(side="rome", first="rome"))
    assert play.pending(state).kind == "speed" and play.pending(state).side == "rome"
    return state


def test_awaited_in_phase_d_the_squadrons_left_and_the_admiral_for_an_individual_one() -> None:
    state = speed_phase()
    assert {s.key for s in state.squadrons if s.side == "rome"} == {"Catulus", "Metellus", "R5-53"}
    assert RULESET.awaited_commands(state) == ["Catulus", "Metellus"]
    state, _ = decide(state, Speed(side="rome", squadron="Catulus"))
    assert RULESET.awaited_commands(state) == ["Hanno", "Gisgo"]  # Carthage's turn: G5-14 left too, for Hanno
    state, _ = decide(state, Speed(side="carthage", squadron="Hanno"))
    # Metellus', or R5-53's for the side: Catulus, the Admiral, stands for the side.
    assert RULESET.awaited_commands(state) == ["Catulus", "Metellus"]
    state, _ = decide(state, Speed(side="rome", squadron="Metellus"))
    state, _ = decide(state, Speed(side="carthage", squadron="Gisgo"))
    assert play.pending(state).side == "rome" and play.pending(state).kind == "speed"
    assert RULESET.awaited_commands(state) == []  # only the Individual Squadron R5-53 left: the side's question


def test_awaited_in_phase_e_the_squadrons_that_may_activate() -> None:
    state = to_command_phase(skirmish())
    assert RULESET.awaited_commands(state) == ["Catulus", "Metellus"]
    state, _ = decide(state, Activate(side="rome", squadron="Catulus"))
    assert play.pending(state).side == "carthage"
    assert RULESET.awaited_commands(state) == ["Hanno", "Gisgo"]


def test_awaited_after_a_double_activation_both_squadrons() -> None:
    near = to_command_phase(at(at(skirmish(), "R5-52", "2220-2221"), "R5-51", "1820-1821"))
    doubled, _ = decide(near, Double(side="rome", other="Metellus"), 4)
    assert doubled.current is not None and RULESET.awaited_commands(doubled) == ["Catulus", "Metellus"]
    failed, _ = decide(near, Double(side="rome", other="Metellus"), 6, 5)  # 5.42: the other squadron goes now
    assert RULESET.awaited_commands(failed) == ["Metellus"]


def test_awaited_includes_a_squadron_only_a_double_activation_may_move() -> None:
    """5.13: with two admirals the one rolled for the initiative goes first, but may double with another."""
    state = to_command_phase(at(at(skirmish(), "R5-52", "2220-2221"), "R5-51", "1820-1821"))
    state = state.with_commander(replace(state.commander("Metellus"), admiral=True))  # a second admiral
    state = replace(state, initiative="rome", first="rome", initiative_admiral="Catulus")
    assert allowed(state, "rome") == [("Catulus", None)]
    assert double_options(state, "rome") == [("Catulus", "Metellus")]
    assert RULESET.awaited_commands(state) == ["Catulus", "Metellus"]


def test_awaited_nothing_for_side_wide_questions_and_when_nobody_decides() -> None:
    assert RULESET.pending(skirmish()).side is None  # automatic steps first: nobody decides
    assert RULESET.awaited_commands(skirmish()) == []
    assert RULESET.awaited_commands(run(skirmish(), 4, 2)[0]) == []  # the initiative's winner chooses (3.2)
    individual = to_command_phase(skirmish())
    while individual.phase is Phase.COMMAND:
        side = play.pending(individual).side
        key = next(s.key for s in individual.squadrons
                   if s.side == side and not s.individual and s.key not in individual.activated)
        individual, _ = decide(individual, Activate(side=side, squadron=key))  # type: ignore[arg-type]
    assert play.pending(individual).kind == "individual"
    assert RULESET.awaited_commands(individual) == []
    checked, _ = decide(individual, Individual(side="rome", galley=g("R5-53")), 3)
    assert checked.current is not None and RULESET.awaited_commands(checked) == []


# --- the recorded Tauris game ---------------------------------------------------------------------------

# Orders a side may give whenever it decides, not answers to the pending question (awaited_commands).
ANY_TIME = {"standing", "reactions", "concede", "propose-halt", "accept-halt", "transfer"}


def tauris_states() -> list[tuple[GameState, Any]]:
    """Every state of examples/tauris-game a decision was made in, with the decision made."""
    from pbem.game import folder, referee
    from pbem.game.checked import Move
    from pbem.signed.dice import NoDiceYet, SealedDice

    paths = folder.game_files(EXAMPLES / "tauris-game")
    game = referee.replay([p.read_bytes() for p in paths], [str(p) for p in paths])
    out = []
    for seq in range(1, len(game.files)):
        body = game.files[seq].body
        if not isinstance(body, Move):
            continue
        state = game.state_before(seq)
        for decision in body.decisions:
            out.append((state, decision))
            try:
                state, _ = RULESET.apply(state, decision, SealedDice())
            except NoDiceYet:
                break
    return out


def test_along_the_tauris_game_every_legal_decision_concerns_only_awaited_commands() -> None:
    """Where War Galley waits on a side: an answer's commands are awaited ones, and a side-wide answer ([])
    comes only where the question is the side's ([] awaited) or may be answered for the side (its first
    command awaited, phase D with Individual Squadrons left). A transfer's follow-ups are answers too."""
    seen: set[str] = set()
    states = tauris_states()
    assert len(states) > 50
    for state, made in states:
        side = RULESET.pending(state).side
        assert side is not None
        awaited = RULESET.awaited_commands(state)
        lead = first_command(state, side)
        mine = {c.name for c in state.commanders_of(side)}
        assert set(awaited) <= mine
        for decision in [made, *RULESET.legal(state)]:
            kind = decision.get("kind", "secret")
            seen.add(kind)
            found = RULESET.commands_of(state, decision)
            assert set(found) <= mine, (kind, found)
            answers = [decision]
            if kind == "transfer":
                assert found[0] == decision["commander"]
                answers = [decision[f] for f in ("if_done", "if_failed") if f in decision]
            elif kind in ANY_TIME:
                assert found == []
                continue
            for answer in answers:
                found = RULESET.commands_of(state, answer)
                if awaited:
                    assert set(found) <= set(awaited) | {lead}, (kind, found, awaited)
                    assert set(found) <= set(awaited) or kind == "transfer"
                    assert found or lead in awaited, (kind, awaited)
                else:
                    assert found == [] or kind == "transfer", (kind, found)
    assert {"deploy", "squadrons", "initiative", "speed", "activate", "individual", "board", "transfer"} <= seen
