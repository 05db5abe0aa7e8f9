"""The listing answers the player's question (issue 24): attacks open now, the draft's default line,
the standing reactions asked for at the set-up, and why a choice was forced."""

from __future__ import annotations

from msgspec.structs import replace

from engine.dice import ForcedDice

from engine.war_galley.play import attacks, draft
from engine.war_galley.play import legal as legal_actions
from engine.war_galley.ruleset import RULESET
from engine.war_galley.turn.decisions import Activate, Initiative
from engine.war_galley.turn.sequence import SpeedChosen
from tests.engine.war_galley.game_support import decide, g, run, skirmish, to_command_phase
from tests.engine.war_galley.turn.test_activation import individual_phase


def test_one_listing_names_each_attack_open_now_with_its_roll_and_order() -> None:
    state = individual_phase(G5_14="3017-3016")  # G5-14 three hexes ahead of R5-53
    lines = attacks.attack_lines(state)
    assert lines[0].startswith("attacks open now")
    assert any(line.startswith("  R5-53 rake G5-14, needs 2d6 ") and "K:G5-14" in line for line in lines[1:])
    assert RULESET.legal_notes(state) == lines


def test_with_no_attack_open_the_listing_says_so_once_for_every_galley() -> None:
    state = to_command_phase(skirmish())  # the fleets twelve rows apart
    assert attacks.attack_lines(state) == [
        "attacks open now: none (no galley of 3 can ram, rake, grapple, board or fire)"]
    assert "# attacks open now: none" in RULESET.draft(state, "G")


def test_the_drafts_line_to_keep_is_never_an_activation_that_orders_nothing() -> None:
    state = to_command_phase(skirmish())
    listed = legal_actions.legal(state)
    ranked = draft.preferred(listed)
    assert sorted(map(str, ranked)) == sorted(map(str, listed))  # the same options, reordered
    first = ranked[0]
    assert isinstance(first, Activate) and first.plans
    kept = [line for line in RULESET.draft(state, "G").splitlines() if line and not line.startswith("#")]
    assert kept == [RULESET.format_order(RULESET.legal(state)[listed.index(first)])]


def test_the_set_up_draft_asks_for_standing_reactions_and_explains_them() -> None:
    state, _ = RULESET.advance(RULESET.new_game(RULESET.builtin_scenario("tauris"), RULESET.default_rules_data(), {}),
                               ForcedDice())
    text = RULESET.draft(state, "G")
    kept = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert kept[0].startswith("reactions: ") and kept[1].startswith("deploy: ")
    assert "Ordered none, they never avoid a ram and never" in text and "(6.5, 6.7, 8.42" in text


def test_a_forced_speed_level_says_which_rule_and_why() -> None:
    state = skirmish()
    state = state.with_galley(replace(state.galley(g("R5-52")), fatigue=1))
    state, _, _ = run(state, 4, 2)
    state, events = decide(state, Initiative(side="rome", first="rome"))
    forced = next(e for e in events if isinstance(e, SpeedChosen) and e.squadron == "Metellus")
    assert forced.automatic and forced.why == "R5-52 is Fatigued (F-1) and may not use Maximum Speed (6.44)"
    assert RULESET.describe_event(forced, state) == (
        "Metellus: Cruise Speed (no choice: R5-52 is Fatigued (F-1) and may not use Maximum Speed (6.44)) (6.12)")
