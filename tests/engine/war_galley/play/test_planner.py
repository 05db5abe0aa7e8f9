"""The movement planner (engine.war_galley.play.planner), checked against an independent re-reading of the rules.

`Oracle` below is written from geometry.md and rules 6.1-6.37 without using
engine.war_galley.movement.moving: it judges a plan on its own. Hypothesis then draws galleys,
neighbours, land, wind and plans and checks that the engine and the oracle
agree on every plan, that every listed end position is reached by its path,
and (for small budgets) that the planner lists exactly what brute force finds.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.board import OPEN_SEA, Board, Edge
from engine.war_galley.map_and_galleys.galley import Galley
from engine.war_galley.map_and_galleys.hexes import Direction, Hex, distance
from engine.war_galley.map_and_galleys.position import Position, Side, format_position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import Ending, Surroundings, check_plan
from engine.war_galley.movement.speed import Wind
from engine.war_galley.movement.steps import AnyStep, BowFlank, Plan
from engine.war_galley.play.orders import TOKENS, format_order
from engine.war_galley.play.planner import Reach, end_positions, explain, plan_to
from tests.engine.war_galley.movement_support import around, at, galley, where

CRUISE, MAX = SpeedSide.CRUISE, SpeedSide.MAXIMUM

# --- an independent oracle ----------------------------------------------------------

_ODD = {0: (0, -1), 1: (1, 0), 2: (1, 1), 3: (0, 1), 4: (-1, 1), 5: (-1, 0)}
_EVEN = {0: (0, -1), 1: (1, -1), 2: (1, 0), 3: (0, 1), 4: (-1, 0), 5: (-1, -1)}


def nb(h: tuple[int, int], d: int) -> tuple[int, int]:
    dc, dr = (_ODD if h[0] % 2 else _EVEN)[d % 6]
    return h[0] + dc, h[1] + dr


def cells(bow: tuple[int, int], facing: int, double: bool) -> list[tuple[int, int]]:
    return [bow, nb(bow, facing + 3)] if double else [bow]


@dataclass
class Oracle:
    """One galley's world as plain tuples, and the rules as the test reads them."""

    bow: tuple[int, int]
    facing: int
    double: bool
    speed: SpeedSide
    cruise: int
    maximum: int
    tremiola: bool
    sails_up: bool
    fatigue: int
    half: bool
    crippled: frozenset[Side]
    wind: int | None
    land: set[tuple[int, int]]
    others: dict[tuple[int, int], bool]  # hex -> is an enemy
    wet: set[tuple[int, int]] = field(default_factory=set)  # coast: off-map hexes that are land

    def on_map(self, h: tuple[int, int]) -> bool:
        return 10 <= h[0] <= 60 and 0 <= h[1] <= 28

    def limit(self, sails: bool) -> int:
        if self.speed is MAX and (self.fatigue or self.half or self.crippled or (sails and not self.tremiola)):
            return -1  # may not use Maximum at all
        if len(self.crippled) == 2:
            return 0
        mp = self.cruise if self.speed is CRUISE else self.maximum
        if sails and self.wind is not None:
            if self.tremiola:
                mp += 2
            elif self.speed is CRUISE and (self.wind - self.facing) % 6 in (0, 1, 5):
                mp += 1
        caps = [mp]
        if self.crippled:
            caps.append(1)
        if self.half:
            caps.append(math.ceil(self.cruise / 2))
        if self.fatigue:
            caps.append(max(1, self.cruise - self.fatigue))
        return min(caps)

    def enemy_next_to(self, bow: tuple[int, int], facing: int) -> bool:
        mine = cells(bow, facing, self.double)
        return any(self.others.get(nb(h, d)) for h in mine for d in range(6))

    def judge(self, mp: int, steps: list[str]) -> tuple[bool, tuple | None]:
        """(legal?, (bow, facing, ended)) for a plan written in order tokens."""
        bow, facing, sails = self.bow, self.facing, self.sails_up
        spent, started, sail_set, forward, back, ended = 0, False, False, False, False, None
        if self.speed is MAX and self.limit(False) < 0:
            return False, None
        for token in steps:
            if ended:
                return False, None
            sail = token in ("SU", "SD")
            if sail:
                if started or sail_set:
                    return False, None
                if token == "SU" and (sails or self.wind is None or (self.speed is MAX and not self.tremiola)
                                      or self.enemy_next_to(bow, facing)):
                    return False, None
                if token == "SD" and not sails:
                    return False, None
                cost, sails, sail_set = (0 if self.tremiola else 1), token == "SU", True
            elif not started:
                started = True
                if mp > self.limit(sails):
                    return False, None
            if token in ("F", "P", "S"):
                if back or (self.crippled and (token == "F" or {"P": Side.PORT, "S": Side.STARBOARD}[token]
                                                not in self.crippled)):
                    return False, None
                facing = (facing + {"F": 0, "P": -1, "S": 1}[token]) % 6
                bow, cost, forward, entered, end = nb(bow, facing), 1, True, None, "bow"
                entered = bow
            elif token in ("B", "BP", "BS"):
                if self.speed is MAX or self.crippled or forward:
                    return False, None
                heading = (facing + {"B": 3, "BP": 4, "BS": 2}[token]) % 6
                stern = cells(bow, facing, self.double)[-1]
                entered = nb(stern, heading)
                facing = (heading + 3) % 6
                bow = stern if self.double else entered
                cost, back = 2, True
            elif token.startswith("T") and token != "TA":
                side = Side.PORT if token[1] == "P" else Side.STARBOARD
                half = token[2:]
                if self.speed is MAX or sails or back or (self.crippled and side not in self.crippled):
                    return False, None
                if (half == "") == self.double:
                    return False, None
                old_stern = cells(bow, facing, self.double)[-1]
                facing = (facing + (-1 if side is Side.PORT else 1)) % 6
                entered = None
                if half == "S":
                    entered = cells(bow, facing, True)[1]
                elif half == "B":
                    bow = nb(old_stern, facing)
                    entered = bow
                if entered is not None and not self.on_map(entered) and entered not in self.wet:
                    return False, None
                cost, forward = 1, True
            elif token == "TA":
                if self.speed is MAX or sails or back or self.crippled or self.enemy_next_to(bow, facing):
                    return False, None
                stern = cells(bow, facing, self.double)[-1]
                bow, facing, cost, forward, entered = stern, (facing + 3) % 6, 2, True, None
            elif not sail:
                raise AssertionError(token)
            if spent + cost > mp:
                return False, None
            spent += cost
            if not sail and entered is not None:
                if entered in self.land or entered in self.wet:
                    ended = "aground"
                elif not self.on_map(entered):
                    ended = "exited"
                elif entered in self.others:
                    return False, None
        if not started and mp > self.limit(sails):
            return False, None
        if ended is None and spent != mp:
            return False, None
        return True, (bow, facing, ended)


