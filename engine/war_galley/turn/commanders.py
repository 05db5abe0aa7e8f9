"""Commanders (5.5, 9.2): transfer, the loss of a commander, and the loss of the only Admiral.

Transfer (5.51-5.52): to the nearest friendly galley (counting hexes along a
path free of enemy ships) that is neither Fouled nor Grappled; one attempt a
turn; 3-6 succeeds. He arrives on his Reduced Effectiveness side and the
receiving galley goes to Cruise Speed; he flips back at the end of the
activation in which he next commands his squadron, and until then his galley
may not use Maximum Speed.

Loss (5.53): when his galley sinks, is captured or is eliminated, he flips
to RE for good and joins the nearest galley of his squadron (ties: the
lowest galley id, standing for the player's choice); with none left he is
gone. Losing a fleet's only Admiral also brings the withdrawal roll (9.2):
1d6 + his Initiative (+1 if behind on VP); above 6 the fleet withdraws.
"""

from __future__ import annotations

from collections import deque

from msgspec.structs import replace

from engine.dice import Dice
from engine.errors import IllegalOrder
from engine.events import DieRolled, Event
from engine.war_galley.map_and_galleys.charts import admiral_withdraws, transfer_succeeds
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex, distance, neighbours
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.turn import hooks, victory
from engine.war_galley.turn.decisions import Transfer
from engine.war_galley.turn.initiative import active_admirals
from engine.war_galley.turn.state import CommanderState, GameState, galley_key


# 5.51 "at any time ... during the course of play": on the player's own decision in phases B, D, E and F
# (the decisions due there), never in the middle of an activation. Validation and the listing share it.
TRANSFER_WHEN = ("squadrons", "speed", "activate", "individual")


class Transferred(Event, frozen=True, kw_only=True):
    commander: str
    galley: GalleyId  # the new Command Ship


class CommanderRestored(Event, frozen=True, kw_only=True):
    """5.52: back on his normal side at the end of the activation he commanded."""

    commander: str


class TransferSettled(Event, frozen=True, kw_only=True):
    """5.52 for a commander RE for good (5.53): he has commanded since his transfer; his galley may use
    Maximum Speed again, he stays RE."""

    commander: str


class CommanderLost(Event, frozen=True, kw_only=True):
    """5.53: his galley is gone; he is placed (RE for good) with `galley`, or gone if None."""

    commander: str
    galley: GalleyId | None


class SoleAdmiral(Event, frozen=True, kw_only=True):
    """9.2 (version 2): `lost`, an admiral lost while others command, is a Squadron Commander from now on."""

    lost: str
    admirals: tuple[str, ...]  # the fleet's admirals left


class FleetWithdraws(Event, frozen=True, kw_only=True):
    side: str


def transfer_targets(state: GameState, commander: CommanderState) -> list[GalleyId]:
    """The nearest friendly galleys he may transfer to (5.51), all at the same distance."""
    if commander.galley is None:
        return []
    ship = state.galley(commander.galley)
    if ship.position is None:
        return []
    mine = ship.controller
    at: dict[Hex, Galley] = {h: g for g in state.galleys if g.position is not None for h in g.position.hexes}
    seen = set(ship.position.hexes)
    frontier = deque((h, 0) for h in ship.position.hexes)
    found: list[GalleyId] = []
    reach = None
    while frontier:
        h, d = frontier.popleft()
        if reach is not None and d >= reach:
            break
        for n in neighbours(h):
            if n in seen or not state.board.is_sea(n):
                continue
            seen.add(n)
            other = at.get(n)
            if other is not None and other.controller is not mine:
                continue  # a path of hexes free of enemy ships
            if other is not None and other.id != ship.id and not other.fouled_with and not other.grappled_with \
                    and hooks.commander_barred(state, commander.name, other.id) is None:
                if other.id not in found:
                    found.append(other.id)
                    reach = d + 1
            frontier.append((n, d + 1))
    return sorted(found, key=galley_key)


def check_transfer(state: GameState, decision: Transfer) -> CommanderState:
    try:
        commander = state.commander(decision.commander)
    except KeyError:
        raise IllegalOrder("5.51", f"no commander {decision.commander!r}") from None
    if commander.side != decision.side:
        raise IllegalOrder("5.51", f"{commander.name} is not {decision.side}'s commander")
    if commander.transfer_turn == state.turn:
        raise IllegalOrder("5.51", f"{commander.name} has already tried to transfer this turn")
    targets = transfer_targets(state, commander)
    if decision.to not in targets:
        near = ", ".join(str(t) for t in targets) or "none"
        raise IllegalOrder("5.51", f"{commander.name} may transfer only to the nearest friendly galley "
                                   f"not Fouled or Grappled: {near}")
    return commander


