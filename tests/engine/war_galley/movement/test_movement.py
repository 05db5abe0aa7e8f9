"""The movement primitives (6.2, 6.3, 6.6, 6.36, 7.28): each step's rule and refusals."""

from __future__ import annotations

import pytest

from engine.dice import ForcedDice, NoDice
from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.board import OPEN_SEA, Edge
from engine.war_galley.map_and_galleys.charts import RollRange, load_default_charts
from engine.war_galley.map_and_galleys.galley import Aground, Capture, End, Equipment, Removal, parse_galley_id
from engine.war_galley.map_and_galleys.hexes import SINGLE_SHEET, Direction, Hex
from engine.war_galley.map_and_galleys.position import Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.aground import Refloated, Wrecked, extricate, freeing_moves
from engine.war_galley.movement.moving import LeftMap, MarkerRemoved, RanAground, Stepped, check_plan
from engine.war_galley.movement.speed import Wind
from engine.war_galley.movement.steps import Backwater
from engine.war_galley.play.orders import parse_order
from tests.engine.war_galley.movement_support import around, at, galley, run, where

CHARTS = load_default_charts()

CRUISE, MAX = SpeedSide.CRUISE, SpeedSide.MAXIMUM
ASTERN = Wind(Direction.UP)  # for galleys facing UP


def refused(rule: str, order: str, mover, others=(), **kw) -> str:
    """Run an order that must be illegal under `rule`; the message, for further checks."""
    with pytest.raises(IllegalOrder) as caught:
        run(order, mover, others, **kw)
    assert caught.value.rule == rule, str(caught.value)
    return str(caught.value)


def g5(where_: str = "3015-3016", **status):
    return galley("G5-1", where_, **status)


# --- costs and the announced MP (6.13, 6.32) ---


def test_forward_costs_one_mp_and_keeps_facing() -> None:
    moved, events = run("G5-1 cruise 3: F F F", g5())
    assert where(moved) == "3012-3013"
    assert [e.spent for e in events if isinstance(e, Stepped)] == [1, 2, 3]
    assert moved.moved is not None and (moved.moved.announced, moved.moved.spent) == (3, 3)


def test_all_announced_mp_must_be_spent() -> None:
    message = refused("6.13", "G5-1 cruise 3: F F", g5())
    assert "spent 2 of its 3 announced MP" in message


def test_no_more_than_the_announced_mp() -> None:
    message = refused("6.13", "G5-1 cruise 2: F F F", g5())
    assert "step 3" in message


def test_announcing_beyond_the_speed_rating_is_refused() -> None:
    message = refused("6.11", "G5-1 cruise 5: F F F F F", g5(cruise=4))
    assert "5 MP announced" in message


def test_zero_mp_is_a_legal_announcement() -> None:
    moved, events = run("G5-1 cruise 0:", g5())
    assert where(moved) == "3015-3016" and events == []


def test_the_plan_must_be_at_the_side_chosen_in_phase_d() -> None:
    refused("6.12", "G5-1 max 2: F F", g5())
    with pytest.raises(IllegalOrder):
        check_plan(around(g5()), g5(), parse_order("G5-2 cruise 0:"))


def test_maximum_speed_moves_and_bars_maneuvers() -> None:
    g = at(g5(), MAX)
    assert where(run("G5-1 max 6: F F S F F P", g)[0]) == "3310-3311"
    refused("6.33", "G5-1 max 2: B", g)
    refused("6.34", "G5-1 max 1: TPS", g)
    refused("6.35", "G5-1 max 2: TA", g)


def test_maximum_speed_barred_statuses_refuse_the_plan() -> None:
    refused("6.44", "G5-1 max 1: F", at(g5(fatigue=1), MAX))
    refused("8.25", "G5-1 max 1: F", at(g5(capture=Capture.CAPTURED), MAX))
    refused("Corvus", "G5-1 max 1: F", at(g5(equipment=Equipment(corvus=True)), MAX))


# --- Backwater (6.33) ---


def test_backwater_costs_two_mp_per_hex() -> None:
    moved, _ = run("G5-1 cruise 4: B B", g5())
    assert where(moved) == "3017-3018"
    refused("6.13", "G5-1 cruise 3: B B", g5())


def test_backwater_excludes_forward_motion_and_facing_change_both_ways() -> None:
    refused("6.33", "G5-1 cruise 3: B F", g5())
    refused("6.33", "G5-1 cruise 3: F B", g5())
    refused("6.33", "G5-1 cruise 3: B TPS", g5())
    refused("6.33", "G5-1 cruise 3: TPS B", g5())
    refused("6.33", "G5-1 cruise 4: B TA", g5())