# --- drawing worlds -------------------------------------------------------------------


@dataclass
class World:
    mover: Galley
    others: list[Galley]
    board: Board
    wind: Wind | None
    oracle: Oracle

    @property
    def surroundings(self) -> Surroundings:
        return around(self.mover, self.others, board=self.board, wind=self.wind)


@st.composite
def worlds(draw: st.DrawFn) -> World:
    kind = draw(st.sampled_from(["G5", "G3", "GL", "GTrm"]))
    double = kind in ("G5", "G3")
    near_edge = draw(st.booleans())
    col = draw(st.integers(10, 16) if near_edge else st.integers(25, 35))
    row = draw(st.integers(0, 4) if near_edge else st.integers(8, 20))
    facing = draw(st.sampled_from(list(Direction)))
    position = Position(Hex(col, row), facing, double)
    if double and not (10 <= position.stern.col <= 60 and 0 <= position.stern.row <= 28):
        position = Position(Hex(col, row + 2), facing, double)
        if not (10 <= position.stern.col <= 60 and 0 <= position.stern.row <= 28):
            position = Position(Hex(col + 2, row + 2), facing, double)
    cruise = draw(st.integers(2, 5) if draw(st.integers(0, 3)) else st.integers(1, 5))
    maximum = draw(st.integers(cruise, cruise + 3))
    troubled = draw(st.booleans())  # half the galleys carry no markers at all
    crippled = draw(st.sampled_from([frozenset()] * 3 + [frozenset({s}) for s in Side] + [frozenset(Side)]))
    status = dict(
        fatigue=draw(st.sampled_from([0, 0, 1, 3])) if troubled else 0,
        half_speed=draw(st.booleans()) if troubled else False,
        crippled=crippled if troubled else frozenset(),
        sails_up=draw(st.booleans()) if troubled else False,
    )
    name = f"{kind}-1"
    where_ = format_position(position) if double else f"{col:02d}{position.bow.row:02d}/{int(facing)}"
    mover = galley(name, where_, cruise=cruise, maximum=maximum, **status)
    mover = at(mover, draw(st.sampled_from([CRUISE, MAX])))
    taken = set(position.hexes)
    nearby = [Hex(position.bow.col + dc, position.bow.row + dr) for dc in range(-3, 4) for dr in range(-3, 4)]
    nearby = [h for h in nearby if 10 <= h.col <= 60 and 0 <= h.row <= 28 and h not in taken]
    spots = draw(st.lists(st.sampled_from(nearby), max_size=6, unique=True)) if nearby else []
    others, land = [], set()
    for number, h in enumerate(spots, 2):
        if draw(st.booleans()):
            land.add(h)
        else:
            colour = draw(st.sampled_from("RG"))
            facing_other = draw(st.integers(0, 5))
            others.append(galley(f"{colour}L-{number}", f"{h.col:02d}{h.row:02d}/{facing_other}"))
    board = OPEN_SEA.with_land(land)
    if draw(st.booleans()):
        board = board.with_coast(Edge.TOP)
    wind = draw(st.one_of(st.none(), st.sampled_from(list(Direction)).map(Wind)))
    oracle = Oracle(
        bow=(position.bow.col, position.bow.row),
        facing=int(facing),
        double=double,
        speed=mover.speed,
        cruise=cruise,
        maximum=maximum,
        tremiola=kind == "GTrm",
        sails_up=status["sails_up"],
        fatigue=status["fatigue"],
        half=status["half_speed"],
        crippled=status["crippled"],
        wind=None if wind is None else int(wind.direction),
        land={(h.col, h.row) for h in land},
        others={(o.position.bow.col, o.position.bow.row): o.id.colour is not mover.id.colour
                for o in others if o.position is not None},
        wet={(h.col, h.row) for h in board.land if not board.on_map(h)},
    )
    return World(mover, others, board, wind, oracle)


