"""Movement orders as a player types them in an email (docs/orders.md).

    G3-12 max 6: F F P F F F
    Rcat3-5 cruise 3: B BP
    G5-86 cruise 0:

One order a line: galley id, speed side (`cruise` or `max`), the announced MP,
a colon, then the steps separated by spaces. `parse_order` / `format_order`
round-trip: parsing what `format_order` prints gives the same `Plan`.

Combat steps are a letter, a colon and a target (`R:R5-3`, `K:R5-3:P`,
`X:R5-3:P`, `A:R5-3`; docs/combat-orders.md), read and written by
`engine.war_galley.play.orders`; `J` jettisons Towers (8.48).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from engine.errors import NotationError
from engine.numerals import shown, whole
from engine.war_galley.galley_combat.combat_steps import Anastrophe, CombatStep, PassThrough, Rake, Ram
from engine.war_galley.galley_combat.ramming import Retreat
from engine.war_galley.map_and_galleys.galley import GalleyId, format_galley_id, parse_galley_id
from engine.war_galley.map_and_galleys.position import Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide
from engine.war_galley.movement.steps import (
    AnyStep,
    Backwater,
    BowFlank,
    FacingChange,
    Forward,
    Half,
    JettisonTowers,
    LowerSails,
    Plan,
    RaiseSails,
    TurnAround,
)

P, S = Side.PORT, Side.STARBOARD

TOKENS: dict[str, AnyStep] = {
    "F": Forward(),
    "P": BowFlank(P),
    "S": BowFlank(S),
    "B": Backwater(),
    "BP": Backwater(P),
    "BS": Backwater(S),
    "TP": FacingChange(P),
    "TS": FacingChange(S),
    "TPS": FacingChange(P, Half.STERN),
    "TSS": FacingChange(S, Half.STERN),
    "TPB": FacingChange(P, Half.BOW),
    "TSB": FacingChange(S, Half.BOW),
    "TA": TurnAround(),
    "SU": RaiseSails(),
    "SD": LowerSails(),
}
JETTISON = "J"  # 8.48; not a manoeuvre, so kept apart from TOKENS (the planner's moves)
_TEXT: dict[AnyStep, str] = {step: token for token, step in TOKENS.items()} | {JettisonTowers(): JETTISON}


_SPEEDS = {"cruise": SpeedSide.CRUISE, "c": SpeedSide.CRUISE, "max": SpeedSide.MAXIMUM,
           "maximum": SpeedSide.MAXIMUM, "m": SpeedSide.MAXIMUM}
_SPEED_TEXT = {SpeedSide.CRUISE: "cruise", SpeedSide.MAXIMUM: "max"}

_ORDER = re.compile(r"\s*(\S+)\s+([A-Za-z]+)\s+(\d+)\s*:(.*)", re.DOTALL)
_REPEAT = re.compile(r"(\d+)([A-Za-z]+)")
_TOKEN = re.compile(r"[^\s,]+")

# Bounds of the notation, far above any galley's Speed Rating (6.11: the
# counters here print at most 8 MP; 8.48 adds one): an announced MP, a repeat
# count (`3F`) and a plan's steps are refused past them before anything is
# built from them (`10**21F` raised OverflowError, `10**9F` filled the memory).
MOST_MP = 99
MOST_STEPS = 99


def _mp(text: str) -> int:
    mp = whole(text, MOST_MP)
    if mp is None:
        raise NotationError(f"announced MP {shown(text)}: a whole number from 0 to {MOST_MP}")
    return mp


def _tokens(steps_text: str) -> Iterator[str]:
    """The step tokens, one at a time: a flood of them is refused at the first past the bound."""
    for match in _TOKEN.finditer(steps_text):
        yield match.group()


def _plan(galley_text: str, speed: SpeedSide, mp_text: str, steps: list[AnyStep]) -> Plan:
    if len(steps) > MOST_STEPS:
        raise NotationError(f"more than {MOST_STEPS} steps in one order")
    return Plan(parse_galley_id(galley_text), speed, _mp(mp_text), tuple(steps))


def parse_step(token: str) -> list[AnyStep]:
    """One token: a step, or a count and a step (`3F` is `F F F`), or a combat step (`R:R5-3`)."""
    if ":" in token:

        return [parse_combat_step(token)]
    count, word = 1, token
    repeat = _REPEAT.fullmatch(token)
    if repeat is not None:
        count, word = whole(repeat.group(1), MOST_STEPS) or 0, repeat.group(2)
        if not 0 < count:
            raise NotationError(f"step {shown(token)}: repeat a step 1 to {MOST_STEPS} times (e.g. 3F)")
    step = JettisonTowers() if word.upper() == JETTISON else TOKENS.get(word.upper())
    if step is None:
        raise NotationError(f"unknown step {token!r}; steps are {' '.join(TOKENS)} J and R: K: X: A: (combat)")
    return [step] * count


def parse_order(text: str) -> Plan:
    """Read one movement order, e.g. `G3-12 max 6: F F P F F F`."""
    match = _ORDER.fullmatch(text)
    if match is None:
        raise NotationError(f"not a movement order: {text!r} (expected e.g. 'G3-12 max 6: F F P F')")
    galley_text, speed_text, mp_text, steps_text = match.groups()
    speed = _SPEEDS.get(speed_text.lower())
    if speed is None:
        raise NotationError(f"speed {speed_text!r}: say cruise or max")
    steps: list[AnyStep] = []
    for token in _tokens(steps_text):
        steps.extend(parse_step(token))
        if len(steps) > MOST_STEPS:
            break  # refused by _plan
    return _plan(galley_text, speed, mp_text, steps)


def format_order(plan: Plan) -> str:
    """Write a plan as an order: the form `parse_order` reads back to the same plan."""
    head = f"{format_galley_id(plan.galley)} {_SPEED_TEXT[plan.speed]} {plan.mp}:"
    steps = " ".join(format_step(step) for step in plan.steps)
    return f"{head} {steps}" if steps else head


def format_step(step: AnyStep) -> str:
    if step in _TEXT:
        return _TEXT[step]

    if isinstance(step, tuple(KINDS.values())):
        return format_combat_step(step)  # type: ignore[arg-type]
    raise NotationError(f"no notation for step {step!r}")


def parse_orders(text: str) -> list[Plan]:
    """Every order in a message: one a line; blank lines and `#` comments are skipped."""
    plans = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        if not line.strip():
            continue
        try:
            plans.append(parse_order(line))
        except NotationError as error:
            raise NotationError(f"line {number}: {error}") from None
    return plans


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
    """A movement order (engine.war_galley.play.orders) whose steps may include combat tokens."""
    match = _ORDER.fullmatch(text)
    if match is None:
        raise NotationError(f"not an order: {text!r} (expected e.g. 'G3-12 max 6: F F R:R5-3')")
    galley_text, speed_text, mp_text, steps_text = match.groups()
    speed = _SPEEDS.get(speed_text.lower())
    if speed is None:
        raise NotationError(f"speed {speed_text!r}: say cruise or max")
    steps: list[AnyStep] = []
    for token in _tokens(steps_text):
        if is_combat_token(token):
            steps.append(parse_combat_step(token))
        else:
            steps.extend(parse_step(token))
        if len(steps) > MOST_STEPS:
            break  # refused by _plan
    return _plan(galley_text, speed, mp_text, steps)


def format_combat_order(plan: Plan) -> str:
    """Write a plan with combat steps; `parse_combat_order` reads it back to the same plan."""
    head = format_order(Plan(plan.galley, plan.speed, plan.mp))
    words = [format_combat_step(s) if isinstance(s, (Ram, Rake, PassThrough, Anastrophe)) else format_step(s)
             for s in plan.steps]
    return " ".join([head, *words]) if words else head