def test_backwater_changes_direction_through_a_stern_flank_hex() -> None:
    moved, _ = run("G5-1 cruise 4: BP BS", g5())
    assert moved.position is not None and moved.position.facing is Direction.UP
    assert moved.moved is not None and moved.moved.backwatered


# --- Facing Change (6.34) and Turn Around (6.35) ---


def test_facing_change_costs_one_mp_a_hexside() -> None:
    moved, _ = run("G5-1 cruise 3: TSS TSS TSS", g5())
    assert where(moved) == "3015-3014"  # bow stays; turned right round
    assert moved.moved is not None and moved.moved.faced


def test_single_counters_turn_in_place() -> None:
    lembus = galley("RL-1", "3015/0")
    assert where(run("RL-1 cruise 2: TS TS", lembus)[0]) == "3015/2"
    refused("6.34", "RL-1 cruise 1: TSB", lembus)
    refused("6.34", "G5-1 cruise 1: TS", g5())  # a double counter must say which half swings


def test_no_facing_change_under_sail() -> None:
    refused("6.34", "G5-1 cruise 1: TPS", g5(sails_up=True), wind=ASTERN)
    refused("6.35", "G5-1 cruise 2: TA", g5(sails_up=True), wind=ASTERN)


def test_a_facing_change_may_not_swing_into_an_occupied_hex() -> None:
    blocker = galley("G5-2", "3115-3116")  # where the bow would swing to starboard
    g = g5()
    refused("6.6", "G5-1 cruise 1: TSB", g, [blocker])
    assert where(run("G5-1 cruise 1: TPB", g, [blocker])[0]) == "2915-3016"


def test_turn_around_needs_no_enemy_adjacent() -> None:
    g = g5()
    enemy = galley("R5-1", "3116-3117")  # next to the stern
    friend = galley("G5-2", "3116-3117")
    refused("6.35", "G5-1 cruise 2: TA", g, [enemy])
    assert where(run("G5-1 cruise 2: TA", g, [friend])[0]) == "3016-3015"


def test_a_captured_galley_is_an_enemy_of_its_old_side() -> None:
    """Adjacency counts the side that controls a galley (8.25)."""
    taken = galley("G5-2", "3116-3117", capture=Capture.CAPTURED)
    refused("6.35", "G5-1 cruise 2: TA", g5(), [taken])


# --- sails (6.21-6.25) ---


def test_raising_sails_costs_one_mp_and_then_adds_one() -> None:
    g = g5(cruise=4)
    moved, _ = run("G5-1 cruise 5: SU F F F F", g, wind=ASTERN)
    assert moved.sails_up and where(moved) == "3011-3012"


def test_sails_only_before_movement() -> None:
    refused("6.21", "G5-1 cruise 2: F SU", g5(), wind=ASTERN)
    refused("6.21", "G5-1 cruise 2: SU SD", g5(), wind=ASTERN)


def test_no_raising_sails_next_to_an_enemy_but_lowering_is_allowed() -> None:
    enemy = [galley("R5-1", "2915-2916")]
    refused("6.21", "G5-1 cruise 1: SU", g5(), enemy, wind=ASTERN)
    lowered, _ = run("G5-1 cruise 1: SD", g5(sails_up=True), enemy, wind=ASTERN)
    assert not lowered.sails_up


@pytest.mark.parametrize(
    "status, wind, rule",
    [
        ({"masts_lost": True}, ASTERN, "6.22"),
        ({"equipment": Equipment(sails=False)}, ASTERN, "6.21"),
        ({}, None, "6.2"),
        ({"sails_up": True}, ASTERN, "6.21"),
    ],
)
def test_who_may_not_raise_sails(status: dict[str, object], wind: Wind | None, rule: str) -> None:
    refused(rule, "G5-1 cruise 1: SU", g5(**status), wind=wind)


def test_no_sails_at_maximum_speed() -> None:
    refused("6.22", "G5-1 max 1: SU", at(g5(), MAX), wind=ASTERN)
    refused("6.22", "G5-1 max 1: F", at(g5(sails_up=True), MAX), wind=ASTERN)


def test_tremiola_sails_cost_nothing_and_work_at_maximum() -> None:
    """6.25: raise or lower at no MP cost before moving; W+2 on either side."""
    trm = at(galley("GTrm-1", "3015/0", cruise=4, maximum=6), MAX)
    moved, _ = run("GTrm-1 max 8: SU F F F F F F F F", trm, wind=Wind(Direction.DOWN))
    assert moved.sails_up and where(moved) == "3007/0"
    refused("6.11", "GTrm-1 max 7: SD F F F F F F F", at(galley("GTrm-1", "3015/0", sails_up=True), MAX),
            wind=ASTERN)