TOKEN_NAMES = list(TOKENS)
NOMINAL = {token: 2 if token in ("B", "BP", "BS", "TA") else 1 for token in TOKEN_NAMES}


@st.composite
def plans(draw: st.DrawFn) -> tuple[int, list[str]]:
    """Steps, and mostly the MP they nominally cost (so that many plans are legal)."""
    moves = st.sampled_from(["F", "F", "P", "S"])
    tokens = draw(st.lists(st.one_of(moves, moves, st.sampled_from(TOKEN_NAMES)), max_size=8))
    nominal = sum(NOMINAL[t] for t in tokens)
    mp = draw(st.sampled_from([nominal, nominal, nominal, nominal - 1, nominal + 1, max(0, nominal - 2)]))
    return max(0, mp), tokens


def to_plan(world: World, mp: int, tokens: list[str]) -> Plan:
    return Plan(world.mover.id, world.mover.speed, mp, tuple(TOKENS[t] for t in tokens))


def outcome(leg_position: Position, ended: Ending | None) -> tuple:
    return (leg_position.bow.col, leg_position.bow.row), int(leg_position.facing), ended and ended.value


# --- properties -------------------------------------------------------------------------

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(worlds(), plans())
def test_engine_and_oracle_agree_on_every_plan(world: World, drawn: tuple[int, list[str]]) -> None:
    """No illegal plan is accepted, no legal plan refused, and both end in the same place."""
    mp, tokens = drawn
    plan = to_plan(world, mp, tokens)
    legal, end = world.oracle.judge(mp, tokens)
    try:
        legs = check_plan(world.surroundings, world.mover, plan)
    except IllegalOrder as error:
        assert not legal, f"engine refused a legal plan: {format_order(plan)}: {error}"
        assert error.rule and error.rule[0].isdigit() or error.rule in {"Corvus"}
        return
    assert legal, f"engine accepted an illegal plan: {format_order(plan)}"
    last = legs[-1]
    assert outcome(last.position, last.ended) == end


