"""Running plans with combat (engine.war_galley.galley_combat.combat_steps): notation, checks before any die, results, properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import NoDice
from engine.errors import IllegalOrder, NotationError
from engine.war_galley.galley_combat.combat_record import CombatOptions, CombatRecord
from engine.war_galley.galley_combat.combat_steps import (
    Anastrophe,
    PassThrough,
    PlanEnd,
    PlanHalted,
    Rake,
    Ram,
    check_combat_plan,
)
from engine.war_galley.galley_combat.execute_plan import execute_plan
from engine.war_galley.galley_combat.ramming import Retreat
from engine.war_galley.galley_combat.reactions import parse_reactions
from engine.war_galley.map_and_galleys.board import OPEN_SEA
from engine.war_galley.map_and_galleys.galley import Colour, Galley
from engine.war_galley.map_and_galleys.hexes import DIRECTIONS, Hex, direction_to
from engine.war_galley.map_and_galleys.position import Around, Position, Side, format_position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import (
    Leg,
    MarkerRemoved,
    Mover,
    RanAground,
    advance,
    check_plan,
    surroundings,
)
from engine.war_galley.play.orders import (
    format_combat_order,
    format_combat_step,
    parse_combat_order,
    parse_combat_step,
)
from tests.engine.war_galley.combat_support import CHARTS, behind, fleet, gid, of, play, ship, where

MAX, CRUISE = SpeedSide.MAXIMUM, SpeedSide.CRUISE

# --- notation ---


@pytest.mark.parametrize("token", ["R:R5-3", "R:R5-3:BP", "R:R5-3:stay", "K:R5-3", "K:R5-3:S", "X:R5-3",
                                   "X:R5-3:P", "X:R5-3:P:R5-4", "A:R5-3", "A:R5-3:S:BS"])
def test_combat_tokens_round_trip(token: str) -> None:
    step = parse_combat_step(token)
    assert format_combat_step(step) == token
    assert parse_combat_step(format_combat_step(step)) == step


def test_tokens_read_any_case_and_order() -> None:
    assert parse_combat_step("x:r5-3:r5-4:p") == PassThrough(gid("R5-3"), Side.PORT, gid("R5-4"))
    assert parse_combat_step("a:r5-3:stay:s") == Anastrophe(gid("R5-3"), Side.STARBOARD, Retreat.STAY)


@pytest.mark.parametrize("token", ["R:", "R:R5-3:P", "K:R5-3:BP", "R:R5-3:B:B", "X:R5-3:P:S", "Q:R5-3", "K:R5-3:R5-4"])
def test_bad_tokens(token: str) -> None:
    with pytest.raises(NotationError):
        parse_combat_step(token)


def test_whole_orders_round_trip() -> None:
    text = "G3-12 max 6: F F X:R5-3:P F F"
    plan = parse_combat_order(text)
    assert plan.steps[2] == PassThrough(gid("R5-3"), Side.PORT)
    assert format_combat_order(plan) == text
    assert parse_combat_order("G3-12 max 6: 2F R:R5-3 F F F F").steps[:3] == (
        *parse_combat_order("G3-12 max 6: F F").steps, Ram(gid("R5-3")))


# --- the movement registrations ---


def test_movement_knows_the_pass_through_cost_and_refuses_an_anastrophe() -> None:
    mover, target = ship("G3-1", "2711-2612", speed=MAX), ship("R5-1", "2811-2910")
    around = surroundings(OPEN_SEA, [mover, target], mover, charts=CHARTS)
    leg = Leg(mover.position, False, budget=6, announced=6)  # type: ignore[arg-type]
    after = advance(Mover(around, mover), leg, PassThrough(target.id))
    assert not isinstance(after, tuple) and after.spent == 2 and after.position.bow == Hex(29, 10)
    refused = advance(Mover(around, mover), leg, Anastrophe(target.id))
    assert isinstance(refused, tuple) and refused.rule == "7.31"
    rake = advance(Mover(around, mover), leg, Rake(target.id))
    assert rake == leg  # no MP, no movement
    plan = parse_combat_order("G3-1 max 6: A:R5-1")
    with pytest.raises(IllegalOrder):
        check_plan(around, mover, plan)


# --- checked before any die ---


def test_illegal_plans_need_no_dice() -> None:
    field = fleet(ship("G5-1", "3115-3216", fatigue=2), ship("R5-1", "3015-3016"))
    with pytest.raises(IllegalOrder) as caught:
        execute_plan(OPEN_SEA, field, parse_combat_order("G5-1 cruise 0: R:R5-1"), CHARTS, NoDice())
    assert caught.value.rule == "7.13" and "step 1 (ramming R5-1)" in str(caught.value)


def test_the_speed_side_and_announcement_are_checked() -> None:
    field = fleet(ship("G5-1", "3115-3216"), ship("R5-1", "3015-3016", fatigue=1))
    with pytest.raises(IllegalOrder) as caught:
        check_combat_plan(OPEN_SEA, field, parse_combat_order("G5-1 max 6: R:R5-1"), CHARTS)
    assert caught.value.rule == "6.12"
    with pytest.raises(IllegalOrder):
        check_combat_plan(OPEN_SEA, field, parse_combat_order("G5-1 cruise 9: R:R5-1"), CHARTS)
    check_combat_plan(OPEN_SEA, field, parse_combat_order("G5-1 cruise 4: R:R5-1"), CHARTS)


def test_a_ram_after_a_facing_change_is_refused() -> None:
    field = fleet(ship("G5-1", "3115-3116"), ship("R5-1", "3015-3016", fatigue=1))
    with pytest.raises(IllegalOrder) as caught:
        check_combat_plan(OPEN_SEA, field, parse_combat_order("G5-1 cruise 1: TPS R:R5-1"), CHARTS)
    assert caught.value.rule == "7.12"


def test_the_missed_continuation_is_checked_with_the_target_gone() -> None:
    start = behind("3115-3216", 2)
    field = fleet(ship("G5-1", start, speed=MAX), ship("R5-1", "3015-3016"))
    # If R5-1 avoids, G5-1 rows on through where it was: legal only because it has gone.
    check_combat_plan(OPEN_SEA, field, parse_combat_order("G5-1 max 6: F F R:R5-1 F F F F"), CHARTS)
    with pytest.raises(IllegalOrder) as caught:
        check_combat_plan(OPEN_SEA, field, parse_combat_order("G5-1 max 6: F F R:R5-1 F F F"), CHARTS)
    assert caught.value.rule == "6.13"


# --- results and what follows ---


def test_a_galley_that_rams_keeps_its_move_record_and_sheds_its_old_half_speed() -> None:
    field = fleet(ship("G5-1", "3115-3216"), ship("R5-1", "3015-3016", fatigue=1))
    galleys, events, outcome, _ = play("G5-1 cruise 0: R:R5-1", field, [6, 6])
    assert outcome.end is PlanEnd.RAMMED and galleys[gid("G5-1")].moved.announced == 0  # type: ignore[union-attr]
    field = fleet(ship("G5-1", "3118-3119", half_speed=True), ship("R5-1", "1010-1011"))
    galleys, events, *_ = play("G5-1 cruise 2: F F", field)
    assert not galleys[gid("G5-1")].half_speed and of(events, MarkerRemoved)


def test_a_galley_halts_when_an_avoiding_galley_takes_its_next_hex() -> None:
    # RL-1 lies beside G5-1's path; when G5-1 comes adjacent it rows forward into the hex G5-1 needs next.
    field = fleet(ship("G5-1", "3018-3019"), ship("RL-1", "2916/1"))
    galleys, events, outcome, dice = play("G5-1 cruise 3: F F F", field, [1], red="default: avoid=adjacent by=forward")
    halted = of(events, PlanHalted)
    assert outcome.end is PlanEnd.HALTED and halted and halted[0].rule == "6.6"
    assert dice.unused == []


def test_running_aground_ends_the_plan() -> None:
    board = OPEN_SEA.with_land([Hex(30, 16)])
    field = fleet(ship("G5-1", "3018-3019"), ship("R5-1", "1010-1011"))
    galleys, events, outcome, _ = play("G5-1 cruise 3: F F", field, board=board)
    assert outcome.end is PlanEnd.AGROUND and galleys[gid("G5-1")].aground is not None and of(events, RanAground)


# --- properties ---

AREA = [Hex(c, r) for c in range(20, 26) for r in range(10, 16)]
TOKENS = ["F", "P", "S", "B", "BP", "TPS", "TSB", "TA", "R", "K", "X", "A"]
COSTS = {"F": 1, "P": 1, "S": 1, "B": 2, "BP": 2, "TPS": 1, "TSB": 1, "TA": 2, "X": 2}


class RandomDice:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.rolled = 0

    def d6(self, purpose: str) -> int:
        self.rolled += 1
        return self.random.randint(1, 6)

    def two_d6(self, purpose: str) -> int:
        return self.d6(purpose) + self.d6(purpose)


def battlefield(rng: random.Random) -> dict:
    galleys: dict = {}
    taken: set[Hex] = set()
    for number in range(rng.randint(2, 6)):
        colour = "G" if number == 0 else rng.choice("GRR")
        kind = rng.choice(["3", "5", "L"])
        for _ in range(20):
            pos = Position(rng.choice(AREA), rng.choice(DIRECTIONS), kind != "L")
            if not set(pos.hexes) & taken and all(20 <= h.col < 26 and 10 <= h.row < 16 for h in pos.hexes):
                break
        else:
            continue
        taken |= set(pos.hexes)
        g = ship(f"{colour}{kind}-{number + 1}", None, crew=rng.randint(1, 4), asterisk=rng.random() < 0.5,
                 attack=rng.choice([0, 4, 6, 8]), speed=rng.choice([CRUISE, MAX]))
        status = rng.choice([{}, {}, {"fatigue": 2}, {"half_speed": True}, {"crippled": frozenset({Side.PORT})}])
        if g.speed is MAX:
            status = {}
        galleys[g.id] = Galley(**{**{f: getattr(g, f) for f in g.__struct_fields__}, "position": pos, **status})
    return galleys


def random_plan(rng: random.Random, galleys: dict) -> str:
    mover = next(iter(galleys.values()))
    others = [str(g) for g in galleys if g != mover.id] or [str(mover.id)]
    words, mp = [], 0
    for _ in range(rng.randint(0, 6)):
        token = rng.choice(TOKENS)
        if token in "RKXA":
            words.append(f"{token}:{rng.choice(others)}" + rng.choice(["", ":P", ":S"] if token in "XA" else [""]))
        else:
            words.append(token)
        mp += COSTS.get(token, 0)
    speed = "max" if mover.speed is MAX else "cruise"
    return f"{mover.id} {speed} {mp}: {' '.join(words)}"


def distinct_hexes(galleys: dict) -> bool:
    hexes = [h for g in galleys.values() if g.position is not None for h in g.position.hexes]
    return len(hexes) == len(set(hexes))


def staged(rng: random.Random) -> tuple[dict, str]:
    """A battlefield built around one enemy so that the plan's combat step is often legal."""
    target = ship("R5-1", "2213-2214", crew=rng.randint(1, 4), speed=rng.choice([CRUISE, MAX]))
    t = target.position
    assert t is not None
    kind = rng.choice(["R", "K", "X", "A"])
    speed = MAX if kind in "XA" or rng.random() < 0.5 else CRUISE
    if kind == "R":
        where_, side = rng.choice([(h, s) for w, s, h in t.surrounding() if s is not None])
        aim = next(x for x in t.hexes if direction_to(where_, x) is not None)
        mover_pos, combat = Position(where_, direction_to(where_, aim), True), "R:R5-1"  # type: ignore[arg-type]
    elif kind == "K":
        side = rng.choice(list(Side))
        start = t.around(Around.BOW_FLANK, side)
        mover_pos = Position(start, direction_to(start, t.around(Around.FLANK, side)), True)  # type: ignore[arg-type]
        combat = "F K:R5-1"
    else:
        side = rng.choice(list(Side))
        mover_pos, combat = Position(t.around(Around.BOW), t.facing.opposite, True), f"{kind}:R5-1:{side.value[0].upper()}"
    # A galley beside the target: a line abreast for X; a lembus clear of the Turn Around hexes for A;
    # on the far side for K.
    single = kind == "A"
    beside = ship("RL-2" if single else "R5-2", None)
    flank = t.around(Around.FLANK, side.other if kind == "K" else side)
    beside = Galley(**{**{f: getattr(beside, f) for f in beside.__struct_fields__},
                       "position": Position(flank, t.facing, not single)})
    back = rng.randint(0, 2) if kind != "A" else 0
    mover = ship("G3-1", behind(format_position(mover_pos), back), asterisk=True, speed=speed,
                 crew=rng.randint(1, 4))
    galleys = fleet(mover, target, beside)
    if not distinct_hexes(galleys):
        del galleys[beside.id]  # the mover's chosen hex is the one beside: no line abreast this time
    limit = 6 if speed is MAX else 4
    used = back + (1 if kind == "K" else 2 if kind == "X" else 0)
    rest = max(0, rng.randint(limit - 2, limit) - used) if kind != "A" else 0
    words = ["F"] * back + [combat] + ["F"] * rest
    mp = limit if kind == "A" else used + rest
    order = f"G3-1 {'max' if speed is MAX else 'cruise'} {mp}: {' '.join(words)}"
    return galleys, order


