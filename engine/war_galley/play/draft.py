"""`pbem orders GAME`: the pending decision as an editable order file, the options as comments.

The first option the legal-action generator lists stands as the one order
line; every other option, and for an activation each galley's speed side and
MP, follows as `#` comments. The file goes back unchanged or edited through
`pbem move GAME --orders FILE`, which skips the comment lines, and is checked
as any typed order is.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.turn import sequence
from engine.war_galley.turn.activation import allowed
from engine.war_galley.turn.state import GameState

OPTIONS_SHOWN = 40


def _galley_lines(state: GameState, side: str) -> list[str]:
    """For an activation: each galley of the squadrons it may name, its speed side and MP now."""
    keys = [k for pair in allowed(state, side) for k in pair if k]
    if state.current is not None:
        keys = list(state.current.squadrons)
    out = []
    for key in dict.fromkeys(keys):
        galleys = []
        for gid in state.squadron(key).galleys:
            g = state.galley(gid)
            if g.position is None:
                continue
            galleys.append(f"{gid} {g.speed.value} {speed_limit(g, g.speed, state.wind).mp} MP")
        out.append(f"#   {key}: " + (", ".join(galleys) or "no galley on the map"))
    return out


def draft(state: GameState, options: Sequence[str], game: str = "GAME") -> str:
    """The draft text; `options` are the legal decisions as order lines, in the generator's order."""
    due = sequence.decision_due(state)
    if due is None or not options:
        return f"# nothing to decide now ({sequence.describe_phase(state)})\n"
    lines = [
        f"# {sequence.describe_phase(state)}: {due.prompt}",
        "# Keep one decision line (not starting with '#'), edit it, then:",
        f"#   pbem move {game} --orders THIS-FILE",
        "# Lines starting with '#' are ignored. A reactions line may come first (docs/orders.md).",
        "",
        options[0],
        "",
        "# Other options the rules allow now (examples; see docs/orders.md for the notation):",
    ]
    lines += [f"# {o}" for o in options[1:OPTIONS_SHOWN]]
    if len(options) > OPTIONS_SHOWN:
        lines.append(f"# ... and {len(options) - OPTIONS_SHOWN} more (pbem legal {game})")
    if due.kind in ("activate", "individual"):
        lines += ["#", "# Galleys, speed side and MP now (each galley's end positions and targets:",
                  f"#   pbem legal {game} GALLEY):"]
        lines += _galley_lines(state, due.side)
    return "\n".join(lines) + "\n"
