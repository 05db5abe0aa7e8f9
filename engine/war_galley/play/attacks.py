"""`pbem legal GAME` and the draft answer "can any galley of mine attack now?" in one listing.

Every galley the pending decision may order (the squadrons an activation may
name, the Individual Squadron galleys left, the galleys that may board),
each with the targets it can ram, rake, grapple, board or fire at now and
the roll it needs: the same targets and rolls as `pbem legal GAME GALLEY`
(engine.war_galley.play.explain), from the same planner. An Individual
Squadron galley's are those it has if free (5.31: held, it may not close).
"""

from __future__ import annotations

from engine.war_galley.map_and_galleys.galley import GalleyId
from engine.war_galley.play import explain
from engine.war_galley.turn import boarding_segment
from engine.war_galley.turn.activation import allowed, squadrons_left
from engine.war_galley.turn.sequence import decision_due
from engine.war_galley.turn.state import GameState

KINDS = ("activate", "individual", "board")


def candidates(state: GameState) -> list[GalleyId]:
    """The galleys the pending decision may order, in squadron order."""
    due = decision_due(state)
    if due is None or due.kind not in KINDS:
        return []
    if due.kind == "board":
        return [g.id for g in boarding_segment.boarders(state, state.boarders)]
    if due.kind == "individual":
        keys = [s.key for s in squadrons_left(state, due.side, True)]
    else:
        keys = [k for pair in allowed(state, due.side) for k in pair if k]
    galleys = [g for key in dict.fromkeys(keys) for g in state.squadron(key).galleys]
    return [g for g in galleys if state.galley(g).position is not None and state.controller(state.galley(g)) == due.side]


def attack_lines(state: GameState) -> list[str]:
    """One line per galley and target, with the roll and the order that makes the attack; [] when the
    pending decision orders no galley."""
    galleys = candidates(state)
    if not galleys:
        return []
    lines = []
    for gid in galleys:
        for target in explain.galley_report(state, str(gid))["targets"]:
            roll = f", needs {explain._roll_text(target['roll'])}" if "roll" in target else ""
            lines.append(f"  {gid} {target['action']} {target['target']}{roll}: {target['order']}")
    if not lines:
        return [f"attacks open now: none (no galley of {len(galleys)} can ram, rake, grapple, board or fire)"]
    return ["attacks open now (galley, target, the roll it needs, the order):", *lines]
