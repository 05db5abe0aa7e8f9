"""Actium (scenario book): the anchored Egyptian reserve, the secret Treasure Ship, the leaders' VP.

- Anchored Fleet: no galley of the Reserve can move until its squadron has
  spent an entire activation raising anchor: a plan for an anchored galley
  is refused; an activation of a squadron holding anchored galleys raises
  the anchor of every one of them (marked "weighed").
- The Treasury: the Antonian writes down in secret which Reserve galley
  carries it: a commitment (`commit treasure: R5-55`, engine.war_galley.battles.secrets) after
  his deployment. He opens it when the rules call for it: when a Reserve
  galley is captured (he "must inform him that he has taken the Treasure
  Ship") or leaves the map by the south edge (60xx of the joined map), and
  not before. Then: Octavian 15 VP beyond the capture VP if he captured it;
  Antony 10 VP if it exited south. Any other fate has no meaning.
- Leaders: if Antony and Cleopatra are both alive and not in Octavian's
  hands when the game ends and the Antonians have not won, they add 20 VP
  (engine.war_galley.turn.victory, `final_bonus`).
"""

from __future__ import annotations

from itertools import compress, count
from operator import attrgetter, is_not
from typing import Any

from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.events import Event
from engine.memo import by_identity
from engine.war_galley.map_and_galleys.galley import Capture, Galley, GalleyId, Removal, parse_galley_id
from engine.war_galley.movement.moving import Stepped
from engine.war_galley.battles.choices import SECRETS, SecretRule
from engine.war_galley.turn.extra import group_galleys, mark, marked
from engine.war_galley.turn.hooks import Params, SpecialRule, Wanted, hook, named
from engine.war_galley.turn.state import Award, GameState, Phase

LABEL = "treasure"
RULE = "Actium, The Treasury"


def anchored(state: GameState, params: Params) -> list[GalleyId]:
    """The group's galleys still at anchor (the group is known once the Reserve is deployed)."""
    weighed = set(marked(state, "weighed"))
    return [g for g in group_galleys(state, params["group"]) if g not in weighed]


@hook("plan", "anchored")  # the plan alone: where it would take the galley does not matter
def at_anchor(state: GameState, params: Params, before: Galley, plan: Any) -> None:
    if before.id in anchored(state, params) and (plan.mp or plan.steps):
        raise IllegalOrder("Actium, Anchored Fleet", f"{before.id} lies at anchor: the squadron spends an "
                                                     "activation raising anchor before any galley moves")


@hook("after", "anchored")
def raise_anchor(state: GameState, params: Params, keys: tuple[str, ...], before: GameState,
                 events: list[Event]) -> tuple[GameState, list[Event]]:
    members = [g for k in keys for g in before.squadron(k).galleys]
    at_anchor = set(anchored(state, params))  # once, not once a member
    waiting = [g for g in members if g in at_anchor]
    if not waiting:
        return state, []
    state = mark(state, "weighed", waiting)
    return state, [SpecialRule(rule="Actium, Anchored Fleet", special="anchored",
                               text=f"{', '.join(keys)} raised anchor: {len(waiting)} galleys may move from now on")]


# --- the Treasure Ship ---------------------------------------------------------------------


def treasure_rule(state: GameState) -> Params | None:
    found = named(state, "treasure_ship")
    return found[0] if found else None


def commitment(state: GameState) -> Any:
    return next((c for c in state.extra.commitments if c.label == LABEL), None)


def open_due(state: GameState) -> bool:
    """The rules call for the opening: a Reserve galley captured or gone off the south edge."""
    params = treasure_rule(state)
    held = commitment(state)
    if params is None or held is None or held.value is not None:
        return False
    reserve = _group_set(state.extra.groups, params["group"])
    edge = _edge(params)
    return not reserve.isdisjoint(_captured(state.galleys)) or any(
        g in reserve and e == edge for g, e in state.extra.exits)


def wanted(state: GameState, params: Params) -> Wanted | None:
    """The commitment after the Antonian deployment, then the opening when the rules call for it."""
    side = params["side"]
    if commitment(state) is None:
        if state.phase is Phase.DEPLOYMENT and not state.deploy:
            return Wanted(side, "commit", LABEL, f"{state.side(side).name}: write down in secret which "
                          "Reserve galley carries the Treasury: commit treasure: GALLEY", RULE)
        return None
    if open_due(state):
        return Wanted(side, "open", LABEL, f"{state.side(side).name}: a Reserve galley is taken or gone "
                      "south; open treasure", RULE)
    return None


def opened(state: GameState, value: str) -> tuple[GameState, list[Event]]:
    """The Treasury opened: the galley named must be of the Reserve, then its VP."""
    check_value(state, value)
    return awards(state)


