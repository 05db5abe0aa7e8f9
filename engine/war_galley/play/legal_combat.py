"""Examples of combat for `legal()`: rams, rakes, Pass-Throughs, Anastrophes, Jettisons, fire, grapples,
disengages, boarding parties and standing reaction orders, built from the rules' own checks.

An activation has too many forms to list, so `legal()` lists a few complete
representatives (engine.war_galley.play.legal). `enrich` turns one of them into an attacking
one, galley by galley, on the battlefield as the earlier galleys' orders
would leave it (engine.war_galley.turn.movement_segment's prediction): each galley takes the
first combat plan the rules accept (an Anastrophe, a Ram, a Pass-Through, a
Rake, in that order, built from its planner end positions), else its plan as
given (the skirmishing variant: a galley at Maximum passes through a line
raking the galley beside the one passed, 7.25, if it can); then the first
Missile Fire and the first grapple the rules allow.
The result is checked whole (engine.war_galley.turn.activation.check_activate); a part
that fails is dropped, so every listed decision passes `apply`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.anastrophe import anastrophe_refusal
from engine.war_galley.galley_combat.combat_steps import check_combat_plan, plan_positions
from engine.war_galley.galley_combat.diekplus import beside
from engine.war_galley.galley_combat.raking import rake_pass
from engine.war_galley.galley_combat.reactions import (
    AvoidBy,
    AvoidWhen,
    FireReaction,
    MissileChoice,
    RamReaction,
    Reaction,
    ReactionOrders,
)
from engine.war_galley.manpower_combat.battlefield import Field, enemies
from engine.war_galley.manpower_combat.devices import firepot_armed, flame_capable
from engine.war_galley.manpower_combat.grappling import grapple_options
from engine.war_galley.manpower_combat.manpower_orders import BoardingParty, FireOrder, GrappleOrder, Shot
from engine.war_galley.manpower_combat.missiles import FireTiming, check_fire
from engine.war_galley.manpower_combat.towers import towered
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex, distance, neighbour
from engine.war_galley.map_and_galleys.position import Position, Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.leg import Leg, Mover, Refused, begin, surroundings
from engine.war_galley.movement.moving import advance
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.movement.steps import (
    Anastrophe,
    BowFlank,
    Forward,
    JettisonTowers,
    PassThrough,
    Plan,
    Rake,
    Ram,
)
from engine.war_galley.play.planner import Reach
from engine.war_galley.turn import boarding_segment
from engine.war_galley.turn import movement_segment as segment
from engine.war_galley.turn.decisions import Activate, Boarding, Missiles, Reactions
from engine.war_galley.turn.state import GameState

Reaches = Callable[[Galley], list[Reach]]
Nearness = Callable[[Reach], int]  # hexes from the nearest enemy (engine.war_galley.play.legal's breadth-first gaps)
_SCAN = 40  # end positions looked at per galley, nearest the enemy first


# --- standing reaction orders ----------------------------------------------------------------

BOLD = ReactionOrders(Reaction(avoid=AvoidWhen.RAM_POSITION, by=AvoidBy.AWAY, ram=RamReaction.ELIGIBLE,
                               fire=FireReaction.ALWAYS))
WARY = ReactionOrders(Reaction(avoid=AvoidWhen.ADJACENT, by=AvoidBy.AWAY, ram=RamReaction.NEVER,
                               fire=FireReaction.ATTACKED))


def reaction_examples(state: GameState, side: str) -> list[Reactions]:
    """Two sets of standing orders: bold (avoid a ram, ram back where 6.7 is in use, always fire back, with
    Flame Missiles where the side has Flame-capable galleys, 8.44) and wary."""
    now = dict(state.reactions).get(side)
    bold = BOLD if state.combat_options().defensive_reaction_ram else \
        ReactionOrders(replace(BOLD.default, ram=None))  # 6.7 is optional: no ram=eligible without it
    if any(state.controller(g) == side and flame_capable(state.devices, g) for g in state.galleys):
        bold = ReactionOrders(replace(bold.default, missiles=MissileChoice.FLAME))
    return [Reactions(side=side, orders=o) for o in (bold, WARY) if o != now]


# --- boarding ---------------------------------------------------------------------------------


def boarding_examples(state: GameState, side: str) -> list[Boarding]:
    """No boarding; every boarder at its first target with all its M; a split where one can split."""
    out = [Boarding(side=side)]
    galleys = boarding_segment.boarders(state, state.boarders)
    whole = tuple(BoardingParty(g.id, boarding_segment.targets(state, g)[0].id) for g in galleys)
    split: list[BoardingParty] = []
    for g in galleys:
        targets = boarding_segment.targets(state, g)
        if len(targets) > 1 and g.manpower >= 2:
            split += [BoardingParty(g.id, targets[0].id, 1), BoardingParty(g.id, targets[1].id, g.manpower - 1)]
        else:
            split.append(BoardingParty(g.id, targets[0].id))
    for parties in (whole, tuple(split)):
        decision = Boarding(side=side, parties=parties)
        if parties and decision not in out:
            try:
                boarding_segment.check(state, decision)
            except IllegalOrder:
                continue
            out.append(decision)
    return out


# --- activations ------------------------------------------------------------------------------


def _walk(state: GameState, field: Mapping[GalleyId, Galley], plan: Plan) -> list[Leg]:
    """The galley's progress after each step of a movement-only plan (start first)."""
    galley = field[plan.galley]
    mover = Mover(surroundings(state.board, field.values(), galley, state.wind, state.turn, state.charts), galley)
    leg = begin(mover, plan.mp)
    if isinstance(leg, Refused):
        return []
    legs = [leg]
    for step in plan.steps:
        after = advance(mover, leg, step)
        if isinstance(after, Refused):
            return []
        legs.append(after)
        leg = after
    return legs


