"""When the rules ask for a secret choice, and what its opening does (engine.war_galley.battles.secrets' callers).

- Actium: after the Antonian deployment, `commit treasure: GALLEY`; `open
  treasure` when a Reserve galley is captured or leaves by the south edge.
- Tournament play (engine.war_galley.battles.tournament): both fleets committed, then opened.
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalOrder, WrongPlayer
from engine.events import Event
from engine.memo import by_identity
from engine.war_galley.battles import actium, secrets, tournament
from engine.war_galley.turn.hooks import Wanted, always
from engine.war_galley.turn.state import GameState, Phase


@by_identity(4)  # asked of one state by the sequence (who decides next) and again by the apply
def wanted(state: GameState) -> Wanted | None:
    """The secret choice the rules wait for now, if any."""
    if state.result is not None:
        return None
    if state.extra.tournament:
        found = tournament.wanted(state)
        return Wanted(*found) if found is not None else None
    params = actium.treasure_rule(state)
    if params is None:
        return None
    side = params["side"]
    if actium.commitment(state) is None:
        if state.phase is Phase.DEPLOYMENT and not state.deploy:
            return Wanted(side, "commit", actium.LABEL, f"{state.side(side).name}: write down in secret which "
                          "Reserve galley carries the Treasury: commit treasure: GALLEY", actium.RULE)
        return None
    if actium.open_due(state):
        return Wanted(side, "open", actium.LABEL, f"{state.side(side).name}: a Reserve galley is taken or gone "
                      "south; open treasure", actium.RULE)
    return None


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
    actium.check_value(state, opened.value or "")
    state, more = actium.awards(state)
    return state, events + more


def listed(state: GameState) -> list[dict[str, str]]:
    """Example decisions for listings; a commitment's real salt is the player's (pbem derives it)."""
    want = wanted(state)
    if want is None:
        return []
    values = tournament.example_values(state, want.side) if state.extra.tournament else actium.example_values(state)
    if want.kind == "commit":
        return [secrets.example_commit(want.label, v) for v in values]
    return [secrets.example_open(want.label)]


__all__ = ["Wanted", "wanted", "apply", "listed", "WrongPlayer"]


always("secret_wanted")(wanted)  # the sequence asks the hook interface, never this module