# Asked of every state (who decides next): the answers are kept by identity of the immutable tuples
# they read, which most steps hand on unchanged (a phase step keeps the galleys, the groups never change).
@by_identity(4)
def _group_set(groups: tuple[tuple[GalleyId, str], ...], group: str) -> frozenset[GalleyId]:
    return frozenset(g for g, name in groups if name == group)


_capture = attrgetter("capture")


def _captured(galleys: tuple[Galley, ...]) -> frozenset[GalleyId]:
    """The captured galleys, each id as `GameState.galley` finds it (the first of a repeated id).

    Asked of nearly every state, whose galleys mostly differ from the last asked about in a slot or
    two: the answer stands while every slot that differs holds the same id, captured neither before
    nor now (the slots are found in C). Held with the galleys it answers for, by identity.
    """
    last = _last_captured[0] if _last_captured else None
    if last is not None and len(last[0]) == len(galleys):
        old = last[0]
        if all(old[i].id == galleys[i].id and old[i].capture is not _CAPTURED and galleys[i].capture is not _CAPTURED
               for i in compress(count(), map(is_not, old, galleys))):
            _last_captured[:] = [(galleys, last[1])]
            return last[1]
    found = frozenset()
    if _CAPTURED in map(_capture, galleys):  # in C: most of a battle, nobody is captured
        first = {g.id: g for g in reversed(galleys)}
        found = frozenset([gid for gid, g in first.items() if g.capture is _CAPTURED])
    _last_captured[:] = [(galleys, found)]
    return found


_CAPTURED = Capture.CAPTURED
_last_captured: list[tuple[tuple[Galley, ...], frozenset[GalleyId]]] = []


def _edge(params: Params) -> str:
    text = str(params.get("exit_edge", "60xx"))
    return text[-4:]


def check_value(state: GameState, value: str) -> GalleyId:
    params = treasure_rule(state)
    assert params is not None
    try:
        galley = parse_galley_id(value)
    except ValueError:
        raise IllegalOrder(RULE, f"{value!r} is not a galley (write e.g. R5-55)") from None
    if galley not in group_galleys(state, params["group"]):
        raise IllegalOrder(RULE, f"{galley} is not a galley of Cleopatra's Reserve: the Treasury is placed on one of them")
    return galley


def awards(state: GameState) -> tuple[GameState, list[Event]]:
    """The Treasure Ship's VP once its identity is known (idempotent)."""
    params = treasure_rule(state)
    held = commitment(state)
    if params is None or held is None or held.value is None:
        return state, []
    ship = parse_galley_id(held.value)
    out: list[Event] = []
    have = {(a.side, a.kind) for a in state.awards if a.galley == ship}
    galley = state.galley(ship)
    if galley.capture is Capture.CAPTURED and (params["capture_side"], "treasure") not in have:
        vp = int(params["capture_vp"])
        state = replace(state, awards=(*state.awards, Award(ship, params["capture_side"], "treasure", vp)))
        out.append(SpecialRule(rule=RULE, special="treasure_ship", text=f"{ship} was the Treasure Ship: {vp} VP"))
    if galley.removed is Removal.EXITED and (ship, _edge(params)) in state.extra.exits \
            and (params["side"], "treasure") not in have:
        vp = int(params["exit_vp"])
        state = replace(state, awards=(*state.awards, Award(ship, params["side"], "treasure", vp)))
        out.append(SpecialRule(rule=RULE, special="treasure_ship", text=f"the Treasure Ship {ship} escaped south: {vp} VP"))
    return state, out


@hook("after", "treasure_ship")
def treasure_after(state: GameState, params: Params, keys: tuple[str, ...], before: GameState,
                   events: list[Event]) -> tuple[GameState, list[Event]]:
    return awards(state)


@hook("final", "leaders_survive_vp")
def leaders(state: GameState, params: Params) -> tuple[str, int, str]:
    side = params["side"]
    alive = []
    for name in params["commanders"]:
        c = state.commander(name)
        ship = state.galley(c.galley) if c.galley is not None else None
        alive.append(ship is not None and ship.position is not None and ship.capture is not Capture.CAPTURED
                     or (ship is not None and ship.removed is Removal.EXITED))
    if all(alive) and (state.result is None or state.result.winner != side):
        return side, int(params["vp"]), f"{' and '.join(params['commanders'])} survive: {params['vp']} VP"
    return side, 0, ""


def stepped(events: list[Event]) -> set[GalleyId]:
    return {e.galley for e in events if isinstance(e, Stepped)}


def example_values(state: GameState) -> list[str]:
    from engine.war_galley.map_and_galleys.galley import format_galley_id
    params = treasure_rule(state)
    if params is None:
        return []
    return [format_galley_id(g) for g in group_galleys(state, params["group"])[:2]]


SECRETS["treasure_ship"] = SecretRule(wanted, opened, example_values)  # asked by battles.choices
