"""The order notation of combat steps (docs/combat-orders.md).

    G3-12 max 6: F F R:R5-3            ram R5-3; Retracting, backwater straight back
    G3-12 max 6: F F R:R5-3:BP F F     ...backwater into the port Stern/Flank hex; F F if it avoids
    G3-12 max 6: F K:R5-3 F F F F      rake R5-3 on the pass just made
    G3-12 max 6: F F X:R5-3:P F F      Pass-Through R5-3 along its port side, raking it
    G3-12 max 6: F F X:R5-3:P:R5-4 F F ...raking R5-4 beside it instead
    G3-1 max 6: A:R5-3:S               Anastrophe on R5-3, passing its starboard side

A combat token is a letter, a colon and the target's galley id, then optional
colon-separated parts in any order: `P`/`S` a side, `B`/`BP`/`BS`/`stay` the
Retraction, another galley id the galley to rake (Pass-Through only).
`format_combat_step` writes them in a fixed order, leaving defaults out, so
parse and format round-trip. `parse_combat_order` reads a whole order whose
other tokens are movement steps (engine.orders).
"""

from __future__ import annotations

import re

from engine.combat_steps import Anastrophe, CombatStep, PassThrough, Rake, Ram
from engine.errors import NotationError
from engine.galley import GalleyId, format_galley_id, parse_galley_id
from engine.orders import format_order, format_step, parse_step
from engine.position import Side
from engine.ramming import Retreat
from engine.ratings import SpeedSide
from engine.steps import Plan, Step

KINDS: dict[str, type[CombatStep]] = {"R": Ram, "K": Rake, "X": PassThrough, "A": Anastrophe}
_LETTER = {kind: letter for letter, kind in KINDS.items()}
_SIDES = {"P": Side.PORT, "S": Side.STARBOARD}
_SIDE_TEXT = {side: letter for letter, side in _SIDES.items()}

_RETREATS = {retreat.value.upper(): retreat for retreat in Retreat}


def is_combat_token(token: str) -> bool:
    return ":" in token and token.split(":", 1)[0].upper() in KINDS


def parse_combat_step(token: str) -> CombatStep:
    """Read `R:R5-3`, `K:R5-3:P`, `X:R5-3:S:R5-4`, `A:R5-3:P:stay`..."""
    parts = token.strip().split(":")
    letter = parts[0].upper()
    if letter not in KINDS or len(parts) < 2:
        raise NotationError(f"not a combat step: {token!r} (e.g. R:R5-3, K:R5-3, X:R5-3:P, A:R5-3)")
    kind = KINDS[letter]
    target = parse_galley_id(parts[1])
    side: Side | None = None
    retract: Retreat | None = None
    rake: GalleyId | None = None
    for part in parts[2:]:
        word = part.strip().upper()
        if word in _SIDES and side is None and kind is not Ram:
            side = _SIDES[word]
        elif word in _RETREATS and retract is None and kind in (Ram, Anastrophe):
            retract = _RETREATS[word]
        elif kind is PassThrough and rake is None and word not in _SIDES:
            rake = parse_galley_id(part)
        else:
            raise NotationError(f"{token!r}: {part!r} is out of place in {kind.__name__} (or given twice)")
    if kind is Ram:
        return Ram(target, retract or Retreat.STERN)
    if kind is Rake:
        return Rake(target, side)
    if kind is PassThrough:
        return PassThrough(target, side, rake)
    return Anastrophe(target, side, retract or Retreat.STERN)


def format_combat_step(step: CombatStep) -> str:
    parts = [_LETTER[type(step)], format_galley_id(step.target)]
    side = getattr(step, "side", None)
    if side is not None:
        parts.append(_SIDE_TEXT[side])
    if isinstance(step, PassThrough) and step.rake is not None:
        parts.append(format_galley_id(step.rake))
    retract = getattr(step, "retract", Retreat.STERN)
    if retract is not Retreat.STERN:
        parts.append(retract.value)
    return ":".join(parts)


_ORDER = re.compile(r"\s*(\S+)\s+([A-Za-z]+)\s+(\d+)\s*:(.*)", re.DOTALL)
_SPEEDS = {"cruise": SpeedSide.CRUISE, "c": SpeedSide.CRUISE, "max": SpeedSide.MAXIMUM,
           "maximum": SpeedSide.MAXIMUM, "m": SpeedSide.MAXIMUM}


def parse_combat_order(text: str) -> Plan:
    """A movement order (engine.orders) whose steps may include combat tokens."""
    match = _ORDER.fullmatch(text)
    if match is None:
        raise NotationError(f"not an order: {text!r} (expected e.g. 'G3-12 max 6: F F R:R5-3')")
    galley_text, speed_text, mp_text, steps_text = match.groups()
    speed = _SPEEDS.get(speed_text.lower())
    if speed is None:
        raise NotationError(f"speed {speed_text!r}: say cruise or max")
    steps: list[Step] = []
    for token in re.split(r"[\s,]+", steps_text.strip()):
        if not token:
            continue
        if is_combat_token(token):
            steps.append(parse_combat_step(token))
        else:
            steps.extend(parse_step(token))
    return Plan(parse_galley_id(galley_text), speed, int(mp_text), tuple(steps))  # type: ignore[arg-type]


def format_combat_order(plan: Plan) -> str:
    """Write a plan with combat steps; `parse_combat_order` reads it back to the same plan."""
    head = format_order(Plan(plan.galley, plan.speed, plan.mp))
    words = [format_combat_step(s) if isinstance(s, (Ram, Rake, PassThrough, Anastrophe)) else format_step(s)
             for s in plan.steps]
    return " ".join([head, *words]) if words else head
