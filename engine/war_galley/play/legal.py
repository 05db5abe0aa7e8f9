"""The legal-action generator: `legal(state)` lists decisions the pending side may make.

It is the one source for listings, error messages and random play. Where a
decision has too many forms to list (an activation's plans are a product
over its galleys' end positions; a deployment a product over slots), it
lists a few complete, legal representatives built from the same
generators that validate: the planner's end positions (engine.war_galley.play.planner),
the squadrons' claims (engine.war_galley.turn.command), the slots and zones (engine.war_galley.battles.setup).
Every listed decision passes `apply` and changes the state. The answers to
the pending question come first; after them the orders the side may give
whenever it decides (standing reactions and orders, transfers), which leave
the question pending: a player who keeps to those never gets on, so one who
plays the listing to the end picks an answer. Conceding and proposing a halt
are always open to the side deciding and are not listed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

from engine.errors import IllegalOrder
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.hexes import Hex, neighbours, within
from engine.war_galley.movement.moving import Mover, Surroundings, check_plan, move, surroundings
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.movement.steps import Plan
from engine.war_galley.play import deploy_examples, dispatch, legal_combat, legal_shortcuts
from engine.war_galley.play.planner import Reach, end_positions, every_move_costs
from engine.war_galley.turn import command, scenario_play
from engine.war_galley.turn.activation import allowed, double_options, squadrons_left
from engine.war_galley.turn.commanders import TRANSFER_WHEN, transfer_targets
from engine.war_galley.turn.decisions import (
    AcceptHalt,
    Activate,
    AnyDecision,
    Deploy,
    Double,
    Individual,
    Initiative,
    Speed,
    Squadrons,
    Transfer,
)
from engine.war_galley.turn.sequence import Due, decision_due, speed_choices
from engine.war_galley.turn.state import GameState, PendingActivation, galley_key


def legal(state: GameState) -> list[AnyDecision]:
    return list(each_legal(state))


def each_legal(state: GameState) -> Iterator[AnyDecision]:
    """`legal(state)` one decision at a time, in its order: a caller that takes the first (do-nothing play)
    pays for that one, not for the examples of the shortcuts listed after the plain answers."""
    due = decision_due(state)
    if due is None:
        return
    out: list[AnyDecision] = []

    def put(decisions: Iterable[AnyDecision]) -> Iterator[AnyDecision]:
        for decision in decisions:
            out.append(decision)
            yield decision

    if due.kind == "deploy":
        yield from put(deployments(state, due.side))
    elif due.kind == "squadrons":
        yield from put(squadron_choices(state, due.side))
    elif due.kind == "initiative":
        yield from put([Initiative(side=due.side, first=s.key) for s in state.sides])
    elif due.kind == "speed":
        yield from put(speed_levels(state, due.side))
        yield from put(legal_shortcuts.speed_examples([d for d in out if isinstance(d, Speed)]))
    elif due.kind == "activate":
        yield from put(each_activation(state, due))
        yield from put(legal_shortcuts.board_examples(out))
    elif due.kind == "individual":
        yield from put([Individual(side=due.side, galley=s.galleys[0]) for s in squadrons_left(state, due.side, True)])
        yield from put(legal_shortcuts.individual_examples(state, [d for d in out if isinstance(d, Individual)],
                                                           activations))
    elif due.kind == "board":
        yield from put(legal_combat.boarding_examples(state, due.side))
    if due.kind in ("speed", "deploy"):  # asked for at the set-up (6.5), offered again in phase D
        yield from put(legal_combat.reaction_examples(state, due.side))
    yield from put(legal_shortcuts.standing_examples(state, due.side, due.kind))
    if due.kind in TRANSFER_WHEN and state.current is None:  # 5.51: on his turn in B, D, E or F
        plain = transfers(state, due.side)
        examples = legal_shortcuts.transfer_examples(state, plain, out, dispatch.apply)  # from the answers
        yield from put(plain + examples)
    if state.halt_proposed == state.other(due.side):
        yield from put([AcceptHalt(side=due.side)])


# --- set-up ---------------------------------------------------------------------------------


def deployments(state: GameState, side: str) -> list[Deploy]:
    """Galleys to slots in the book's order and in reverse; zones filled to fit their rules (engine.war_galley.play.deploy_examples)."""
    return deploy_examples.examples(state, side)


# --- phase B and D ----------------------------------------------------------------------------


