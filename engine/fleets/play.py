"""The sequence of play: set-up decisions, then bounds of PIPs, moves and drift, close combat, victory.

`apply` checks a decision fully before it changes anything and rolls no dice;
`advance` runs the automatic steps (wind dice, the PIP die, close combat).
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.adapter import Pending
from engine.fleets import choosing, combat, deployment, results, space, victory, wind as winds
from engine.fleets.decisions import (
    AttackFrom, Back, ChooseFleet, Concede, Decision, Drift, End, Move, Place, PlaceRest, SetTerrain, Shift, Wheel, WindFrom,
)
from engine.fleets.drift import drift
from engine.fleets.errors import IllegalOrder
from engine.fleets.events import (
    AttackerSide, Event, Fought, GameOver, PipsRolled, TerrainSet, Turned, WindChosen, WindRolled,
)
from engine.fleets.geometry import Rect
from engine.fleets.movement import check_back, check_move, check_shift
from engine.fleets.state import State, replace_element
from engine.fleets.table import Coast, Piece, Terrain, check_terrain
from engine.fleets.wheel import check_wheel


def pending(state: State) -> Pending:
    p = state.phase
    if p == "over":
        return Pending(None, "over", state.result or "", finished=True)
    if p == "aggression":
        return Pending(None, "aggression", "both players dice for aggression: the higher attacks", automatic=True)
    if p in ("fleet-defender", "fleet-attacker"):
        side = choosing.choosing(state)
        return Pending(side, "fleet", f"choose your fleet: {choosing.size(state, side)} elements of "
                       f"{', '.join(t.code for t in state.rules.types)}, one the general's")
    if p == "terrain":
        return Pending(state.defender, "terrain", "the defender declares the coast(s), islands, reefs, peninsulas and shallows")
    if p == "wind-pick":
        return Pending(state.defender, "wind", "the defender picks the side or corner the wind counts from")
    if p == "wind-roll":
        return Pending(None, "wind-roll", "both players dice for the wind", automatic=True)
    if p == "attacker-side":
        return Pending(state.attacker, "attack", "the attacker chooses his side of the table")
    if p in ("deploy-defender", "deploy-attacker"):
        side = deployment.deploying(state)
        left = sum(1 for e in state.to_place if e.side == side)
        return Pending(side, "place", f"place {left} more element(s) within 600p of the {deployment.own_edge(state, side)} edge")
    if p == "pips":
        return Pending(None, "pips", f"bound {state.bound + 1}: the PIP die", automatic=True)
    if p == "move":
        return Pending(state.moving, "move", f"bound {state.bound}: {state.pips} PIP(s) left; move, drift, or end")
    return Pending(None, "combat", f"bound {state.bound}: close combat", automatic=True)


def _want(state: State, decision: Decision, phases: tuple[str, ...], what: str) -> None:
    if state.phase not in phases:
        raise IllegalOrder("rules 1, sequence", f"{what} is not wanted now: {pending(state).prompt}")


def apply(state: State, decision: Decision, dice: Any) -> tuple[State, list[Event]]:
    if state.phase == "over":
        raise IllegalOrder("rules 1, sequence", "the battle is over")
    if isinstance(decision, Concede):
        if pending(state).side is None:
            raise IllegalOrder("rules 1, sequence", "concede when it is your decision")
        side = state.side(pending(state).side or "")
        winner = state.side(state.other(side.key))
        text = f"{winner.name} win: the {side.name} concede"
        return msgspec.structs.replace(state, phase="over", result=text), [GameOver(text)]
    if isinstance(decision, ChooseFleet):
        _want(state, decision, ("fleet-defender", "fleet-attacker"), "a fleet")
        state, chosen = choosing.check_fleet(state, decision)
        return state, [chosen]
    if isinstance(decision, SetTerrain):
        _want(state, decision, ("terrain",), "terrain")
        terrain = terrain_from(decision, state)
        check_terrain(terrain, state.rules.numbers)
        return msgspec.structs.replace(state, terrain=terrain, phase="wind-pick"), [TerrainSet("")]
    if isinstance(decision, WindFrom):
        _want(state, decision, ("wind-pick",), "the wind's starting point")
        if decision.point not in winds.POINTS:
            raise IllegalOrder("rules 3, wind", f"pick a side or corner: {', '.join(winds.POINTS)}")
        return msgspec.structs.replace(state, wind_choice=decision.point, phase="wind-roll"), [WindChosen(decision.point)]
    if isinstance(decision, AttackFrom):
        _want(state, decision, ("attacker-side",), "the attacker's side")
        deployment.check_attack_side(state, decision.edge)
        state = msgspec.structs.replace(state, attacker_edge=decision.edge, phase="deploy-defender")
        return state, [AttackerSide(state.attacker, decision.edge)]
    if isinstance(decision, (Place, PlaceRest)):
        _want(state, decision, ("deploy-defender", "deploy-attacker"), "placing")
        orders = [decision] if isinstance(decision, Place) else deployment.rest_positions(state)
        events: list[Event] = []
        for order in orders:
            state, event = deployment.check_place(state, order)
            events.append(event)
        return _after_placing(state), events
    _want(state, decision, ("move",), "a move")
    checks = {Move: check_move, Shift: check_shift, Wheel: check_wheel, Back: check_back}
    if type(decision) in checks:
        state, moved = checks[type(decision)](state, decision)  # type: ignore[operator]
        state = space.forget_apart(state, moved.ids)  # moved with PIPs: no longer a hair apart (5.10)
        return state, [msgspec.structs.replace(moved, order=_words(decision))]
    if isinstance(decision, Drift):
        check_drift(state, decision.id)
        state, drifted = drift(state, decision.id)
        return state, list(drifted)
    if isinstance(decision, End):
        if decision.fight and not state.rules.at_least("2"):
            raise IllegalOrder("rules 7, combat", "version 1 fights in the fleet's order: write `end`")
        if len(set(decision.fight)) != len(decision.fight):
            raise IllegalOrder("rules 7, combat", "name each element once in the order of combats")
        events = []
        assert state.wind is not None
        w = winds.blowing(state.wind)
        # furthest downwind first, so a line drifting along its length does not block itself
        order = sorted((e for e in state.elements if e.side == state.moving and e.id not in state.done),
                       key=lambda e: (-(e.x * w[0] + e.y * w[1]), e.id))
        for e in order:
            if state.element(e.id) is not None and e.id not in state.done:
                state, drifted = drift(state, e.id)
                events.extend(drifted)
        return msgspec.structs.replace(_combat_order(state, decision.fight), phase="combat"), events
    raise IllegalOrder("rules 1, sequence", f"unknown decision {decision!r}")


def _combat_order(state: State, fight: list[str]) -> State:
    """The moving fleet's named elements first, in the order its player chose for the combats (DBA: the phasing
    player decides the order); close_combat fights in element order. Each must be in front contact now."""
    for ident in fight:
        e = state.element(ident)
        if e is None or e.side != state.moving or space.front_partner(state, e) is None:
            raise IllegalOrder("rules 7, combat", f"{ident} is not an element of the moving fleet in front contact "
                               "after the drift: name only those that fight this bound")
    if not fight:
        return state
    first = [state.element(i) for i in fight]
    rest = [e for e in state.elements if e.id not in fight]
    return msgspec.structs.replace(state, elements=tuple(e for e in first if e is not None) + tuple(rest))


def check_drift(state: State, ident: str) -> None:
    """Any element of the moving fleet that has neither moved nor drifted may drift (it always can: 5.9)."""
    element = state.element(ident)
    if element is None:
        raise IllegalOrder("rules 5, drift", f"no element {ident} on the table")
    if element.side != state.moving:
        raise IllegalOrder("rules 5, drift", f"{ident} is not in the moving fleet")
    if ident in state.done:
        raise IllegalOrder("rules 5, drift", f"{ident} has already moved or drifted this bound")


def _words(decision: Decision) -> str:
    from engine.fleets.notation import format_decision

    return format_decision(decision)


def terrain_from(decision: SetTerrain, state: State) -> Terrain:
    try:
        coasts = tuple(Coast(str(c[0]), int(c[1])) for c in decision.coasts)  # type: ignore[arg-type]
        pieces = tuple(Piece(str(p[0]), Rect(*(int(v) for v in p[1:5])), int(p[5])) for p in decision.pieces)  # type: ignore[arg-type]
    except (IndexError, TypeError, ValueError):
        raise IllegalOrder("rules 2, terrain", "coasts are [edge, shallows]; pieces [kind, x0, y0, x1, y1, shallows]") from None
    for c in coasts:
        if c.edge not in ("N", "E", "S", "W"):
            raise IllegalOrder("rules 2, terrain", f"no table edge {c.edge!r} (N, E, S or W)")
    for p in pieces:
        if p.kind not in ("island", "reef", "peninsula"):
            raise IllegalOrder("rules 2, terrain", f"no terrain piece {p.kind!r} (island, reef or peninsula)")
    return Terrain(state.rules.numbers.table, coasts, pieces)


def _after_placing(state: State) -> State:
    side = deployment.deploying(state)
    if any(e.side == side for e in state.to_place):
        return state
    if state.phase == "deploy-defender":
        return msgspec.structs.replace(state, phase="deploy-attacker")
    # base: the attacker has the first bound
    return msgspec.structs.replace(state, phase="pips", moving=state.defender)


def advance(state: State, dice: Any) -> tuple[State, list[Event]]:
    events: list[Event] = []
    while pending(state).automatic:
        if state.phase == "aggression":
            state, rolled = choosing.roll_aggression(state, dice)
            events.append(rolled)
        elif state.phase == "wind-roll":
            assert state.wind_choice is not None
            a = dice.d6(f"wind: attacker ({state.attacker}) counts clockwise")
            d = dice.d6(f"wind: defender ({state.defender}) counts counter-clockwise")
            source = winds.rolled(state.wind_choice, a, d)
            state = msgspec.structs.replace(state, wind=source, phase="attacker-side")
            events.append(WindRolled(state.wind_choice, a, d, source))
        elif state.phase == "pips":
            mover = state.other(state.moving)
            pips = dice.d6(f"bound {state.bound + 1}: {mover} PIPs")
            state = msgspec.structs.replace(state, phase="move", moving=mover, pips=pips, done=(), bound=state.bound + 1)
            events.append(PipsRolled(mover, state.bound, pips))
        elif state.phase == "combat":
            state, new = close_combat(state, dice)
            state = space.standing_apart(state)  # recoiled, fled, followed up, turned or destroyed: lapsed
            events.extend(new)
            text = victory.verdict(state)
            if text is not None:
                state = msgspec.structs.replace(state, phase="over", result=text)
                events.append(GameOver(text))
            else:
                state = msgspec.structs.replace(state, phase="pips")
    return state, events


def close_combat(state: State, dice: Any) -> tuple[State, list[Event]]:
    """Every front contact fights once, in the moving fleet's element order (base reading)."""
    events: list[Event] = []
    for e in list(state.elements):  # base: contacted on flank or rear with no enemy in front, it turns to face
        current = state.element(e.id)
        attackers = space.side_attackers(state, current) if current is not None else []
        if current is not None and attackers and space.front_partner(state, current) is None:
            foe = attackers[0][1]
            state = replace_element(state, current.moved(current.x, current.y, (foe.heading + 180) % 360))
            events.append(Turned(current.id, foe.id))
    pairs = [(a.id, b.id) for a, b in space.contacts(state, state.moving)]
    for a_id, b_id in pairs:
        a, b = state.element(a_id), state.element(b_id)
        if a is None or b is None or space.front_partner(state, a) != b:
            continue  # an earlier result moved or removed one of them
        da = dice.d6(f"bound {state.bound}: {a.id} against {b.id}")
        db = dice.d6(f"bound {state.bound}: {b.id} against {a.id}")
        fa, wa = combat.factors(state, a, b)
        fb, wb = combat.factors(state, b, a)
        ta, tb = da + fa, db + fb
        words = [f"{a.id}: " + ", ".join(wa), f"{b.id}: " + ", ".join(wb)]
        if ta == tb:
            events.append(Fought(a.id, b.id, [da, db], [ta, tb], words, "tie"))
            continue
        loser, winner = (a, b) if ta < tb else (b, a)
        how = combat.outcome(min(ta, tb), max(ta, tb))
        downwind = results.recoil_downwind(state, loser)
        what = results.result(loser.type, winner.type, how, downwind)
        if space.side_attackers(state, loser) and what != "destroyed":
            what = "destroyed"  # base: beaten with an enemy against its flank or rear
        events.append(Fought(a.id, b.id, [da, db], [ta, tb], words, f"{loser.id} {how}: {what}"))
        # DBA 2.2 (version 2): those against the winner's flank or rear fall back when their front friend is beaten
        flankers = ([f.id for _, f in space.side_attackers(state, winner) if f.side == loser.side]
                    if state.rules.at_least("2") and what != "stands" else [])
        if what == "destroyed":
            state, event = results.destroy(state, loser)
            events.append(event)
        elif what == "flee":
            state, event = results.flee(state, loser, winner, state.rules.numbers.flee)
            events.append(event)
        elif what == "recoil":
            state, event = results.recoil(state, loser, winner)
            events.append(event)
            ship = state.rules.type(winner.type).kind == "ship"
            if winner.type == "Tr" and state.rules.at_least("2"):
                ship = False  # fragment: "Transports may not move into contact with enemy", so no follow-up
            if event.fate == "recoils" and ship and loser.type != "Lib" and downwind:
                state, follow = results.follow_up(state, winner)
                if follow is not None:
                    events.append(follow)
        state = _flankers_recoil(state, flankers, winner.id, events)
    return state, events


def _flankers_recoil(state: State, flankers: list[str], winner_id: str, events: list[Event]) -> State:
    for ident in flankers:
        f, w = state.element(ident), state.element(winner_id)
        if f is not None and w is not None and space.front_partner(state, f) is None:
            state, event = results.recoil(state, f, w)
            events.append(event)
    return state
