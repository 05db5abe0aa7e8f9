"""The decision as things to click (`pbem play`, issue 25): the fleets ruleset's `play_options(state, picks)`.

Built from the one legal-order generator (engine.fleets.legal), so every click
builds an order `play.apply` accepts and every listed order is one or two
clicks away. An element first (`p:ID`, any element some listed order moves,
places or drifts), then one of its orders (`l:N`, N its index in `legal`), each
with where the base ends (the outline drawn on the table), the distance the
rules measure (rules 5) and the contact it makes; orders of no one element
(end the bound, place the rest, terrain, wind, the attacker's side) are
offered at once as a form of the legal options. Shapes are in the report
table's frame (engine.fleets.view: paces, y down).
"""

from __future__ import annotations

from typing import Any

from engine.fleets import play
from engine.fleets.decisions import Back, Decision, Drift, Move, Place, Shift, Wheel
from engine.fleets.errors import IllegalOrder
from engine.fleets.events import Moved
from engine.fleets.geometry import UNIT, length_up
from engine.fleets.legal import _NoDice, legal
from engine.fleets.notation import format_decision
from engine.fleets.state import State

RULE = "play"  # a click path naming no offered option: a bad request, not a rule of the book


def play_options(state: State, picks: list[str]) -> dict[str, Any]:
    due = play.pending(state)
    if due.finished or due.side is None or due.automatic:
        return {"offered": False, "side": None, "prompt": due.prompt or "nothing to decide now", "options": [],
                "order": None, "steps": [], "paths": [], "card": None}
    listed = legal(state)
    if not picks:
        pieces = sorted({p for d in listed for p in _pieces(d)}, key=_natural)
        options = [{"key": f"p:{p}", "kind": "piece", "piece": p, "label": f"orders for {p}"} for p in pieces]
        options += [_option(state, n, d) for n, d in enumerate(listed) if not _pieces(d)]
        return _answer(due.side, due.prompt, [], options, None)
    first = picks[0]
    if first.startswith("l:") and len(picks) == 1:
        decision = _listed(listed, first)
        return _answer(due.side, due.prompt, [format_decision(decision)], [], format_decision(decision))
    if first.startswith("p:"):
        piece = first[2:]
        mine = [(n, d) for n, d in enumerate(listed) if piece in _pieces(d)]
        if not mine:
            raise IllegalOrder(RULE, f"{piece}: no element with an order to give now")
        if len(picks) == 1:
            return _answer(due.side, due.prompt, [piece], [_option(state, n, d) for n, d in mine], None, piece)
        if len(picks) == 2 and picks[1] in {f"l:{n}" for n, _ in mine}:
            decision = _listed(listed, picks[1])
            text = format_decision(decision)
            return _answer(due.side, due.prompt, [piece, text], [], text, piece)
    raise IllegalOrder(RULE, f"{' '.join(picks)}: not one of the options offered")


def _answer(side: str, prompt: str, steps: list[str], options: list[dict[str, Any]], order: str | None,
            piece: str | None = None) -> dict[str, Any]:
    return {"offered": True, "side": side, "prompt": prompt, "steps": steps, "options": options, "order": order,
            "paths": [], "card": {"galley": piece} if piece else None}


def _pieces(decision: Decision) -> list[str]:
    if isinstance(decision, (Move, Drift, Place)):
        return [decision.id]
    if isinstance(decision, (Back, Shift, Wheel)):
        return list(decision.ids)
    return []


def _natural(ident: str) -> tuple[str, int]:
    head = ident.rstrip("0123456789")
    return head, int(ident[len(head):] or 0)


def _listed(listed: list[Decision], key: str) -> Decision:
    if not key.startswith("l:") or not key[2:].isdigit() or int(key[2:]) >= len(listed):
        raise IllegalOrder(RULE, f"{key}: not one of the options offered")
    return listed[int(key[2:])]


def _option(state: State, n: int, decision: Decision) -> dict[str, Any]:
    """One listed order; for a base that moves or is placed, where it ends and how far (rules 5)."""
    text = format_decision(decision)
    option: dict[str, Any] = {"key": f"l:{n}", "kind": "legal", "label": text}
    ids = _pieces(decision)
    if not ids or isinstance(decision, Drift):  # a drift's end needs carrying out (engine.fleets.legal.check)
        return option
    after, events = play.apply(state, decision, _NoDice())
    moved, before = after.element(ids[0]), state.element(ids[0])
    if moved is None:
        return option
    option["kind"] = "end"
    option["shape"] = _base(state, moved.x, moved.y, moved.heading)
    if before is not None and isinstance(decision, (Move, Back, Shift, Wheel)):
        # the distance the rules measure (a wheel by its outer front corner), else the way the base went
        measured = [e.cost for e in events if isinstance(e, Moved)]
        option["cost"] = measured[0] if measured else length_up(moved.x - before.x, moved.y - before.y)
        option["label"] = f"{text}: {option['cost']}p" + (f", into contact with {decision.contact}"
                                                          if isinstance(decision, Move) and decision.contact else "")
    else:
        option["cost"] = ""
    return option


def _base(state: State, x: int, y: int, heading: int) -> dict[str, Any]:
    """A base's outline in the table's SVG frame (y down), as engine.fleets.view draws it."""
    size = state.terrain.size if state.terrain is not None else state.rules.numbers.table
    half = state.half
    fx, fy = UNIT[heading]
    px, py = fy, -fx
    corners = [(x + a * fx * half + b * px * half, y + a * fy * half + b * py * half)
               for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))]
    return {"points": " ".join(f"{cx},{size - cy}" for cx, cy in corners), "x": x, "y": size - y, "angle": 0}


__all__ = ["play_options"]


def explain(state: State, subject: str | None) -> tuple[dict[str, Any], str]:
    """One element's card for the board and `pbem legal GAME ID`: its type's ratings (rules 2), where it is,
    its facing and contact; without a subject, the battle in words."""
    from engine.fleets import describe, report_view, space
    if subject is None:
        return {"summary": describe.state_summary(state)}, describe.state_summary(state)
    for sheet in report_view.sheets(state, None):
        for row in sheet["elements"]:
            if row["id"] == subject:
                element = state.element(subject)
                partner = space.front_partner(state, element) if element is not None else None
                data = dict(row, fleet=sheet["name"], contact=partner.id if partner else "",
                            moves_left=state.pips if state.moving == sheet["key"] else None)
                text = (f"{subject} ({sheet['name']}): {row['type_name'] or row['type']}, combat value "
                        f"{row['cv']:+d}, speed {row['speed']}p" + (", general" if row["general"] else "") +
                        (f"\nat {row['position']} facing {row['facing']}" if row["position"] else "") +
                        f"\n{row['status']}" + (f", in contact with {partner.id}" if partner else ""))
                return data, text
    raise IllegalOrder("rules 2", f"no element {subject} in this battle")