def squadron_choices(state: GameState, side: str) -> list[Squadrons]:
    """By range alone; each Line Astern on its own; and shared galleys given to their last claimant."""
    out = [command.default_assignment(state, side)]
    for name in command.line_options(state, side):
        out.append(command.default_assignment(state, side, (name,)))
    claims = command.claims(state, side)
    last = tuple((gid, names[-1]) for gid, names in sorted(claims.items(), key=lambda kv: galley_key(kv[0])) if len(names) > 1)
    alternative = Squadrons(side=side, assign=last)
    if alternative not in out:
        out.append(alternative)
    return out


def speed_levels(state: GameState, side: str) -> list[Speed]:
    out = []
    for s in state.squadrons:
        if s.side != side or s.key in state.speed_set:
            continue
        choices = tuple(speed_choices(state, s))
        out.append(Speed(side=side, squadron=s.key))
        if choices:
            out.append(Speed(side=side, squadron=s.key, maximum=choices))
        if len(choices) > 1:
            out.append(Speed(side=side, squadron=s.key, maximum=choices[::2]))
    return out


def transfers(state: GameState, side: str) -> list[Transfer]:
    out = []
    for c in state.commanders_of(side):
        if c.transfer_turn == state.turn:
            continue
        targets = transfer_targets(state, c)
        if targets:
            out.append(Transfer(side=side, commander=c.name, to=targets[0]))
    return out


# --- activations ------------------------------------------------------------------------------


def activations(state: GameState, due: Due) -> list[AnyDecision]:
    return list(each_activation(state, due))


def each_activation(state: GameState, due: Due) -> Iterator[AnyDecision]:
    out: list[AnyDecision] = []
    options = Options(state, due.side)
    for key, also in allowed(state, due.side):
        for variant in range(3):
            decision = scenario_play.with_entries(state, _activation(state, due.side, key, also, variant, options),
                                                  variant)
            if decision not in out and scenario_play.acceptable(state, decision):
                out.append(decision)
                yield decision
    yield from (Double(side=due.side, other=other) for _, other in double_options(state, due.side))


class Options:
    """Each galley's end positions as the activation starts, and how far each hex lies from the enemy.

    Later galleys' plans are tried against the galleys as earlier plans left
    them (`move` refuses a clash), so one planner run per galley serves every variant.
    """

    def __init__(self, state: GameState, side: str) -> None:
        self.state = state
        self.side = side
        self.reaches: dict[GalleyId, list[Reach]] = {}
        enemy = frozenset(h for g in state.galleys if g.position is not None and state.controller(g) != side
                          for h in g.position.hexes)
        self.gap = _gap(state.board, enemy)

    def of(self, galley: Galley) -> list[Reach]:
        if galley.id not in self.reaches:
            around = surroundings(self.state.board, self.state.galleys, galley, self.state.wind, self.state.turn, self.state.charts)
            self.reaches[galley.id] = _end_positions(around, galley)
        return self.reaches[galley.id]

    def nearness(self, reach: Reach) -> int:
        # A plain loop over the counter's one or two hexes: asked some 28,000 times by one listing of Lade's
        # Individual Squadrons (each reach sorted and filtered by it); min() over a generator cost twice this.
        gap, near = self.gap, 999
        for h in reach.position.hexes:
            d = gap.get(h, 999)
            if d < near:
                near = d
        return near


# A galley's end positions by what the planner's search can read (`_horizon`). An Individual Squadrons
# phase lists every galley left at every file, each for both Crew check results (legal_shortcuts), and
# between two listings one galley has moved: the rest find their horizon as it was. What it buys: the
# contract test of every battle runs the planner 5,005 times, not 9,812; tests/engine and tests/board
# take 4:00 of CPU, not 4:55 (2:32 on 2 cores, not 2:59). The board's clicks ask again of one state.
_REACHES: dict[tuple[object, ...], tuple[Board, Charts | None, list[Reach]]] = {}
_REACHES_KEPT = 512  # an entry holds about 75 reaches, some 100 KB


def _end_positions(around: Surroundings, galley: Galley) -> list[Reach]:
    """`end_positions` (read only: the answer is shared); [] if the galley may not move."""
    key = _horizon(around, galley)
    kept = _REACHES.get(key) if key is not None else None
    if kept is not None and kept[0] is around.board and kept[1] is around.charts:
        return kept[2]
    try:
        reaches = end_positions(around, galley)
    except IllegalOrder:
        reaches = []
    if key is not None:
        if len(_REACHES) >= _REACHES_KEPT:
            del _REACHES[next(iter(_REACHES))]  # the oldest: the galleys of listings long past
        _REACHES[key] = (around.board, around.charts, reaches)  # the objects: an id alone may be reused
    return reaches