def test_a_galley_under_sail_may_still_backwater() -> None:
    moved, _ = run("G5-1 cruise 2: B", g5(sails_up=True), wind=ASTERN)
    assert where(moved) == "3016-3017"


# --- stacking (6.6) ---


def test_one_counter_per_hex() -> None:
    message = refused("6.6", "G5-1 cruise 2: F F", g5(), [galley("R5-1", "3013/0")])
    assert "3013 is occupied by R5-1" in message


def test_a_galley_may_move_into_the_hex_its_own_stern_leaves() -> None:
    assert where(run("G5-1 cruise 4: B B", g5())[0]) == "3017-3018"


# --- land, coast and the map edge (6.31, 6.36, 9.1) ---


def test_entering_land_runs_aground_and_ends_the_obligation() -> None:
    board = OPEN_SEA.with_land([Hex(30, 13)])
    moved, events = run("G5-1 cruise 4: F F", g5(), board=board, turn=3)
    assert where(moved) == "3013-3014"
    assert moved.aground == Aground(End.BOW, 3)
    assert [e for e in events if isinstance(e, RanAground)][0].hex == Hex(30, 13)
    refused("6.13", "G5-1 cruise 4: F F F", g5(), board=board)


def test_backwatering_onto_land_strikes_stern_first() -> None:
    board = OPEN_SEA.with_land([Hex(30, 17)])
    moved, _ = run("G5-1 cruise 4: B", g5(), board=board)
    assert moved.aground is not None and moved.aground.end is End.STERN


def test_a_coastal_map_edge_is_land_beyond_it() -> None:
    board = OPEN_SEA.with_coast(Edge.TOP)
    g = galley("G5-1", "3001-3002")
    moved, events = run("G5-1 cruise 3: F F", g, board=board)
    assert moved.aground is not None and moved.position is not None
    assert moved.position.bow == Hex(30, -1)
    assert any(isinstance(e, RanAground) for e in events)


def test_leaving_the_map_is_for_good() -> None:
    g = galley("G5-1", "3001-3002")
    moved, events = run("G5-1 cruise 4: F F", g)
    assert moved.position is None and moved.removed is Removal.EXITED
    assert any(isinstance(e, LeftMap) for e in events)
    message = refused("9.1", "G5-1 cruise 1: F", moved)
    assert "never return" in message


def test_a_facing_change_does_not_leave_the_map() -> None:
    refused("6.34", "G5-1 cruise 1: TSB", galley("G5-1", "6015-6016"))


# --- immobile and crippled galleys (6.37, 7.28) ---

OTHER = frozenset({parse_galley_id("R5-9")})


@pytest.mark.parametrize(
    "status", [{"rammed": True}, {"fouled_with": OTHER}, {"grappled_with": OTHER}, {"aground": Aground(End.BOW, 1)}]
)
def test_rammed_fouled_grappled_and_aground_galleys_may_not_move(status: dict[str, object]) -> None:
    refused("6.37", "G5-1 cruise 1: F", g5(**status))
    assert run("G5-1 cruise 0:", g5(**status))[0].position == g5().position


def test_a_crippled_galley_moves_one_hex_toward_its_marker() -> None:
    crippled = g5(crippled=frozenset({Side.STARBOARD}))
    assert where(run("G5-1 cruise 1: S", crippled)[0]) == "3114-3015"
    assert where(run("G5-1 cruise 1: TSS", crippled)[0]) == "3015-2915"
    refused("6.37", "G5-1 cruise 1: F", crippled)
    refused("6.37", "G5-1 cruise 1: P", crippled)
    refused("7.28", "G5-1 cruise 1: TPS", crippled)
    refused("7.28", "G5-1 cruise 2: S S", crippled)


def test_a_galley_crippled_on_both_sides_cannot_move() -> None:
    refused("7.28", "G5-1 cruise 1: S", g5(crippled=frozenset(Side)))


def test_half_speed_marker_goes_after_the_next_movement() -> None:
    moved, events = run("G5-1 cruise 2: F F", g5(half_speed=True))
    assert not moved.half_speed
    assert any(isinstance(e, MarkerRemoved) and e.rule == "6.37" for e in events)


# --- getting off the land (6.36) ---


def grounded(**status):
    board = OPEN_SEA.with_land([Hex(30, 13)])
    g = galley("G5-1", "3013-3014", crew=3, aground=Aground(End.BOW, 1), **status)
    return g, around(g, board=board, turn=2)


