"""`pbem board GAME`: every galley's position, facing and markers as text, for terminals.

The reports draw the map; this is the list a player reads beside it. Facings
are the six hexside directions of docs/orders.md (0 up, clockwise to 5).
"""

from __future__ import annotations

from typing import Any

from engine.war_galley.map_and_galleys.galley import Galley
from engine.war_galley.map_and_galleys.position import format_position
from engine.war_galley.turn.state import GameState, galley_key


def board_data(state: GameState) -> dict[str, Any]:
    """JSON values: the wind, then per side its galleys on and off the map (docs/cli.md, "board")."""
    map_ = state.board.map
    sides = []
    for side in state.sides:
        galleys = []
        for g in sorted((g for g in state.galleys if state.controller(g) == side.key), key=lambda g: galley_key(g.id)):
            aboard = [c.name for c in state.commanders if c.galley == g.id]
            galleys.append({
                "galley": str(g.id), "type": g.ratings.type,
                "position": format_position(g.position, map_) if g.position is not None else None,
                "facing": int(g.position.facing) if g.position is not None else None,
                "markers": markers(g), "commanders": aboard,
            })
        sides.append({"side": side.key, "name": side.name, "galleys": galleys})
    wind = None if state.wind is None else {"direction": int(state.wind.direction), "strength": state.wind.strength}
    return {"turn": state.turn, "wind": wind, "sides": sides}


def board_text(state: GameState) -> str:
    data = board_data(state)
    wind = data["wind"]
    lines = [f"turn {data['turn']}; wind: " + (f"blowing toward facing {wind['direction']}, strength {wind['strength']}"
                                               if wind else "none (or Dead Calm)")]
    for side in data["sides"]:
        on = [g for g in side["galleys"] if g["position"] is not None]
        lines.append(f"{side['name']} ({side['side']}): {len(on)} galleys on the map")
        for g in side["galleys"]:
            where = f"{g['position']:<14} facing {g['facing']}" if g["position"] else f"{'off the map':<23}"
            aboard = f"  [{', '.join(g['commanders'])}]" if g["commanders"] else ""
            lines.append(f"  {g['galley']:<9} {where}  {', '.join(g['markers'])}{aboard}")
    return "\n".join(lines)


def markers(galley: Galley) -> list[str]:
    """The markers and statuses on the counter, in the rulebook's words."""
    out = [f"{galley.speed.value.capitalize()} Speed"] if galley.position is not None else []
    flags = [
        (galley.fatigue > 0, f"Fatigued F-{galley.fatigue}"), (galley.half_speed, "Half Speed"),
        (bool(galley.crippled), "Crippled " + " ".join(sorted(s.value for s in galley.crippled))),
        (galley.rammed, "Rammed"), (bool(galley.fouled_with), "Fouled with " + _ids(galley.fouled_with)),
        (bool(galley.grappled_with), "Grappled with " + _ids(galley.grappled_with)),
        (galley.capture.value != "none", f"{galley.capture.value.capitalize()}"),
        (galley.sails_up, "Sails up"), (galley.mast_down, "Mast Down"), (galley.on_fire, "On Fire"),
        (galley.towers_jettisoned, "Towers jettisoned"), (galley.aground is not None, "Run Aground"),
        (galley.depletions > 0, f"{galley.depletions} Depletion(s)"),
        (galley.removed is not None, f"removed: {galley.removed.value if galley.removed else ''}"),
    ]
    return out + [text for on, text in flags if on]


def _ids(ids: Any) -> str:
    return " ".join(sorted(str(i) for i in ids))
