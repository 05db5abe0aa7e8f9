"""Pass-Through, the Diekplus (7.24-7.25), and the 7.28 example: passes at 6 MP, fails at 5."""

from __future__ import annotations

import pytest

from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.combat_steps import PassedThrough, PlanEnd, PlanHalted
from engine.war_galley.galley_combat.diekplus import beside, lined_up, pass_through_plan
from engine.war_galley.galley_combat.raking import RakeResolved
from engine.war_galley.map_and_galleys.board import OPEN_SEA
from engine.war_galley.map_and_galleys.position import Around, Side, parse_position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from tests.engine.war_galley.combat_support import fleet, gid, of, play, ship, where

MAX, CRUISE = SpeedSide.MAXIMUM, SpeedSide.CRUISE


def line(**mover: object):
    """7.28's example: enemy line abreast 2812-2911, A 2811-2910, 2810-2909; the galley at 2512-2413."""
    mover.setdefault("speed", MAX)
    return fleet(
        ship("G3-1", "2512-2413", **mover),
        ship("R5-1", "2811-2910"),  # A
        ship("R5-2", "2812-2911"),
        ship("R5-3", "2810-2909"),
    )


def test_7_28_passes_through_at_6_mp_and_ends_at_3109_3010() -> None:
    galleys, events, outcome, dice = play("G3-1 max 6: F F X:R5-1:P F F", line(), [6, 6])
    assert where(galleys[gid("G3-1")]) == "3109-3010"
    passed = of(events, PassedThrough)[0]
    assert passed.target == gid("R5-1") and passed.position == parse_position("2910-2811")
    assert outcome.end is PlanEnd.COMPLETED and outcome.spent == 6 and dice.unused == []
    assert galleys[gid("R5-1")].crippled == {Side.PORT}


def test_7_28_with_5_mp_it_cannot_end_clear_so_it_is_illegal() -> None:
    with pytest.raises(IllegalOrder) as caught:
        play("G3-1 max 5: F F X:R5-1:P F", line())
    assert caught.value.rule == "7.25"


def test_the_rake_is_resolved_once_the_galley_stands_clear() -> None:
    _, events, _, _ = play("G3-1 max 6: F F X:R5-1:P F F", line(), [6, 6])
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("DieRolled") > max(i for i, k in enumerate(kinds) if k == "Stepped")


def test_a_pass_through_needs_maximum_speed() -> None:
    with pytest.raises(IllegalOrder) as caught:
        play("G3-1 cruise 4: F F X:R5-1:P", line(speed=CRUISE, maximum=6))
    assert caught.value.rule == "7.24"


def test_the_entry_must_be_straight_ahead() -> None:
    # From 2612-2613 a starboard Bow/Flank move reaches 2711 facing A: lined up, but by turning.
    field = line()
    field[gid("G3-1")] = ship("G3-1", "2612-2613", speed=MAX)
    with pytest.raises(IllegalOrder) as caught:
        play("G3-1 max 5: S X:R5-1:P F F", field)
    assert caught.value.rule == "7.24" and "straight" in str(caught.value)


def test_starting_in_the_bow_hex_is_straight_enough() -> None:
    field = line()
    field[gid("G3-1")] = ship("G3-1", "2711-2612", speed=MAX)
    galleys, *_ = play("G3-1 max 4: X:R5-1:P F F", field, [1, 1])
    assert where(galleys[gid("G3-1")]) == "3109-3010"


def test_only_between_two_galleys_of_a_line() -> None:
    field = line()
    del field[gid("R5-2")], field[gid("R5-3")]
    with pytest.raises(IllegalOrder) as caught:
        play("G3-1 max 6: F F X:R5-1 F F", field)
    assert "regular Rake" in str(caught.value)
    field = line()
    del field[gid("R5-2")]  # port side open now
    with pytest.raises(IllegalOrder):
        play("G3-1 max 6: F F X:R5-1:P F F", field)
    galleys, *_ = play("G3-1 max 6: F F X:R5-1 F F", field, [6, 6])  # the one covered side is taken
    assert galleys[gid("R5-1")].crippled == {Side.STARBOARD}


def test_both_sides_covered_means_naming_one() -> None:
    with pytest.raises(IllegalOrder) as caught:
        play("G3-1 max 6: F F X:R5-1 F F", line())
    assert "both sides" in str(caught.value)


def test_raking_the_galley_beside_instead() -> None:
    galleys, events, _, _ = play("G3-1 max 6: F F X:R5-1:P:R5-2 F F", line(), [6, 6])
    raked = of(events, RakeResolved)[0]
    assert raked.target == gid("R5-2") and not galleys[gid("R5-1")].crippled
    # R5-2 lies on A's port side; A lies on R5-2's starboard side.
    assert raked.side is Side.STARBOARD and galleys[gid("R5-2")].crippled == {Side.STARBOARD}


def test_raking_a_galley_not_beside_the_side_passed_is_refused() -> None:
    with pytest.raises(IllegalOrder):
        play("G3-1 max 6: F F X:R5-1:P:R5-3 F F", line())