@SETTINGS
@given(worlds(), st.one_of(st.none(), st.integers(0, 8)))
def test_every_listed_end_is_reached_by_its_path(world: World, mp: int | None) -> None:
    try:
        reaches = end_positions(world.surroundings, world.mover, mp=mp)
    except IllegalOrder:
        assert not world.oracle.judge(0, [])[0]  # e.g. Maximum barred: not even standing still
        return
    places = [(r.position, r.ending) for r in reaches]
    assert len(places) == len(set(places))
    for reach in reaches:
        plan = Plan(world.mover.id, world.mover.speed, reach.mp, reach.steps)
        last = check_plan(world.surroundings, world.mover, plan)[-1]
        assert (last.position, last.ended) == (reach.position, reach.ending)
        assert world.oracle.judge(reach.mp, [_token(s) for s in reach.steps])[0]
        assert reach.turns == sum(isinstance(s, BowFlank) for s in reach.steps)
        if mp is not None:
            assert reach.mp == mp or reach.ending is not None


@SETTINGS
@given(worlds(), st.data())
def test_engine_and_oracle_agree_on_near_miss_plans(world: World, data: st.DataObject) -> None:
    """Listed paths with one step changed, dropped or added, or the MP off by one."""
    try:
        reaches = end_positions(world.surroundings, world.mover)
    except IllegalOrder:
        return
    reach = data.draw(st.sampled_from(reaches))
    tokens = [_token(step) for step in reach.steps]
    where_ = data.draw(st.integers(0, len(tokens)))
    change = data.draw(st.sampled_from(["swap", "drop", "add", "mp"]))
    mp = reach.mp
    if change == "swap" and tokens:
        tokens[min(where_, len(tokens) - 1)] = data.draw(st.sampled_from(TOKEN_NAMES))
    elif change == "drop" and tokens:
        del tokens[min(where_, len(tokens) - 1)]
    elif change == "add":
        tokens.insert(where_, data.draw(st.sampled_from(TOKEN_NAMES)))
    else:
        mp = max(0, mp + data.draw(st.sampled_from([-1, 1])))
    plan = to_plan(world, mp, tokens)
    legal, end = world.oracle.judge(mp, tokens)
    error = explain(world.surroundings, world.mover, plan)
    assert (error is None) == legal, f"{format_order(plan)}: engine says {error}, oracle {legal}"
    if legal:
        last = check_plan(world.surroundings, world.mover, plan)[-1]
        assert outcome(last.position, last.ended) == end


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(), st.integers(0, 3))
def test_the_listing_is_exactly_what_brute_force_finds(world: World, mp: int) -> None:
    """Every plan of up to 4 steps, judged by the oracle: the same end positions as listed."""
    found = set()
    for length in range(5):
        for tokens in itertools.product(TOKEN_NAMES, repeat=length):
            legal, end = world.oracle.judge(mp, list(tokens))
            if legal:
                found.add(end)
    try:
        listed = {outcome(r.position, r.ending) for r in end_positions(world.surroundings, world.mover, mp=mp)}
    except IllegalOrder:
        listed = set()
    assert listed == found


def _token(step: AnyStep) -> str:
    return next(token for token, known in TOKENS.items() if known == step)


# --- examples -----------------------------------------------------------------------------


def test_open_sea_cruise_listing_counts() -> None:
    g = galley("G5-1", "3015-3016", cruise=2)
    reaches = end_positions(around(g), g)
    assert [r.mp for r in reaches].count(0) == 1
    one = {where_of(r) for r in reaches if r.mp == 1}
    # 1 MP: forward, two bow/flank hexes, four facing changes
    assert one == {"3014-3015", "3114-3015", "2914-3015", "3015-3115", "3015-2915", "3115-3016", "2915-3016"}