def test_a_roll_at_most_the_crew_frees_the_galley_and_it_backwaters() -> None:
    g, there = grounded()
    freed, events = extricate(there, g, CHARTS, ForcedDice(3))
    assert freed.aground is None and where(freed) == "3014-3015"
    assert any(isinstance(e, Refloated) for e in events)


def test_a_six_leaves_it_stuck_for_good() -> None:
    g, there = grounded()
    wreck, events = extricate(there, g, CHARTS, ForcedDice(6))
    assert wreck.position is None and wreck.removed is Removal.STUCK
    assert any(isinstance(e, Wrecked) for e in events)


def test_other_rolls_leave_it_aground() -> None:
    g, there = grounded()
    still, events = extricate(there, g, CHARTS, ForcedDice(5))
    assert still == g and len(events) == 1


def test_a_captured_galley_never_frees_itself() -> None:
    """Crew 0 (8.25): no roll is at most 0."""
    g, there = grounded(capture=Capture.CAPTURED)
    assert extricate(there, g, CHARTS, ForcedDice(1))[0].aground is not None


def test_no_attempt_in_the_turn_it_ran_aground() -> None:
    g, there = grounded()
    with pytest.raises(IllegalOrder, match="6.36"):
        extricate(around(g, turn=1), g, CHARTS, NoDice())
    with pytest.raises(IllegalOrder, match="6.36"):
        extricate(there, g5(), CHARTS, NoDice())


def test_6_36_the_aground_numbers_are_the_rules_datas() -> None:
    """A bundle whose Run Aground line says a 5 eliminates (and Crew is still the check) is honoured."""
    from msgspec.structs import replace

    g, there = grounded()
    own = replace(CHARTS, fixed=replace(CHARTS.fixed, run_aground=replace(
        CHARTS.fixed.run_aground, eliminated=RollRange(5, 6))))
    wreck, events = extricate(there, g, own, ForcedDice(5))
    assert wreck.removed is Removal.STUCK and any(isinstance(e, Wrecked) for e in events)


def test_6_32_the_movement_costs_are_the_rules_datas() -> None:
    """A bundle whose 6.32 line says Backwater costs 3 and Turn Around 1, and whose sails cost 2, is honoured."""
    from msgspec.structs import replace

    from engine.war_galley.map_and_galleys.board import OPEN_SEA
    from engine.war_galley.movement.moving import move, surroundings

    fixed = CHARTS.fixed
    own = replace(CHARTS, fixed=replace(fixed, movement=replace(fixed.movement, backwater=3, turn_around=1),
                                        sails=replace(fixed.sails, raise_=2)))
    g = g5()

    def spent(order: str) -> int:
        moved, _ = move(surroundings(OPEN_SEA, [g], g, ASTERN, 1, own), g, parse_order(order))
        assert moved.moved is not None
        return moved.moved.spent

    assert (spent("G5-1 cruise 3: B"), spent("G5-1 cruise 1: TA"), spent("G5-1 cruise 2: SU")) == (3, 1, 2)
    with pytest.raises(IllegalOrder, match="costs 3 MP"):
        move(surroundings(OPEN_SEA, [g], g, None, 1, own), g, parse_order("G5-1 cruise 2: B"))


def test_the_player_chooses_a_free_backwater_hex() -> None:
    g, there = grounded()
    freed, _ = extricate(there, g, CHARTS, ForcedDice(1), Backwater(Side.PORT))
    assert freed.position is not None and freed.position.bow == Hex(30, 14)
    blocked = around(g, [galley("R5-2", "3015/0")], turn=2)
    assert [step for step, _ in freeing_moves(blocked, g)] == [Backwater(Side.PORT), Backwater(Side.STARBOARD)]
    with pytest.raises(IllegalOrder, match="6.36"):
        extricate(blocked, g, CHARTS, NoDice(), Backwater())


def test_stern_first_grounding_frees_bow_first() -> None:
    g = galley("G5-1", "3015-3016", aground=Aground(End.STERN, 1))
    freed, _ = extricate(around(g, turn=2), g, CHARTS, ForcedDice(2))
    assert where(freed) == "3014-3015"


def test_off_a_coast() -> None:
    board = OPEN_SEA.with_coast(Edge.TOP)
    g = galley("G5-1", "3001-3002")
    stuck, _ = run("G5-1 cruise 2: F F", g, board=board)
    freed, _ = extricate(around(stuck, board=board, turn=2), stuck, CHARTS, ForcedDice(1))
    assert freed.position is not None and freed.position.bow == Hex(30, 0)
    assert SINGLE_SHEET.contains(freed.position.bow)
