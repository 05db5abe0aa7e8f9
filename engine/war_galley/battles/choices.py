"""When the rules ask for a secret choice, and what its opening does (engine.war_galley.battles.secrets' callers).

- Actium: after the Antonian deployment, `commit treasure: GALLEY`; `open
  treasure` when a Reserve galley is captured or leaves by the south edge.
- Tournament play (engine.war_galley.battles.tournament): both fleets committed, then opened.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from engine.errors import IllegalOrder, WrongPlayer
from engine.events import Event
from engine.memo import by_identity
from engine.war_galley.battles import secrets, tournament
from engine.war_galley.turn.hooks import Params, Wanted, always, rules
from engine.war_galley.turn.state import GameState


class SecretRule(NamedTuple):
    """A battle's secret choice, registered by the battle's module under the special rule that asks for it
    (Actium's `treasure_ship`): this module never imports a battle, so a game loads only its own."""

    wanted: Callable[[GameState, Params], Wanted | None]  # the choice the rule waits for now, if any
    opened: Callable[[GameState, str], tuple[GameState, list[Event]]]  # checks the value, then what it does
    examples: Callable[[GameState], list[str]]  # example values for listings


SECRETS: dict[str, SecretRule] = {}  # special rule name -> its secret choice


def _in_force(state: GameState) -> tuple[SecretRule, Params] | None:
    return next(((SECRETS[r.name], r.params) for r in rules(state) if r.name in SECRETS), None)


@by_identity(4)  # asked of one state by the sequence (who decides next) and again by the apply
def wanted(state: GameState) -> Wanted | None:
    """The secret choice the rules wait for now, if any."""
    if state.result is not None:
        return None
    if state.extra.tournament:
        found = tournament.wanted(state)
        return Wanted(*found) if found is not None else None
    found = _in_force(state)
    return found[0].wanted(state, found[1]) if found is not None else None


def apply(state: GameState, decision: dict[str, Any]) -> tuple[GameState, list[Event]]:
    secret = secrets.read(decision)
    want = wanted(state)
    if want is None:
        raise IllegalOrder("protocol", f"no secret choice is wanted now ({secret.verb} {secret.label})")
    if secret.label != want.label:
        raise IllegalOrder(want.rule, f"the rules want `{want.kind} {want.label}` now, not {secret.label}")
    if want.kind == "commit":
        return secrets.commit(state, want.side, secret, want.rule)
    state, opened, events = secrets.open_(state, want.side, secret, want.rule)
    if state.extra.tournament:
        state, more = tournament.opened(state, opened)
        return state, events + more
    found = _in_force(state)
    assert found is not None, "a secret was wanted, so its rule is in force"
    state, more = found[0].opened(state, opened.value or "")
    return state, events + more


def listed(state: GameState) -> list[dict[str, str]]:
    """Example decisions for listings; a commitment's real salt is the player's (pbem derives it)."""
    want = wanted(state)
    if want is None:
        return []
    found = _in_force(state)
    if state.extra.tournament:
        values = tournament.example_values(state, want.side)
    else:
        values = found[0].examples(state) if found is not None else []
    if want.kind == "commit":
        return [secrets.example_commit(want.label, v) for v in values]
    return [secrets.example_open(want.label)]


__all__ = ["SecretRule", "SECRETS", "Wanted", "wanted", "apply", "listed", "WrongPlayer"]


always("secret_wanted")(wanted)  # the sequence asks the hook interface, never this module
