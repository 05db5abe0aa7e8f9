"""What combat results cost (9.1, 5.53, 9.2): the VP and the commanders, read from the rules' events.

The combat rules (7, 8) return galleys and events; this module turns the
events that change the score or lose a commander into the game state's
awards and commander moves:

- a galley Rammed (7.16) or Run Aground (6.31): its Ram Defense to the enemy;
- sunk (7.17, dragged down too) or burnt and sunk (8.54): the same VP (if
  not already held) and its commanders are lost (5.53, maybe 9.2);
- Captured (8.25): Ram Defense plus the Capture Bonus, and its commanders
  are lost; Recaptured (8.26): the captor gives the capture VP back.

`before` holds the galleys as they were before the events (a lost galley's
last position places its commanders, 5.53).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.dice import Dice
from engine.events import Event
from engine.war_galley.galley_combat.ramming import RamResolved, RamResult
from engine.war_galley.galley_combat.sinking import Sank
from engine.war_galley.manpower_combat.boarding import Captured
from engine.war_galley.manpower_combat.fire import SankByFire
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.movement.moving import RanAground
from engine.war_galley.turn import commanders, victory
from engine.war_galley.turn.state import GameState

RAMMED = (RamResult.RETRACTED, RamResult.FOULED)


def settle(state: GameState, events: Iterable[Event], before: Mapping[GalleyId, Galley],
           dice: Dice) -> tuple[GameState, list[Event]]:
    """The state with the VP and commander losses `events` bring; the events that says so."""
    out: list[Event] = []
    for event in events:
        if state.result is not None:
            break  # 9.2: a fleet withdrew
        more: list[Event] = []
        if isinstance(event, RamResolved) and event.result in RAMMED:
            state, more = victory.damaged(state, event.target, "rammed")
        elif isinstance(event, RanAground):
            state, more = victory.damaged(state, event.galley, "ran aground")
        elif isinstance(event, (Sank, SankByFire)):
            how = "burnt and sunk" if isinstance(event, SankByFire) else "sunk"
            state, more = victory.damaged(state, event.galley, how)
            state, lost = commanders.galley_lost(state, before[event.galley], dice)
            more += lost
        elif isinstance(event, Captured):
            if event.recaptured:
                state, more = victory.recaptured(state, event.galley)
            else:
                state, more = victory.captured(state, event.galley)
                state, lost = commanders.galley_lost(state, before[event.galley], dice)
                more += lost
        out += more
    return state, out