def _horizon(around: Surroundings, galley: Galley) -> tuple[object, ...] | None:
    """All the planner's search reads: the galley, the board, wind, turn and rules data, and which hexes
    near it another galley fills (6.6) or an enemy stands beside (6.21, 6.35). Every moving step costs at
    least 1 MP (6.32) and moves the counter's hexes at most one hex, so a search within `budget` MP never
    looks further than `budget` + 2 hexes from the bow. None when that bound does not hold (a galley off
    the map, rules data whose steps may cost nothing)."""
    if galley.position is None:
        return None
    mover = Mover(around, galley)
    if not every_move_costs(mover):
        return None
    budget = max(mover.limit(True).mp, mover.limit(False).mp)
    occupied, near = around.occupied, around.enemy_near
    disc = tuple(within(galley.position.bow, max(0, budget) + 2))  # 0.04 ms at radius 10
    filled = tuple(h for h in disc if h in occupied)
    beside = tuple(h for h in disc if h in near)
    return (galley, id(around.board), around.wind, around.turn, id(around.charts), filled, beside)


@lru_cache(maxsize=8)  # the Crew check listing asks it again of each result's state: the galleys stand still
def _gap(board: Board, enemy: frozenset[Hex]) -> dict[Hex, int]:
    """How many hexes each map hex lies from the nearest enemy hex (read only: the answer is shared)."""
    gap: dict[Hex, int] = {h: 0 for h in enemy}
    frontier = list(enemy)
    while frontier:  # breadth-first from every enemy hex at once
        nxt = []
        for h in frontier:
            for n in neighbours(h):
                if n not in gap and board.on_map(n):
                    gap[n] = gap[h] + 1
                    nxt.append(n)
        frontier = nxt
    return gap


def _activation(state: GameState, side: str, key: str, also: str | None, variant: int, options: Options) -> Activate:
    """Variant 0 does nothing; 1 closes on the enemy; 2 spreads over the options."""
    members = [*state.squadron(key).galleys, *(state.squadron(also).galleys if also else ())]
    current = state.current or PendingActivation(())
    confusion = dict(current.confusion)
    sim = state
    plans: list[Plan] = []
    refloat: list[GalleyId] = []
    if variant:
        for n, gid in enumerate(members):
            galley = sim.galley(gid)
            if galley.position is None or sim.controller(galley) != side:  # 8.25: captured since phase B
                continue
            if galley.aground is not None:
                if sim.turn > galley.aground.turn:
                    refloat.append(gid)
                continue
            cap = speed_limit(galley, galley.speed, sim.wind).mp + confusion.get(gid, 0)
            reaches = [r for r in options.of(galley)
                       if (r.ending is None or variant == 2) and r.mp <= max(0, cap) and r.steps]
            around = surroundings(sim.board, sim.galleys, galley, sim.wind, sim.turn, sim.charts)
            for reach in _ordered(sim, options, reaches, variant, n):
                plan = Plan(gid, galley.speed, reach.mp, reach.steps)
                try:
                    if current.restricted and _comes_adjacent(around, galley, plan):
                        continue
                    moved, _ = move(around, galley, plan)
                except IllegalOrder:
                    continue
                sim = sim.with_galley(moved)
                plans.append(plan)
                break
    decision = Activate(side=side, squadron=key, also=also, plans=tuple(plans), refloat=tuple(refloat))
    if variant:  # 1 attacks (rams, rakes ...), 2 skirmishes (fire, grapples, disengages, jettisons)
        decision = legal_combat.enrich(state, decision, members, options.of, options.nearness, confusion, variant)
    return decision


def _ordered(state: GameState, options: Options, reaches: list[Reach], variant: int, n: int) -> list[Reach]:
    if not reaches:
        return []
    if variant == 1:
        return sorted(reaches, key=lambda r: (options.nearness(r), -r.mp))[:5]
    start = (n * 17 + state.turn * 31 + len(reaches)) % len(reaches)
    return (reaches[start:] + reaches[:start])[:5]


def _comes_adjacent(around, galley: Galley, plan: Plan) -> bool:  # type: ignore[no-untyped-def]
    legs = check_plan(around, galley, plan)[1:]
    return any(leg.ended is None and any(h in around.enemy_near for h in leg.position.hexes) for leg in legs)


__all__ = ["Options", "legal", "each_legal", "deployments", "squadron_choices", "speed_levels", "transfers", "activations"]