def run_random(seed: int) -> tuple[str, int]:
    rng = random.Random(seed)
    if seed % 2:
        galleys, order = staged(rng)
        if not distinct_hexes(galleys):
            return "unplayable", 0
    else:
        galleys = battlefield(rng)
        order = random_plan(rng, galleys)
    reactions = {Colour.RED: parse_reactions(rng.choice(["", "default: avoid=adjacent ram=eligible",
                                                         "default: avoid=ram-position by=back fire=always"])),
                 Colour.GREEN: parse_reactions("")}
    dice = RandomDice(seed)
    options = CombatOptions(defensive_reaction_ram=rng.random() < 0.5)
    try:
        after, events, outcome = execute_plan(OPEN_SEA, galleys, parse_combat_order(order), CHARTS, dice,
                                              reactions, options, record=CombatRecord())
    except IllegalOrder:
        assert dice.rolled == 0, f"{order}: refused after a die was rolled"
        return "refused", 0
    assert distinct_hexes(after), f"{order}: two galleys share a hex"
    return outcome.end.value, dice.rolled


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9))
def test_random_plans_are_refused_before_any_die_or_complete(seed: int) -> None:
    run_random(seed)


def test_random_play_reaches_combat() -> None:
    ends: dict[str, int] = {}
    rolled = 0
    for seed in range(1500):
        end, dice = run_random(seed)
        ends[end] = ends.get(end, 0) + 1
        rolled += dice
    assert ends.get("refused", 0) < 1500 and rolled > 0
    assert ends.get("rammed", 0) > 0 and ends.get("anastrophe", 0) > 0, ends
