"""The steps of a movement plan (6.21, 6.32-6.35) and the plan itself, as data.

Each step is a tagged msgspec Struct, so plans encode and decode
self-describingly. The combat steps (Ram, Rake, Pass-Through, Anastrophe,
7.1-7.3) and Jettison Towers (8.48) are defined here too, so that `AnyStep`
names every kind a plan may hold; their rules live with their rules'
modules (`engine.war_galley.galley_combat.combat_steps`, `engine.war_galley.manpower_combat.towers`), registered with
`movement.register_step`.
"""

from __future__ import annotations

import enum
from typing import ClassVar

import msgspec

from engine.war_galley.map_and_galleys.galley import GalleyId
from engine.war_galley.map_and_galleys.position import Side
from engine.war_galley.map_and_galleys.ratings import SpeedSide


class Half(enum.Enum):
    """Which half of a double counter swings in a Facing Change (6.34)."""

    STERN = "stern"  # the stern half swings round: the bow hex stays
    BOW = "bow"  # the bow ("front") half swings round: the stern hex stays


class Step(msgspec.Struct, frozen=True, tag=True):
    """Base of every step kind. `words` names it in refusals ("step 2 (backwatering): ...")."""

    words: ClassVar[str] = ""


def describe(step: Step) -> str:
    return type(step).words or type(step).__name__


class Forward(Step, frozen=True):
    """1 MP: into the Bow hex (6.32)."""

    words: ClassVar[str] = "moving forward"


class BowFlank(Step, frozen=True):
    """1 MP: into the port or starboard Bow/Flank hex, pivoting to face it (6.32)."""

    words: ClassVar[str] = "moving into a Bow/Flank hex"

    side: Side


class Backwater(Step, frozen=True):
    """2 MP, Cruise only: stern first into the Stern hex (`side` None) or a Stern/Flank hex (6.33)."""

    words: ClassVar[str] = "backwatering"

    side: Side | None = None


class FacingChange(Step, frozen=True):
    """1 MP, Cruise only: turn the bow one hexside to `side` without moving (6.34).

    A double counter swings one half (`swing`): Half.STERN keeps the bow hex,
    Half.BOW keeps the stern hex. A single counter turns in its hex (`swing`
    None).
    """

    words: ClassVar[str] = "a Facing Change"

    side: Side
    swing: Half | None = None


class TurnAround(Step, frozen=True):
    """2 MP, Cruise only: flip end for end in place (6.35)."""

    words: ClassVar[str] = "turning around"


class RaiseSails(Step, frozen=True):
    """1 MP (a Tremiola: none), before any movement (6.21, 6.25)."""

    words: ClassVar[str] = "raising sails"


class LowerSails(Step, frozen=True):
    """1 MP (a Tremiola: none), before any movement (6.21, 6.25)."""

    words: ClassVar[str] = "lowering sails"


class Retreat(enum.Enum):
    """Where a Retracting rammer backwaters (7.16): stern hex, a stern/flank hex, or nowhere."""

    STERN = "B"
    PORT = "BP"
    STARBOARD = "BS"
    STAY = "stay"

    def step(self) -> Backwater | None:
        if self is Retreat.STAY:
            return None
        return Backwater({Retreat.PORT: Side.PORT, Retreat.STARBOARD: Side.STARBOARD}.get(self))


class Ram(Step, frozen=True):
    """Ram `target` from here (7.1); a Retracting rammer backwaters `retract`-wards if it can."""

    words: ClassVar[str] = "ramming"

    target: GalleyId
    retract: Retreat = Retreat.STERN


class Rake(Step, frozen=True):
    """Rake `target` on the pass just made (7.21); `side`, if given, is the side the pass must rake."""

    words: ClassVar[str] = "raking"

    target: GalleyId
    side: Side | None = None


class PassThrough(Step, frozen=True):
    """2 MP dead ahead through `target` (7.24-7.25), passing its `side`; rake it, or `rake` beside it."""

    words: ClassVar[str] = "a Pass-Through"

    target: GalleyId
    side: Side | None = None
    rake: GalleyId | None = None


class Anastrophe(Step, frozen=True):
    """The whole activation (7.3): rake `target` (passing its `side` if by Diekplus), turn about, ram."""

    words: ClassVar[str] = "an Anastrophe"

    target: GalleyId
    side: Side | None = None
    retract: Retreat = Retreat.STERN


class JettisonTowers(Step, frozen=True):
    """1 MP, any time in the Movement Segment: the towers go over the side (8.48)."""

    words: ClassVar[str] = "jettisoning Towers"


CombatStep = Ram | Rake | PassThrough | Anastrophe

AnyStep = (Forward | BowFlank | Backwater | FacingChange | TurnAround | RaiseSails | LowerSails
           | Ram | Rake | PassThrough | Anastrophe | JettisonTowers)


class Plan(msgspec.Struct, frozen=True):
    """A galley's movement plan: speed side, announced MP (6.13) and its steps in order."""

    galley: GalleyId
    speed: SpeedSide
    mp: int
    steps: tuple[AnyStep, ...] = ()