def test_geometry_helpers() -> None:
    a = parse_position("2811-2910")
    assert lined_up(parse_position("2711-2612"), a)  # Bow hex, head-on
    assert not lined_up(parse_position("2711-2712"), a)  # Bow hex, pointing elsewhere
    assert not lined_up(parse_position("2911-2912"), a)  # beside it
    covered = beside(line(), line()[gid("R5-1")])
    assert covered == {Side.PORT: [gid("R5-2")], Side.STARBOARD: [gid("R5-3")]}


def test_from_astern_the_stern_hex_heading_the_same_way() -> None:
    # A faces 4 (down-left); its Stern hex is 3010; a galley there facing 4 passes it bow-ward.
    field = line()
    a = parse_position("2811-2910")
    assert a.around(Around.STERN) == parse_position("3010/0").bow
    field[gid("G3-1")] = ship("G3-1", "3010-3109", speed=MAX)
    refusal = pass_through_plan(OPEN_SEA, field, field[gid("G3-1")], gid("R5-1"), Side.PORT)
    assert refusal == (gid("R5-1"), Side.PORT)
    galleys, *_ = play("G3-1 max 4: X:R5-1:P F F", field, [1, 1])
    assert where(galleys[gid("G3-1")]) == "2612-2711"


def test_the_galley_steps_back_if_a_reaction_leaves_it_on_top_of_a_ship() -> None:
    """If a reaction blocks the way out (here a galley beyond rows into it), the Pass-Through cannot have
    happened (7.25): the galley goes back to where it began it, and makes no Rake."""
    field = line()
    blocker = ship("R3-7", "3110-3111")  # avoids forward into 3109 once G3-1 comes adjacent
    field[blocker.id] = blocker
    galleys, events, outcome, dice = play("G3-1 max 6: F F X:R5-1:P F F", field, [1],
                                          red="default: avoid=never\nR3-7: avoid=adjacent by=forward")
    assert where(galleys[gid("R3-7")]) == "3109-3110"
    assert outcome.end is PlanEnd.HALTED and of(events, PlanHalted)
    assert where(galleys[gid("G3-1")]) == "2711-2612" and not of(events, RakeResolved)
    assert dice.unused == []


def test_7_25_the_pass_through_cost_is_the_rules_datas() -> None:
    """A bundle where passing through costs 3 MP: 7.28's 6 MP no longer reach a clear hex."""
    from msgspec.structs import replace

    from engine.dice import ForcedDice
    from engine.war_galley.galley_combat.combat_record import CombatOptions
    from engine.war_galley.galley_combat.execute_plan import execute_plan
    from engine.war_galley.play.orders import parse_combat_order
    from tests.engine.war_galley.combat_support import CHARTS, orders

    own = replace(CHARTS, fixed=replace(CHARTS.fixed, pass_through=replace(CHARTS.fixed.pass_through, mp=3)))
    order = parse_combat_order("G3-1 max 6: F F X:R5-1:P F F")
    with pytest.raises(IllegalOrder, match="0 MP of the 6 announced left"):
        execute_plan(OPEN_SEA, line(), order, own, ForcedDice(6, 6), orders("", ""), CombatOptions())


def test_7_25_the_rake_made_passing_through_is_not_undone_by_avoidance_once_clear() -> None:
    """7.25: the galley rakes "during" its 2 MP through the line; the roll waits only until it stands clear.
    A, whose Bow hex it has just left, may try Avoidance the instant it comes adjacent (6.51), but the oars
    were sheared in passing: the Rake is resolved first, and a Crippled galley may not avoid at all (7.28)."""
    galleys, events, outcome, dice = play("G3-1 max 6: F F X:R5-1:P F F", line(), [6, 6],
                                          red="default: avoid=never\nR5-1: avoid=adjacent by=forward")
    assert galleys[gid("R5-1")].crippled == {Side.PORT} and of(events, RakeResolved)[0].crippled
    assert where(galleys[gid("R5-1")]) == "2811-2910" and dice.unused == []


def test_7_25_a_failed_rake_in_passing_leaves_the_target_free_to_avoid_after() -> None:
    galleys, events, _, dice = play("G3-1 max 6: F F X:R5-1:P F F", line(), [1, 1, 1],
                                    red="default: avoid=never\nR5-1: avoid=adjacent by=forward")
    kinds = [type(e).__name__ for e in events if type(e).__name__ in ("RakeResolved", "Avoided", "RakeMissed")]
    assert kinds == ["RakeResolved", "Avoided"] and dice.unused == []
    assert where(galleys[gid("R5-1")]) == "2711-2811"  # one hex forward, into its Bow hex the galley left


def test_7_25_a_galley_that_runs_aground_clear_of_the_line_still_rakes() -> None:
    """Running aground (6.31) in the hex beyond ends the movement but is clear of every ship: the pass was
    made, so its Rake is rolled (it used to be dropped without a word)."""
    from engine.war_galley.map_and_galleys.board import OPEN_SEA
    from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET

    board = OPEN_SEA.with_land([SINGLE_SHEET.parse("3109")])
    galleys, events, outcome, dice = play("G3-1 max 6: F F X:R5-1:P F F", line(), [6, 6], board=board)
    assert outcome.end is PlanEnd.AGROUND and galleys[gid("G3-1")].aground is not None
    assert of(events, RakeResolved)[0].crippled and galleys[gid("R5-1")].crippled == {Side.PORT}
    assert dice.unused == []