def where_of(reach: Reach) -> str:
    return format_position(reach.position)


def test_listing_for_an_announced_mp_spends_it_all() -> None:
    g = at(galley("G5-1", "3015-3016", maximum=3), MAX)
    reaches = end_positions(around(g), g, mp=3)
    assert reaches and all(r.mp == 3 and len(r.steps) == 3 for r in reaches)
    # at Maximum every step is a move: every bow within three hexes of the start
    assert all(distance(r.position.bow, Hex(30, 15)) <= 3 for r in reaches)


def test_running_aground_is_listed_below_the_announced_mp() -> None:
    board = OPEN_SEA.with_land([Hex(30, 13)])
    g = galley("G5-1", "3015-3016")
    reaches = end_positions(around(g, board=board), g, mp=4)
    grounded = [r for r in reaches if r.ending is Ending.AGROUND]
    assert any(r.mp == 2 and r.position.bow == Hex(30, 13) for r in grounded)


def test_leaving_the_map_is_listed() -> None:
    g = galley("G5-1", "3001-3002")
    reaches = end_positions(around(g), g)
    exits = [r for r in reaches if r.ending is Ending.EXITED]
    assert exits and min(r.mp for r in exits) == 2


def test_at_most_one_turn_for_the_ram_bonus() -> None:
    """7.15: the MP bonus needs a path entering at most one Bow/Flank hex."""
    g = at(galley("G5-1", "3015-3016", maximum=4), MAX)
    every = end_positions(around(g), g, mp=4)
    straightish = end_positions(around(g), g, mp=4, max_turns=1)
    assert all(r.turns <= 1 for r in straightish)
    assert len(straightish) < len(every)
    zigzag = [r for r in every if r.position not in {s.position for s in straightish}]
    assert zigzag and all(r.turns >= 2 for r in zigzag)


def test_a_crowded_line_blocks_paths() -> None:
    line = [galley(f"G5-{n}", f"{c:02d}15-{c:02d}16") for n, c in enumerate(range(26, 35, 2), 2) if c != 30]
    g = at(galley("G5-1", "3015-3016", maximum=3), MAX)
    reaches = end_positions(around(g, line), g)
    occupied = {h for o in line for h in o.position.hexes}  # type: ignore[union-attr]
    assert all(not set(r.position.hexes) & occupied for r in reaches)


def test_plan_to_and_explain() -> None:
    g = galley("G5-1", "2319-2320")
    there = around(g)
    plan = plan_to(there, g, Position(Hex(24, 19), Direction.UP_RIGHT))
    assert plan is not None and format_order(plan) == "G5-1 cruise 1: S"
    assert explain(there, g, plan) is None
    bad = Plan(g.id, CRUISE, 3, plan.steps)
    error = explain(there, g, bad)
    assert error is not None and error.rule == "6.13"
    assert plan_to(there, g, Position(Hex(50, 5), Direction.UP)) is None


def test_immobile_galleys_list_only_where_they_are() -> None:
    g = galley("G5-1", "3015-3016", rammed=True)
    assert [where_of(r) for r in end_positions(around(g), g)] == ["3015-3016"]


def test_off_map_galleys_cannot_be_listed() -> None:
    with pytest.raises(IllegalOrder, match="9.1"):
        g = galley("G5-1", None)
        end_positions(around(g), g)


def test_a_tremiola_under_sail_reaches_ten_mp_at_maximum() -> None:
    """6.25: Maximum 8 and W+2: the fastest galley lists paths of up to 10 MP."""
    trm = at(galley("GTrm-1", "3015/0", cruise=5, maximum=8, sails_up=True), MAX)
    reaches = end_positions(around(trm, wind=Wind(Direction.UP)), trm)
    assert max(r.mp for r in reaches) == 10
    assert Position(Hex(30, 5), Direction.UP, False) in {r.position for r in reaches if r.mp == 10}