def transfer(state: GameState, decision: Transfer, dice: Dice) -> tuple[GameState, list[Event]]:
    commander = check_transfer(state, decision)
    roll = dice.d6(f"5.52 transfer {commander.name}")
    ok = transfer_succeeds(state.charts, roll)
    events: list[Event] = [DieRolled(rule="5.52", table="Commander Transfer", natural=roll,
                                     outcome="transfers" if ok else "stays aboard")]
    commander = replace(commander, transfer_turn=state.turn)
    if ok:
        # 5.52: the receiving galley "may not use Maximum Speed until the SqC resumes his normal ratings"; one
        # who is RE for good (5.53) never does, so his galley is barred for the same span: until the end of
        # the activation in which he next commands (restore_after_command leaves him RE).
        commander = replace(commander, galley=decision.to, reduced=True, until_commands=True)
        receiving = state.galley(decision.to)
        state = state.with_galley(replace(receiving, speed=SpeedSide.CRUISE))
        events.append(Transferred(rule="5.52", commander=commander.name, galley=decision.to))
    return state.with_commander(commander), events


def restore_after_command(state: GameState, squadrons: tuple[str, ...]) -> tuple[GameState, list[Event]]:
    """5.52: commanders who transferred flip back once the squadron they command has activated."""
    events: list[Event] = []
    for c in state.commanders:
        if c.until_commands and c.name in squadrons:
            state = state.with_commander(replace(c, until_commands=False, reduced=c.permanent_re))
            events.append(TransferSettled(rule="5.52", commander=c.name) if c.permanent_re
                          else CommanderRestored(rule="5.52", commander=c.name))
    return state, events


def max_barred_by_commander(state: GameState, galley_id: GalleyId) -> CommanderState | None:
    """5.52: a galley whose newly arrived commander is still RE may not use Maximum Speed."""
    return next((c for c in state.commander_on(galley_id) if c.until_commands), None)


def _nearest(state: GameState, lost: Galley, candidates: list[Galley]) -> Galley | None:
    if lost.position is None:
        return candidates[0] if candidates else None
    here = lost.position.hexes

    def gap(g: Galley) -> tuple[int, tuple[str, str, int]]:
        assert g.position is not None
        return min(distance(a, b) for a in here for b in g.position.hexes), galley_key(g.id)

    return min(candidates, key=gap, default=None)


def galley_lost(state: GameState, lost: Galley, dice: Dice) -> tuple[GameState, list[Event]]:
    """5.53 and 9.2 for the commanders aboard `lost` (still with its last position), before it leaves."""
    events: list[Event] = []
    # 9.2 asks about the fleet before the loss: callers that settle after the galley has left the map
    # (G/4 sinking, G/2 fire) would otherwise never find him the only admiral.
    was = state.with_galley(lost) if lost.position is not None else state
    for c in state.commander_on(lost.id):
        only_admiral = c.admiral and [a.name for a in active_admirals(was, c.side)] == [c.name]
        rating = c.rating
        squadron = state.squadron_of(lost.id)
        mates = [
            state.galley(g) for g in (squadron.galleys if squadron else ())
            if g != lost.id and state.galley(g).position is not None and state.controller(state.galley(g)) == c.side
            and hooks.commander_barred(state, c.name, g) is None  # the battle's bars on Command Ships hold
        ]
        new = _nearest(state, lost, mates)
        # Version 2 (9.2 with Ecnomus' play note, "if one is killed, the other becomes the sole admiral"): an
        # admiral lost while another commands his fleet goes on as a Squadron Commander (5.53), so that losing
        # the other is the loss of the fleet's only admiral (docs/rules-notes.md).
        demoted = c.admiral and not only_admiral and state.rules_version >= 2
        state = state.with_commander(replace(c, galley=new.id if new else None, reduced=True, permanent_re=True,
                                             until_commands=False, admiral=c.admiral and not demoted))
        events.append(CommanderLost(rule="5.53", commander=c.name, galley=new.id if new else None))
        if demoted:
            was = was.with_commander(replace(c, admiral=False))  # two admirals lost together: the second is the last
            left = tuple(a.name for a in active_admirals(was, c.side))
            events.append(SoleAdmiral(rule="9.2", lost=c.name, admirals=left))
        if only_admiral and state.result is None:
            state, more = _withdrawal_roll(state, c.side, rating, dice)
            events += more
    return state, events


def _withdrawal_roll(state: GameState, side: str, rating: int, dice: Dice) -> tuple[GameState, list[Event]]:
    loss = state.charts.fixed.loss_of_admiral
    behind = state.vp(side) < state.vp(state.other(side))
    mods: list[tuple[str, int]] = [("the Admiral's Initiative", rating)]
    if behind:
        mods.append(("fewer VP than the enemy", loss.fewer_vp))
    natural = dice.d6(f"9.2 loss of admiral {side}")
    goes = admiral_withdraws(state.charts, natural, rating, behind)
    events: list[Event] = [DieRolled(rule="9.2", table="Loss of Admiral", natural=natural, modifiers=tuple(mods),
                                     outcome="the fleet withdraws" if goes else "the fleet fights on")]
    if goes:
        events.append(FleetWithdraws(rule="9.2", side=side))
        state, ended = victory.end(state, victory.withdrawal(state, side))
        events += ended
    return state, events
