"""Each side's standing reaction orders in a few words, for `pbem status` (through the ruleset's describe).

A side that has ordered none reacts by 6.5's fallback, the rules' STANDING
orders: it never avoids and never fires back (docs/reactions.md). Players
are told so from the set-up on, because a side that forgets to order
reactions meets every ram without avoiding it.
"""

from __future__ import annotations

from engine.war_galley.galley_combat.reactions import STANDING, AvoidWhen, FireReaction, format_reaction
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
