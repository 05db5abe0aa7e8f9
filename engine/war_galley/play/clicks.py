"""The decision as things to click (`pbem play`, issue 25): the ruleset's `play_options(state, picks)`.

A click path is a list of short keys, each one picked from the options the
previous answer offered; the answer is the next options as plain JSON data
and the order text built so far. For an activation (5.41, 6.13): `sq:KEY`
(a squadron that may activate, `engine.war_galley.turn.activation.allowed`),
then per galley `g:ID` (a member that may still move) and `e:N` (one of its
end positions, the planner's `end_positions` that validation uses, within its
MP, 6.13) or `t:N` (a combat plan the rules' own checks accept, with the roll
it needs, engine.war_galley.play.explain) or `f:N` (Missile Fire, 8.42, or a
grapple, 8.11, from where it stands); after a move its fire and grapple from
where it ends are offered as `f:N` beside the next galleys. Each fire or grapple
offered is one the whole activation passes with
(engine.war_galley.turn.activation.check_activate). Later galleys' end positions
are worked out on the battlefield the earlier plans leave, an attacker where the
rules' check puts it (engine.war_galley.turn.movement_segment.check: where its
attack leaves it if no one reacts); where the check also judges what comes
after them (a galley that fires or grapples where it stands acts after every
plan, 5.41; a failed Crew check's bounds, 5.31), each is offered only if the
whole activation passes with it. Every other decision, and the rest of an
activation (Double Activation, disengages, split fire), is offered as `l:N`:
the decisions `legal(state)` lists, as a form of its options.

Shapes are in the report map's frame (engine.war_galley.play.view_map), so the
board draws them over the very drawing the reports use.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.combat_steps import plan_positions
from engine.war_galley.manpower_combat import manpower_orders
from engine.war_galley.manpower_combat.battlefield import Field
from engine.war_galley.manpower_combat.grappling import grapple_options
from engine.war_galley.manpower_combat.manpower_orders import FireOrder, GrappleOrder, Shot
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId, parse_galley_id
from engine.war_galley.map_and_galleys.position import format_position
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.moving import check_plan, move, surroundings
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.movement.steps import Anastrophe, PassThrough, Plan, Rake, Ram
from engine.war_galley.play import explain, legal_combat, notation, orders, view_map
from engine.war_galley.play.legal import Options, legal
from engine.war_galley.play.planner import Reach
from engine.war_galley.turn.activation import allowed, check_activate
from engine.war_galley.turn.decisions import Activate, AnyDecision, Missiles
from engine.war_galley.turn.movement_segment import rams
from engine.war_galley.turn.sequence import decision_due
from engine.war_galley.turn.state import GameState, PendingActivation

RULE = "play"  # a click path that names no offered option: not a rule of the book, a bad request


def play_options(state: GameState, picks: list[str]) -> dict[str, Any]:
    due = decision_due(state)
    if due is None:
        return {"offered": False, "side": None, "prompt": "nothing to decide now", "options": [], "order": None,
                "steps": [], "paths": [], "card": None}
    if picks and picks[0].startswith("sq:") and due.kind == "activate":
        return _Activation(state, due.side, picks).answer(due.prompt)
    listed = legal(state)
    if picks:
        decision = _listed(listed, picks)
        return _answer(state, due.side, due.prompt, [notation.format_decision(decision, state.board.map)], [],
                       _format(decision, state), [], None)
    options = []
    if due.kind == "activate":
        options += [{"key": f"sq:{key}" + (f"+{also}" if also else ""), "kind": "squadron",
                     "label": f"activate {key}" + (f" with {also}" if also else "")}
                    for key, also in allowed(state, due.side)]
    options += [{"key": f"l:{n}", "kind": "legal", "label": _format(d, state)} for n, d in enumerate(listed)]
    return _answer(state, due.side, due.prompt, [], options, None, [], None)


def _answer(state: GameState, side: str, prompt: str, steps: list[str], options: list[dict[str, Any]],
            order: str | None, paths: list[str], card: dict[str, Any] | None) -> dict[str, Any]:
    return {"offered": True, "side": side, "prompt": prompt, "steps": steps, "options": options, "order": order,
            "paths": paths, "card": card}


def _format(decision: AnyDecision, state: GameState) -> str:
    return notation.format_decision(decision, state.board.map)


def _listed(listed: list[AnyDecision], picks: list[str]) -> AnyDecision:
    if len(picks) != 1 or not picks[0].startswith("l:") or not picks[0][2:].isdigit() or \
            int(picks[0][2:]) >= len(listed):
        raise IllegalOrder(RULE, f"{' '.join(picks)}: not one of the options offered")
    return listed[int(picks[0][2:])]


class _Activation:
    """An activation built click by click: the squadron, then each galley's end position or attack."""

    def __init__(self, state: GameState, side: str, picks: list[str]) -> None:
        self.state, self.side = state, side
        self.frame = view_map.frame_of(state.board)
        key, _, also = picks[0][3:].partition("+")
        if (key, also or None) not in allowed(state, side):
            raise IllegalOrder("5.41", f"{picks[0][3:]}: not a squadron that may activate now")
        self.key, self.also = key, also or None
        self.members = [*state.squadron(key).galleys, *(state.squadron(also).galleys if also else ())]
        current = state.current or PendingActivation(())
        self.confusion = dict(current.confusion)
        self.sim = state
        self.plans: list[Plan] = []
        self.fire: list[Missiles] = []
        self.grapple: list[GrappleOrder] = []
        self.standing: list[GalleyId] = []  # fire or grapple where they stand: they act after every plan
        self.restricted = current.restricted  # 5.31: a failed Crew check; the check judges each move
        self.after: Galley | None = None  # the galley just moved (or standing): its fire and grapple come next
        self.extras: list[tuple[dict[str, Any], Missiles | GrappleOrder]] = []
        self.steps = [f"activate {key}" + (f" with {also}" if also else "")]
        self.paths: list[str] = []
        self.chosen: Galley | None = None
        self.choices: list[tuple[dict[str, Any], Plan | Missiles | GrappleOrder]] = []
        for pick in picks[1:]:
            self._pick(pick)

    def _pick(self, pick: str) -> None:
        if pick.startswith("g:") and self.chosen is None:
            try:
                gid = parse_galley_id(pick[2:])
            except (IllegalOrder, ValueError):
                gid = None
            movable = {g.id: g for g in self.movable()}
            if gid not in movable:
                raise IllegalOrder("5.41", f"{pick[2:]}: not a galley of this activation that may still move")
            self.after, self.extras = None, []
            self.chosen = movable[gid]
            self.choices = self._choices(self.chosen)
            self.steps.append(f"{gid}")
            return
        if pick[:2] in ("e:", "t:", "f:") and self.chosen is not None:
            found = [order for option, order in self.choices if option["key"] == pick]
            if not found:
                raise IllegalOrder(RULE, f"{pick}: not one of {self.chosen.id}'s options")
            if isinstance(found[0], Plan):
                self._take(self.chosen, found[0])
            else:  # it acts where it stands
                galley, self.chosen, self.choices = self.chosen, None, []
                self.standing.append(galley.id)
                self._extra(galley, found[0])
            return
        if pick.startswith("f:") and self.after is not None:
            found = [order for option, order in self.extras if option["key"] == pick]
            if not found:
                raise IllegalOrder(RULE, f"{pick}: not one of {self.after.id}'s options")
            self._extra(self.after, found[0])
            return
        raise IllegalOrder(RULE, f"{pick}: not an option at this point of the activation")

    def _extra(self, galley: Galley, order: Missiles | GrappleOrder) -> None:
        """Its fire or grapple added; what else it may do from there offered next."""
        if isinstance(order, Missiles):
            self.fire.append(order)
        else:
            self.grapple.append(order)
        self.steps.append(_format_extra(order, self.state))
        self.after = galley
        self.extras = self._extras(galley)

    def movable(self) -> list[Galley]:
        done = {p.galley for p in self.plans} | set(self.standing)
        out = []
        for gid in self.members:
            g = self.sim.galley(gid)
            if gid in done or g.position is None or g.aground is not None or self.sim.controller(g) != self.side:
                continue  # 6.36: an aground galley only tries to refloat; 8.25: captured since phase B
            out.append(g)
        return out

    def _cap(self, galley: Galley) -> int:
        return max(0, speed_limit(galley, galley.speed, self.sim.wind).mp + self.confusion.get(galley.id, 0))

    def _choices(self, galley: Galley) -> list[tuple[dict[str, Any], Plan]]:
        """Its end positions within its MP, cheapest path each, then the attacks the rules accept."""
        cap = self._cap(galley)
        options = Options(self.sim, self.side)
        reaches = [r for r in options.of(galley) if r.mp <= cap and r.steps]
        out: list[tuple[dict[str, Any], Plan | Missiles | GrappleOrder]] = []
        for n, reach in enumerate(reaches):
            plan = Plan(galley.id, galley.speed, reach.mp, reach.steps)
            if self._judged(plan):
                out.append((self._end_option(n, reach), plan))
        field = {g.id: g for g in self.sim.galleys}
        plans = {orders.format_order(p): p for p in
                 legal_combat._Attack(self.sim, field, galley, options.of(galley), options.nearness, cap).plans()}
        for n, target in enumerate(explain._targets(self.sim, galley, options, cap)):
            plan = plans.get(target["order"])
            if plan is None or not self._judged(plan):  # fire and grapples: below; boarding: its own segment
                continue
            attacked = self.sim.galley(_target_of(plan))
            roll = target.get("roll")
            out.append(({"key": f"t:{n}", "kind": "target", "action": target["action"], "target": target["target"],
                         "label": f"{target['action']} {target['target']}" +
                                  (f": needs {explain._roll_text(roll)}" if roll else ""),
                         "roll": roll, "cost": plan.mp,
                         "shape": view_map.counter_shape(self.frame, attacked.position) if attacked.position else None},
                        plan))
        return out + self._extras(galley)

    def _judged(self, plan: Plan) -> bool:
        """Whether the activation passes the rules' check with `plan` added, where the check judges more than
        the plan alone: a failed Crew check's bounds (5.31), or galleys that act where they stand after it."""
        if not self.restricted and not self.standing:
            return True
        return self._passes(plans=[*self.plans, plan])

    def _passes(self, plans: list[Plan] | None = None, fire: list[Missiles] | None = None,
                grapple: list[GrappleOrder] | None = None) -> bool:
        decision = replace(self.decision(), plans=tuple(self.plans if plans is None else plans),
                           fire=tuple(self.fire if fire is None else fire),
                           grapple=tuple(self.grapple if grapple is None else grapple))
        try:
            check_activate(self.state, decision)
        except IllegalOrder:
            return False
        return True

    def _extras(self, galley: Galley) -> list[tuple[dict[str, Any], Missiles | GrappleOrder]]:
        """Its Missile Fire and grapple from where it stands now (explain's, 8.42, 8.11), each one the whole
        activation passes the rules' check with."""
        galley = self.sim.galley(galley.id)
        if galley.position is None:
            return []
        fired = {m.order.galley for m in self.fire}
        tried = {o.galley for o in self.grapple}
        pulls = {o.target: o.pulls[0] if o.pulls else None for o in grapple_options(
            Field(self.sim.board, {g.id: g for g in self.sim.galleys}, self.sim.charts, self.sim.devices),
            galley.id, attempted=self.sim.grapple_tried,
            retracted_from=[t for r, t in self.sim.retracted if r == galley.id])} if galley.id not in tried else {}
        out: list[tuple[dict[str, Any], Missiles | GrappleOrder]] = []
        for target in explain.manpower_targets(self.sim, galley):
            order: Missiles | GrappleOrder
            if target["action"] == "fire" and galley.id not in fired:
                order = Missiles(FireOrder(galley.id, (Shot(parse_galley_id(target["target"])),)))
                if not self._passes(fire=[*self.fire, order]):
                    continue
            elif target["action"] == "grapple" and parse_galley_id(target["target"]) in pulls:
                gid = parse_galley_id(target["target"])
                order = GrappleOrder(galley.id, gid, pulls[gid])
                if not self._passes(grapple=[*self.grapple, order]):
                    continue
            else:  # boarding is the Boarding Segment's (8.2): offered there
                continue
            attacked = self.sim.galley(parse_galley_id(target["target"]))
            roll = target.get("roll")
            out.append(({"key": f"f:{len(out)}", "kind": "target", "action": target["action"],
                         "target": target["target"],
                         "label": f"{target['action']} {target['target']}" +
                                  (f": needs {explain._roll_text(roll)}" if roll else ""),
                         "roll": roll, "cost": 0,
                         "shape": view_map.counter_shape(self.frame, attacked.position) if attacked.position else None},
                        order))
        return out

    def _end_option(self, n: int, reach: Reach) -> dict[str, Any]:
        ends = f", {reach.ending.value}" if reach.ending else ""
        where = format_position(reach.position, self.state.board.map)
        return {"key": f"e:{n}", "kind": "end", "cost": reach.mp, "position": where,
                "label": f"to {where}, {reach.mp} MP{ends}",
                "shape": view_map.counter_shape(self.frame, reach.position)}

    def _take(self, galley: Galley, plan: Plan) -> None:
        around = surroundings(self.sim.board, self.sim.galleys, galley, self.sim.wind, self.sim.turn, self.sim.charts)
        if any(isinstance(s, (Ram, Rake, PassThrough, Anastrophe)) for s in plan.steps):
            self.paths.append(view_map.polyline(self.frame, [galley.position] + _positions(plan, galley, around)))
            # The attack's outcome needs dice: later galleys plan around the attacker where the rules' check
            # puts it (movement_segment.check: where the attack leaves it if no one reacts, at Cruise after a ram)
            field = {g.id: g for g in self.sim.galleys}
            ends = plan_positions(self.sim.board, field, plan, self.sim.charts, self.sim.combat_options(),
                                  self.state.record.next_squadron_phase())
            changes: dict[str, Any] = {"position": ends[-1]}
            if rams(plan):
                changes["speed"] = SpeedSide.CRUISE  # 7.16
            self.sim = self.sim.with_galley(replace(galley, **changes))
            self.after, self.extras = None, []  # its fire or grapple after an attack: typed (the attack needs dice)
        else:
            legs = check_plan(around, galley, plan)
            self.paths.append(view_map.polyline(self.frame, [leg.position for leg in legs]))
            moved, _ = move(around, galley, plan)
            self.sim = self.sim.with_galley(moved)
            self.after = moved
        self.plans.append(plan)
        self.steps.append(orders.format_order(plan))
        self.chosen, self.choices = None, []
        if self.after is not None:
            self.extras = self._extras(self.after)

    def decision(self) -> Activate:
        return Activate(side=self.side, squadron=self.key, also=self.also, plans=tuple(self.plans),
                        fire=tuple(self.fire), grapple=tuple(self.grapple))

    def answer(self, prompt: str) -> dict[str, Any]:
        order = _format(self.decision(), self.state)
        if self.chosen is not None:
            card = explain.galley_report(self.sim, str(self.chosen.id))
            card["reaches"] = []  # offered as options, with their shapes
            return _answer(self.state, self.side, prompt, self.steps, [o for o, _ in self.choices], order,
                           self.paths, card)
        options = [o for o, _ in self.extras]
        options += [{"key": f"g:{g.id}", "kind": "galley", "galley": str(g.id),
                     "label": f"move {g.id} (up to {self._cap(g)} MP)"} for g in self.movable()]
        return _answer(self.state, self.side, prompt, self.steps, options, order, self.paths, None)


def _format_extra(order: Missiles | GrappleOrder, state: GameState) -> str:
    """A fire or grapple order as the activation's text writes it (engine.war_galley.play.notation)."""
    if isinstance(order, Missiles):
        return manpower_orders.format_fire(order.order)
    return manpower_orders.format_grapple(order, state.board.map)


def _target_of(plan: Plan) -> GalleyId:
    return next(s.target for s in plan.steps if isinstance(s, (Ram, Rake, PassThrough, Anastrophe)))


def _positions(plan: Plan, galley: Galley, around: Any) -> list[Any]:
    """The movement part of a combat plan, drawn up to where the attack begins."""
    moving = tuple(s for s in plan.steps if not isinstance(s, (Ram, Rake, PassThrough, Anastrophe)))
    try:
        return [leg.position for leg in check_plan(around, galley, Plan(plan.galley, plan.speed, plan.mp, moving))]
    except IllegalOrder:
        return []


__all__ = ["play_options"]
