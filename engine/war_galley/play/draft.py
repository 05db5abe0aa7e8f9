"""`pbem orders GAME`: the pending decision as an editable order file, the options as comments.

The option offered by default stands as the one order line (`preferred`: an
order that saves a file and loses nothing first, never an activation that
orders nothing while one that acts is listed); every other option, and for an
activation each galley's speed side and MP and every attack open now with
the roll it needs, follows as `#` comments. At the set-up the standing
reactions are offered too, explained, as a line to keep or delete. The file goes back unchanged or edited through
`pbem move GAME --orders FILE`, which skips the comment lines, and is checked
as any typed order is.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.play import attacks, reactions_text
from engine.war_galley.play.shortcuts import uses_shortcut
from engine.war_galley.turn import sequence
from engine.war_galley.turn.activation import allowed
from engine.war_galley.turn.decisions import Activate, AnyDecision, Individual, Reactions, Standing, Transfer
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


def _rank(decision: AnyDecision) -> int:
    if isinstance(decision, Individual) and uses_shortcut(decision):
        return 0 if decision.then is None else -1  # the Crew check both ways (5.31); with the next galley
    if isinstance(decision, Activate) and not (decision.plans or decision.refloat or decision.disengage
                                               or decision.fire or decision.grapple):
        return 2  # 5.41: still activated, does nothing
    if isinstance(decision, (Reactions, Standing, Transfer)):
        return 3  # beside the decision asked for, not in its place
    return 1


def preferred(decisions: Sequence[AnyDecision]) -> list[AnyDecision]:
    """The listing in the order the draft offers it (the generator's order within each rank)."""
    return sorted(decisions, key=_rank)


REACTIONS_NOTE = [
    "# Standing reactions (6.5, 6.7, 8.42; docs/reactions.md): what your galleys do when the enemy",
    "# attacks them on his turn; you are not asked then. Ordered none, they never avoid a ram and never",
    "# fire back. Keep the next line to order them (edit it, or delete it to keep none); change them later",
    "# with any decision of yours.",
]


def draft(state: GameState, options: Sequence[str], game: str = "GAME", reactions: str = "") -> str:
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
        *([*REACTIONS_NOTE, f"#   now: {reactions_text.reactions_summary(state)}", reactions, ""]
          if reactions else []),
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
    if due.kind in attacks.KINDS:
        lines += ["#"] + [f"# {line}" for line in attacks.attack_lines(state)]
    return "\n".join(lines) + "\n"