def _legal(state: GameState, field: Mapping[GalleyId, Galley], plan: Plan) -> bool:
    try:
        check_combat_plan(state.board, field, plan, state.charts, state.combat_options(), state.record)
    except IllegalOrder:
        return False
    return True


def _occupant(field: Mapping[GalleyId, Galley]) -> dict[Hex, Galley]:
    return {h: g for g in field.values() if g.position is not None for h in g.position.hexes}


class _Attack:
    """Combat plans for one galley on a predicted battlefield."""

    def __init__(self, state: GameState, field: Mapping[GalleyId, Galley], galley: Galley,
                 reaches: list[Reach], nearness: Nearness, cap: int) -> None:
        self.state, self.field, self.galley, self.cap = state, field, galley, cap
        assert galley.position is not None
        self.foes = [g for g in field.values() if g.position is not None and enemies(galley, g)
                     and _apart(galley, g) <= cap + 3]
        near = [r for r in reaches if r.ending is None and r.mp <= cap and nearness(r) <= 1]
        self.reaches = sorted(near, key=lambda r: (nearness(r), -r.mp))[:_SCAN]
        self.occupied = _occupant(field)

    def plans(self) -> Iterable[Plan]:
        if not self.foes:
            return
        yield from self.anastrophes()
        yield from self.rams()
        yield from self.pass_throughs()
        yield from self.rakes()

    def anastrophes(self) -> Iterable[Plan]:
        g = self.galley
        if g.speed is not SpeedSide.MAXIMUM or not g.ratings.maximum.anastrophe:
            return
        limit = speed_limit(g, SpeedSide.MAXIMUM, self.state.wind).mp
        for foe in self.foes:
            for side in (None, *Side):
                route = anastrophe_refusal(self.state.board, self.field, g, foe.id, self.state.charts,
                                           self.state.record, side=side, announced=limit,
                                           options=self.state.combat_options())
                if not isinstance(route, Refused):
                    yield Plan(g.id, g.speed, limit, (Anastrophe(foe.id, side),))
                    break

    def _ahead(self, position: Position) -> Galley | None:
        found = self.occupied.get(neighbour(position.bow, position.facing))
        return found if found is not None and enemies(self.galley, found) else None

    def rams(self) -> Iterable[Plan]:
        g = self.galley
        assert g.position is not None
        foe = self._ahead(g.position)
        if foe is not None:
            yield Plan(g.id, g.speed, 0, (Ram(foe.id),))
        for reach in self.reaches:
            foe = self._ahead(reach.position)
            if foe is not None:
                yield Plan(g.id, g.speed, reach.mp, (*reach.steps, Ram(foe.id)))

    def pass_throughs(self, beside_only: bool = False) -> Iterable[Plan]:
        """7.24-7.25: through the foe ahead; the side passed is named, since the Diekplus's own case, a galley
        inside a line abreast (7.28's example), has galleys on both sides and is refused without one.
        Then raking the galley beside instead (7.25 "either galley"); `beside_only`: only those."""
        g = self.galley
        if g.speed is not SpeedSide.MAXIMUM:
            return
        cost = self.state.charts.fixed.pass_through.mp  # 7.25
        lines: dict[GalleyId, dict[Side, list[GalleyId]]] = {}  # the galleys beside each foe passed
        for reach in self.reaches[:10]:
            legs = _walk(self.state, self.field, Plan(g.id, g.speed, reach.mp, reach.steps))
            for index, leg in enumerate(legs):
                foe = self._ahead(leg.position)
                if foe is None:
                    continue
                for extra in range(3):
                    mp = leg.spent + cost + extra
                    if mp > self.cap:
                        continue
                    for side in () if beside_only else (None, *Side):
                        yield Plan(g.id, g.speed, mp,
                                   (*reach.steps[:index], PassThrough(foe.id, side), *[Forward()] * extra))
                    if foe.id not in lines:
                        lines[foe.id] = beside(self.field, foe)
                    for side, others in lines[foe.id].items():
                        for other in others:
                            yield Plan(g.id, g.speed, mp, (*reach.steps[:index], PassThrough(foe.id, side, other),
                                                           *[Forward()] * extra))

    def rakes(self) -> Iterable[Plan]:
        g = self.galley
        for reach in self.reaches[:15]:
            legs = _walk(self.state, self.field, Plan(g.id, g.speed, reach.mp, reach.steps))
            for index, step in enumerate(reach.steps):
                if not isinstance(step, (Forward, BowFlank)) or index + 1 >= len(legs):
                    continue
                for foe in self.foes:
                    assert foe.position is not None
                    if rake_pass(legs[index].position, legs[index + 1].position, foe.position) is not None:
                        steps = (*reach.steps[: index + 1], Rake(foe.id), *reach.steps[index + 1:])
                        yield Plan(g.id, g.speed, reach.mp, steps)


