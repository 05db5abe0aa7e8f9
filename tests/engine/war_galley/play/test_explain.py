"""engine.war_galley.play.explain, engine.war_galley.play.board_text, engine.war_galley.play.order_errors on the small skirmish battle."""

from __future__ import annotations

import pytest

from engine.dice import ForcedDice
from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.reactions import parse_reactions
from engine.war_galley.map_and_galleys.charts import ram_range
from engine.war_galley.map_and_galleys.galley import parse_galley_id
from engine.war_galley.movement.moving import surroundings
from engine.war_galley.play import dispatch as play
from engine.war_galley.play.board_text import board_data, board_text
from engine.war_galley.play.explain import UnknownGalley, explain, galley_report
from engine.war_galley.play.order_errors import check_names
from engine.war_galley.play.orders import parse_order
from engine.war_galley.play.planner import end_positions
from engine.war_galley.turn.decisions import Activate, Reactions, Squadrons, Transfer
from tests.engine.war_galley.game_support import at, g, skirmish, to_command_phase


def facing_state():
    """Rome to activate; G5-14 broadside on, one hex ahead of R5-53 (3020-3021, facing 0)."""
    return to_command_phase(at(skirmish(), "G5-14", "3119-3019"))


def test_the_report_lists_the_planner_end_positions_and_the_ratings() -> None:
    state = facing_state()
    report = galley_report(state, "R5-53")
    galley = state.galley(g("R5-53"))
    around = surroundings(state.board, state.galleys, galley, state.wind, state.turn, state.charts)
    assert report["reaches_total"] == len(end_positions(around, galley))
    assert report["mp"] == 4 and report["ratings"]["crew"] == 3 and report["position"] == "3020-3021"
    assert report["markers"] == ["Cruise Speed"]


def test_a_ram_target_comes_with_the_roll_it_needs() -> None:
    state = facing_state()
    report = galley_report(state, "R5-53")
    rams = [t for t in report["targets"] if t["action"] == "ram"]
    assert [t["target"] for t in rams] == ["G5-14"]
    me, foe = state.galley(g("R5-53")), state.galley(g("G5-14"))
    needed = ram_range(state.charts, me.ratings.cruise.ram_attack, foe.ratings.cruise.ram_defense)
    roll = rams[0]["roll"]
    assert roll["dice"] == "2d6" and roll["natural_at_least"] == needed.low - roll["drm"]
    assert {t["action"] for t in report["targets"]} == {"ram", "rake", "fire", "grapple"}
    fire = next(t for t in report["targets"] if t["action"] == "fire")["roll"]
    assert fire["dice"] == "1d6" and 1 <= fire["natural_at_least"] <= 6
    text = explain(state, "R5-53")[1]
    assert "ram G5-14; needs 2d6" in text and "R5-53 cruise" in text


def test_an_unknown_galley_is_named() -> None:
    with pytest.raises(UnknownGalley, match="R5-99 is not a galley of this battle"):
        galley_report(facing_state(), "R5-99")


def test_the_board_lists_every_galley_of_both_sides() -> None:
    state = facing_state()
    data = board_data(state)
    assert [len(s["galleys"]) for s in data["sides"]] == [4, 4]
    text = board_text(state)
    assert "R5-50     2020-2021      facing 0  Cruise Speed  [Catulus]" in text
    assert "G5-14     3119-3019      facing " in text


def test_names_are_checked_before_the_rules() -> None:
    state = facing_state()
    with pytest.raises(IllegalOrder, match="4.1: R5-99 is not a galley of this battle"):
        play.apply(state, Activate(side="rome", squadron="Catulus", plans=(parse_order("R5-99 cruise 1: F"),)),
                   ForcedDice())
    with pytest.raises(IllegalOrder, match="6.5: G5-11 is the enemy's galley"):
        play.apply(state, Reactions(side="rome", orders=parse_reactions("G5-11: avoid=never")), ForcedDice())
    with pytest.raises(IllegalOrder, match="'Catulos' is not a commander of rome"):
        check_names(state, Squadrons(side="rome", line_astern=("Catulos",)))
    with pytest.raises(IllegalOrder, match="R5-59 is not a galley of this battle"):
        check_names(state, Squadrons(side="rome", assign=((parse_galley_id("R5-59"), "Catulus"),)))
    with pytest.raises(IllegalOrder, match="'Hanno' is not a commander of rome"):
        check_names(state, Transfer(side="rome", commander="Hanno", to=g("R5-51")))


def test_an_activation_error_names_the_galley_it_is_about() -> None:
    state = to_command_phase(skirmish())
    # R5-50 (2020-2021) then R5-51 (2220-2221): R5-51 backs into R5-50's old stern hex? no: into 2222, free;
    # it moves forward two hexes into 2218, where R5-50's plan has put it
    decision = Activate(side="rome", squadron="Catulus",
                        plans=(parse_order("R5-50 cruise 2: F S"), parse_order("R5-51 cruise 2: F P")))
    with pytest.raises(IllegalOrder) as raised:
        play.apply(state, decision, ForcedDice())
    assert raised.value.reason.startswith("R5-51: ")


def test_status_says_each_sides_standing_reactions_and_the_default() -> None:
    from engine.war_galley.ruleset import RULESET

    state = facing_state()
    text = RULESET.describe(state)
    assert "standing reactions: Rome none ordered (never avoid, never fire back); Carthage none ordered" in text
    state, _ = play.apply(state, Reactions(side="rome", orders=parse_reactions(
        "default: avoid=ram-position fire=attacked\nR5-51: avoid=never")), ForcedDice())
    text = RULESET.describe(state)
    assert "Rome avoid=ram-position fire=attacked, own orders for R5-51; Carthage none ordered" in text


def test_7_15_the_ram_roll_shown_counts_mp_as_the_ram_does() -> None:
    """The roll `pbem legal` shows is the engine's: under sail the wind's MP are no MP over Cruise (7.15/6.23,
    docs/rules-notes.md), and a galley that drew a failed Defensive Reaction Ram this phase has -1 (6.7)."""
    from msgspec.structs import replace

    from engine.war_galley.galley_combat.combat_record import CombatRecord
    from engine.war_galley.map_and_galleys.hexes import Direction
    from engine.war_galley.movement.speed import Wind

    state = to_command_phase(at(skirmish(), "G5-14", "3014-3114"))  # broadside on, five hexes ahead of R5-53
    state = replace(at(state, "R5-53", "3020-3021", sails_up=True), wind=Wind(Direction(0), 2))  # wind astern
    (ram,) = [t for t in galley_report(state, "R5-53")["targets"] if t["action"] == "ram"]
    assert ram["order"] == "R5-53 cruise 5: F F F F F R:G5-14" and ram["roll"]["modifiers"] == []
    state = replace(state, record=CombatRecord(drew_reaction_ram=frozenset({g("R5-53")})))
    (ram,) = [t for t in galley_report(state, "R5-53")["targets"] if t["action"] == "ram"]
    assert ram["roll"]["modifiers"] == [["6.7 drew a Defensive Reaction Ram this phase", -1]]
