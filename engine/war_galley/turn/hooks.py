"""The hook interface: the one way a battle's special rules (scenario `[[special]]`) reach the core.

The core consults the points below; it never imports a battle. Each rule of
engine.war_galley.battles registers its function at the points where it acts,
under its scenario name (`@hook("maximum", "no_max_speed_until")`), and a few
parts of the battles layer that act in every game register with `@always`.
The set-up stores the rules in force (those of a chosen option only under that
option) in `state.extra.rules`; a point calls the functions of exactly those
rules, in file order:

| point | consulted by | rules |
|---|---|---|
| setup | battles.setup.new_game | transports, sails, anchors, tows, fleets, approach, scenario towers |
| squadrons | phase B (turn.sequence) | line astern command, first-turn command, transport squadrons, approach |
| command_phase | phase B begins (turn.sequence) | Drepanum: is the Line Astern broken? |
| maximum | phase D and movement (turn.sequence) | no Maximum Speed until / first turn / sails up |
| announce, begin | an Activate decision, before it is checked (turn.scenario_play) | Lade's treachery roll |
| plan | each plan of an activation, judged by the plan alone (turn.scenario_play) | anchors |
| move | each plan of an activation, judged by where it leaves the galley (turn.scenario_play) | tows, transports, treachery, first-turn speed |
| after | an activation carried out (turn.scenario_play) | exits, run aground VP, anchors raised, command limit |
| command, aboard | squadrons, transfers, deployment (turn.command, turn.commanders) | separate fleets, lembi, restricted commanders |
| fatigue | 6.42 (turn.fatigue) | pestilence |
| value | 9.1 awards (turn.victory) | transport VP |
| final | the end of the game (turn.victory) | leaders survive |
| secret_wanted (always) | who decides next (turn.sequence) | Actium's Treasure Ship, tournament fleets (battles.choices) |
| deployment_step (always) | the end of the deployment (turn.sequence) | tournament play's set-up roll (battles.tournament) |

engine.war_galley.battles.load imports the modules of the rules a game plays
(its set-up, and a state read back from bytes); a game whose rules name one
that nobody registered is refused loudly (`rules`), never played without it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any, NamedTuple

from engine.events import Event
from engine.memo import by_identity
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.turn.state import GameState, Squadron

Params = dict[str, Any]

HOOKS: dict[str, dict[str, Callable[..., Any]]] = {}  # point -> rule name -> function
ALWAYS: dict[str, list[Callable[..., Any]]] = {}  # point -> functions consulted in every game
_REGISTERED: list[tuple[str, str]] = []  # every (point, rule name) registration, in order


def hook(point: str, *names: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a rule's function at a hook point, for each scenario rule name given."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        for name in names:
            HOOKS.setdefault(point, {})[name] = fn
            _REGISTERED.append((point, name))  # a later registration is a new key of `_hooked`
        return fn
    return register


def always(point: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function consulted at `point` in every game (not tied to one scenario rule)."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        if fn not in ALWAYS.setdefault(point, []):
            ALWAYS[point].append(fn)
        return fn
    return register


class Rule(NamedTuple):
    name: str
    params: Params


class Wanted(NamedTuple):
    """A secret choice the rules wait for (docs/protocol.md, "Secret choices")."""

    side: str
    kind: str  # commit, open
    label: str
    prompt: str
    rule: str


@functools.lru_cache(maxsize=64)
def _decode(rules: tuple[tuple[str, str], ...]) -> tuple[Rule, ...]:
    known = {name for table in HOOKS.values() for name in table}
    missing = sorted({name for name, _ in rules} - known)
    if missing:  # a rule nobody registered would silently not be played
        raise RuntimeError(f"special rules {missing} have no hooks: engine.war_galley.battles.load them first")
    return tuple(Rule(name, json.loads(params)) for name, params in rules)


def rules(state: GameState) -> tuple[Rule, ...]:
    return _decode(state.extra.rules) if state.extra.rules else ()


def named(state: GameState, name: str) -> list[Params]:
    return [r.params for r in rules(state) if r.name == name]


def _at(state: GameState, point: str) -> tuple[tuple[Callable[..., Any], Params], ...]:
    """The functions of the rules in force registered at `point`, in file order, with their parameters."""
    return _hooked(state.extra.rules, point, len(_REGISTERED)) if state.extra.rules else ()


@by_identity(32)  # asked at every plan and activation; the rules in force never change in a game
def _hooked(stored: tuple[tuple[str, str], ...], point: str, registered: int) -> tuple[tuple[Callable[..., Any], Params], ...]:
    table = HOOKS.get(point, {})
    return tuple((fn, rule.params) for rule in _decode(stored) if (fn := table.get(rule.name)) is not None)


class SpecialRule(Event, frozen=True, kw_only=True):
    """A scenario special rule acted: which, and what it did."""

    special: str
    text: str


# --- the hook points --------------------------------------------------------------------------


def setup(state: GameState, active: list[tuple[str, Params]], facts: Params) -> GameState:
    """Store the rules in force and let each change the opening state (`facts`: the scenario's groups and fleets)."""
    from msgspec.structs import replace
    stored = tuple((name, json.dumps(params, sort_keys=True)) for name, params in active)
    state = replace(state, extra=replace(state.extra, rules=stored))
    for fn, params in _at(state, "setup"):
        state = fn(state, params, facts)
    return state


def squadrons(state: GameState, side: str, formed: tuple[Squadron, ...]) -> tuple[Squadron, ...]:
    for fn, params in _at(state, "squadrons"):
        formed = fn(state, params, side, formed)
    return tuple(s for s in formed if s.galleys or s.commander is not None)


def command_phase(state: GameState) -> GameState:
    """Phase B begins: the rules look at the fleet before the squadrons form."""
    for fn, params in _at(state, "command_phase"):
        state = fn(state, params)
    return state


def maximum_barred(state: GameState, galley: Galley) -> tuple[str, str] | None:
    for fn, params in _at(state, "maximum"):
        why = fn(state, params, galley)
        if why is not None:
            return why  # type: ignore[no-any-return]
    return None


def begin(state: GameState, decision: Any, dice: Any) -> tuple[GameState, list[Event]] | None:
    for fn, params in _at(state, "begin"):
        done = fn(state, params, decision, dice)
        if done is not None:
            return done  # type: ignore[no-any-return]
    return None


def begin_wanted(state: GameState, decision: Any) -> bool:
    """A rule acts at the start of this activation (its decision may carry no orders)."""
    squadron = getattr(decision, "squadron", None)
    return bool(squadron) and any(fn(state, params, squadron) for fn, params in _at(state, "announce"))


def watches_moves(state: GameState) -> bool:
    """A rule in force judges a plan by where it leaves the galley ("move"), not by the plan alone ("plan"):
    only then must the activation's check move each galley before any die (turn.scenario_play)."""
    table = HOOKS.get("move", {})
    return any(rule.name in table for rule in rules(state))


def check_move(state: GameState, before: Galley, plan: Any, moved: Galley | None) -> None:
    """IllegalOrder if a special rule forbids this plan (called for each plan, before any die), the rules
    in file order; `moved` (the galley where the plan leaves it) is None only if none `watches_moves`."""
    by_plan, by_move = HOOKS.get("plan", {}), HOOKS.get("move", {})
    for rule in rules(state):
        fn = by_plan.get(rule.name)
        if fn is not None:
            fn(state, rule.params, before, plan)
        fn = by_move.get(rule.name)
        if fn is not None:
            assert moved is not None, "a rule watching moves is in force: move the galley first"
            fn(state, rule.params, before, plan, moved)


def after(state: GameState, keys: tuple[str, ...], before: GameState, events: list[Event]) -> tuple[GameState, list[Event]]:
    out: list[Event] = []
    for fn, params in _at(state, "after"):
        state, more = fn(state, params, keys, before, events)
        out += more
    return state, out


def may_command(state: GameState, commander: str, galley: GalleyId) -> bool:
    return all(fn(state, params, commander, galley) for fn, params in _at(state, "command"))


def commander_barred(state: GameState, commander: str, galley: GalleyId) -> tuple[str, str] | None:
    """Why `commander` may not be aboard `galley` (set-up, transfers)."""
    for fn, params in _at(state, "aboard"):
        why = fn(state, params, commander, galley)
        if why is not None:
            return why  # type: ignore[no-any-return]
    return None


def fatigue_modifiers(state: GameState, galley: Galley) -> list[tuple[str, int]]:
    return [m for fn, params in _at(state, "fatigue") for m in fn(state, params, galley)]


def award_value(state: GameState, galley: Galley) -> int | None:
    for fn, params in _at(state, "value"):
        vp = fn(state, params, galley)
        if vp is not None:
            return vp  # type: ignore[no-any-return]
    return None


def final_bonus(state: GameState) -> tuple[dict[str, int], list[str]]:
    """VP the rules add when the game ends (Actium's leaders), with the reasons."""
    bonus: dict[str, int] = {}
    why: list[str] = []
    for fn, params in _at(state, "final"):
        side, vp, text = fn(state, params)
        if vp:
            bonus[side] = bonus.get(side, 0) + vp
            why.append(text)
    return bonus, why


def secret_wanted(state: GameState) -> Wanted | None:
    """The secret choice the rules wait for now, if any (engine.war_galley.battles.choices answers)."""
    for fn in ALWAYS.get("secret_wanted", []):
        found = fn(state)
        if found is not None:
            return found  # type: ignore[no-any-return]
    return None


def deployment_step(state: GameState, dice: Any) -> tuple[GameState, list[Event]] | None:
    """An automatic step that ends the deployment instead of the first turn (tournament play, 10.0)."""
    for fn in ALWAYS.get("deployment_step", []):
        done = fn(state, dice)
        if done is not None:
            return done  # type: ignore[no-any-return]
    return None