def _apart(a: Galley, b: Galley) -> int:
    assert a.position is not None and b.position is not None
    return _gap_between(a.position, b.position)


@lru_cache(maxsize=1 << 16)  # asked of every pair of galleys per member galley; positions are frozen values
def _gap_between(a: Position, b: Position) -> int:
    return min(distance(x, y) for x in a.hexes for y in b.hexes)


def _fire(state: GameState, field: Mapping[GalleyId, Galley], galley: Galley, timing: FireTiming,
          split: bool, flame: bool = False) -> FireOrder | None:
    """The first fire the rules allow from where the galley stands (a split where it can, if asked; Flame
    Missiles at a target they reach, if asked and the galley may fire them, 8.51-8.52)."""
    battle = Field(state.board, field, state.charts, state.devices)
    rammed_by = state.rammers(galley.id)
    kinds = (True, False) if flame and flame_capable(state.devices, galley) else (False,)
    hits: list[tuple[GalleyId, bool]] = []
    foes = (g for g in field.values() if g.position is not None and enemies(galley, g) and _apart(galley, g) <= 2)
    for foe in sorted(foes, key=lambda g: str(g.id)):
        for use_flame in kinds:
            order = FireOrder(galley.id, (Shot(foe.id, flame=use_flame),))
            try:
                check_fire(battle, order, timing, already_fired=galley.id in state.fired, rammed_by=rammed_by)
            except IllegalOrder:
                continue
            hits.append((foe.id, use_flame))
            break
    if not hits:
        return None
    if split and len(hits) > 1 and galley.manpower >= 2 and timing is FireTiming.AFTER_MOVEMENT:
        (first, f1), (second, f2) = hits[:2]
        return FireOrder(galley.id, (Shot(first, 1, f1), Shot(second, galley.manpower - 1, f2)))
    return FireOrder(galley.id, (Shot(hits[0][0], flame=hits[0][1]),))


