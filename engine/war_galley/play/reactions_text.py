"""Each side's standing reaction orders, and its standing orders for phases B-D, in a few words, for
`pbem status` (through the ruleset's describe).

A side that has ordered none reacts by 6.5's fallback, the rules' STANDING
orders: it never avoids and never fires back (docs/reactions.md). Players
are told so from the set-up on, because a side that forgets to order
reactions meets every ram without avoiding it.
"""

from __future__ import annotations

from engine.war_galley.galley_combat.reactions import STANDING, AvoidWhen, FireReaction, format_reaction
from engine.war_galley.turn import standing
from engine.war_galley.turn.state import GameState


def _default_words() -> str:
    avoid = "never avoid" if STANDING.avoid is AvoidWhen.NEVER else f"avoid={STANDING.avoid.value}"
    fire = "never fire back" if STANDING.fire is FireReaction.NEVER else f"fire={STANDING.fire.value}"
    return f"{avoid}, {fire}"


def reactions_summary(state: GameState) -> str:
    ordered = dict(state.reactions)
    parts = []
    for side in state.sides:
        orders = ordered.get(side.key)
        if orders is None:
            parts.append(f"{side.name} none ordered ({_default_words()})")
            continue
        text = f"{side.name} {format_reaction(orders.default).strip() or 'default only'}"
        if orders.overrides:
            text += f", own orders for {' '.join(str(o.galley) for o in orders.overrides)}"
        parts.append(text)
    hint = " (order with `reactions: ...`, docs/reactions.md)" if len(ordered) < len(state.sides) else ""
    return "standing reactions: " + "; ".join(parts) + hint


def standing_summary(state: GameState) -> str:
    """Each side's standing orders for phases B-D (engine.war_galley.turn.standing), "" when none is set."""
    parts = []
    for side in state.sides:
        orders = []
        if standing.squadrons_by_range(state, side.key):
            orders.append("squadrons by range (5.24)")
        first = standing.first(state, side.key)
        if first:
            orders.append(f"{first} first if it wins the initiative (3.2)")
        level = standing.speed(state, side.key)
        if level:
            orders.append(f"every squadron {level} (6.12)")
        if orders:
            parts.append(f"{side.name} " + ", ".join(orders))
    return "standing orders: " + "; ".join(parts) if parts else ""
