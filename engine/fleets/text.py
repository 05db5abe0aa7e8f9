"""`pbem board` and `pbem orders` for fleet battles (issue 27: orders are written in paces, so a player needs
every base's place in paces, and a draft to edit): the ruleset's `board(state)` and `draft(state, game)`."""

from __future__ import annotations

from engine.fleets import describe, legal, notation, play, space
from engine.fleets.decisions import Back, Decision, Drift, Move, Place, Shift, Wheel
from engine.fleets.geometry import HEADING_NAMES
from engine.fleets.state import State

OPTIONS_SHOWN = 8  # for each element: enough to show each kind of order, not every listed variant


def board(state: State) -> str:
    """Every base by fleet: id, type, centre in paces, facing, general, contact; then the battle in words."""
    lines = [describe.state_summary(state).replace("; ", "\n"), ""]
    for side in state.sides:
        mine = [e for e in state.elements if e.side == side.key]
        lines.append(f"{side.name} ({len(mine)} on the table):")
        for e in mine:
            kind = state.rules.type(e.type)
            partner = space.front_partner(state, e)
            flags = ["general"] if e.general else []
            if partner is not None:
                flags.append(f"in contact with {partner.id}")
            apart = sorted(f.id for f in mine if f.id != e.id and space.hair_apart(state, e, f))
            if apart:  # version 4: touching, yet no group (rules 5.10)
                flags.append(f"drifted slightly separated from {' '.join(apart)}")
            if state.phase == "move" and e.side == state.moving and e.id in state.done:
                flags.append("moved or drifted")
            lines.append(f"  {e.id:<4} {kind.code:<3} at {e.x},{e.y} facing {HEADING_NAMES[e.heading]}"
                         + (f" ({', '.join(flags)})" if flags else ""))
        waiting = [e.id for e in state.to_place if e.side == side.key]
        if waiting:
            lines.append(f"  to place: {' '.join(waiting)}")
    return "\n".join(lines) + "\n"


def _ids(d: Decision) -> list[str]:
    if isinstance(d, (Move, Drift, Place)):
        return [d.id]
    if isinstance(d, (Back, Shift, Wheel)):
        return list(d.ids)
    return []


def draft(state: State, game: str = "GAME") -> str:
    """The pending decision as an order file: a line to keep (in a bound, `end`), the options as comments."""
    due = play.pending(state)
    if due.side is None or due.finished or due.automatic:
        return f"# nothing to decide now ({due.prompt})\n"
    listed = legal.legal(state)
    lines = [f"# {due.prompt}",
             "# Write one order a line (docs/fleets-orders.md); they are made in turn, then:",
             f"#   pbem move {game} --orders THIS-FILE",
             "# Lines starting with '#' are ignored.", ""]
    if state.phase != "move":
        lines += [notation.format_decision(listed[0]), "", "# Other options the rules allow now:"]
        lines += [f"# {notation.format_decision(d)}" for d in listed[1:40]]
        lines += ["#"] + [f"# {k}" for k in legal.kinds(state)]
        return "\n".join(lines) + "\n"
    lines += ["# your moves here, one a line, before the end", "end", "",
              f"# Orders the rules allow now, by element (pbem legal {game} ID: one element's card;"
              f" pbem board {game}: every base in paces):"]
    for e in state.elements:
        if e.side != state.moving or e.id in state.done:
            continue
        mine = [d for d in listed if e.id in _ids(d) and (not isinstance(d, (Back, Shift, Wheel)) or d.ids[0] == e.id)]
        lines.append(f"# {describe.element_line(state, e.id)}:")
        lines += [f"#   {notation.format_decision(d)}" for d in mine[:OPTIONS_SHOWN]]
        if len(mine) > OPTIONS_SHOWN:
            lines.append(f"#   ... and {len(mine) - OPTIONS_SHOWN} more (pbem legal {game})")
    lines += ["#", "# The kinds of order and their bounds:"] + [f"# {k}" for k in legal.kinds(state)]
    return "\n".join(lines) + "\n"