def enrich(state: GameState, decision: Activate, members: list[GalleyId], reaches: Reaches, nearness: Nearness,
           confusion: Mapping[GalleyId, int], variant: int) -> Activate:
    """`decision` with combat added (module docstring); variant 1 attacks, 2 skirmishes (no rams)."""
    field = {g.id: g for g in state.galleys}
    given = {p.galley: p for p in decision.plans}
    plans: list[Plan] = []
    fire: list[Missiles] = []
    grapple: list[GrappleOrder] = []
    disengage: list[GalleyId] = []
    firepots: list[GalleyId] = []
    tried = set(state.grapple_tried)
    retracted = state.retracted
    for n, gid in enumerate(members):
        galley = field[gid]
        if galley.position is None or state.controller(galley) != decision.side or gid in decision.refloat:
            continue
        plan = given.get(gid)
        if galley.grappled_with and variant == 2 and not galley.fouled_with and not galley.rammed:
            disengage.append(gid)
            segment.cut_grapples(field, gid)
            galley, plan = field[gid], None
        cap = max(0, speed_limit(galley, galley.speed, state.wind).mp + confusion.get(gid, 0))
        if variant == 1 and not galley.grappled_with:
            attack = _Attack(state, field, galley, reaches(galley), nearness, cap)
            plan = next((p for p in attack.plans() if _legal(state, field, p)), plan)
        elif variant == 2 and galley.speed is SpeedSide.MAXIMUM and not galley.grappled_with:
            # the skirmish rakes: through a line, raking the galley beside the one passed (7.25)
            attack = _Attack(state, field, galley, reaches(galley), nearness, cap)
            plan = next((p for p in attack.pass_throughs(beside_only=True) if _legal(state, field, p)), plan)
        cost = state.charts.fixed.towers.jettison_mp  # 8.48
        if plan is not None and variant == 2 and towered(galley) and plan.mp + cost <= cap:
            jettison = Plan(gid, plan.speed, plan.mp + cost, (JettisonTowers(), *plan.steps))
            plan = jettison if _legal(state, field, jettison) else plan
        if plan is not None and not _legal(state, field, plan):
            plan = None
        early = None
        if plan is not None and (n + state.turn) % 2 == 0:
            early = _fire(state, field, galley, FireTiming.MOVING, split=False, flame=variant == 1)  # before moving
        if plan is not None:
            plans.append(plan)
            # known legal (`_legal` above): the check's own walk, kept, says where it leaves the galley
            positions = plan_positions(state.board, field, plan, state.charts, state.combat_options(), state.record)
            changes: dict[str, object] = {"position": positions[-1]}
            if segment.rams(plan):
                changes["speed"] = SpeedSide.CRUISE
                if firepot_armed(state.devices, galley):
                    firepots.append(gid)
            field[gid] = galley = replace(galley, **changes)  # type: ignore[arg-type]
        if galley.position is None:
            if early is not None:
                fire.append(Missiles(early, 0))
            continue  # it has left the map (9.1)
        order = early or _fire(state, field, galley, FireTiming.AFTER_MOVEMENT, split=variant == 2,
                               flame=variant == 1)
        if order is not None:
            fire.append(Missiles(order, 0 if early is not None else None))
        near = any(enemies(galley, g) and g.position is not None and _apart(galley, g) <= 2 for g in field.values())
        options = grapple_options(Field(state.board, field, state.charts, state.devices), gid, attempted=tried,
                                  retracted_from=[t for r, t in retracted if r == gid]) if near else []
        if options:
            option = options[0]
            grapple.append(GrappleOrder(gid, option.target, option.pulls[0] if option.pulls else None))
            tried.add(gid)
    return _checked(state, decision, plans, fire, grapple, disengage, firepots)


def _checked(state: GameState, decision: Activate, plans: list[Plan], fire: list[Missiles],
             grapple: list[GrappleOrder], disengage: list[GalleyId], firepots: list[GalleyId]) -> Activate:
    """The richest variant that passes the whole check; the decision as given if none does."""
    from engine.war_galley.turn.activation import check_activate

    full = replace(decision, plans=tuple(plans), fire=tuple(fire), grapple=tuple(grapple),
                   disengage=tuple(disengage), firepots=tuple(firepots))
    for candidate in (full, replace(full, grapple=()), replace(full, grapple=(), fire=()),
                      replace(full, grapple=(), fire=(), firepots=(), plans=decision.plans, disengage=())):
        try:
            check_activate(state, candidate)
        except IllegalOrder:
            continue
        return candidate
    return decision
