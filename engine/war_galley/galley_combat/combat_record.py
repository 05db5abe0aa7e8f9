"""What galley combat remembers within a turn, and the combat options of a game.

The `Galley` markers say what a galley *is* (Rammed, Fouled, Fatigued...);
some rules ask what it *did* earlier in the turn or phase, which no marker
shows:

- 7.11: one Ram attempt per turn (an attempt is a rolled Ram, reactions too);
- 7.12: no Ram after changing facing without moving, at any time that turn;
- 6.42: +1 Fatigue DRM for a Ram attempt, +1 for a Rake attempt that turn;
- 7.36: an Anastrophe fatigues automatically (so no 6.42 roll for it);
- 6.7: a galley that drew a failed Defensive Reaction Ram has -1 on every
  Ram or Rake attempt for the rest of the phase;
- 7.34: Turn Around hexes used by an Anastrophe are closed to other
  Anastrophes that phase;
- 8.42: Reaction Fire once per phase, the Squadron Phase of 5.41 (one
  player's activation, a Double Activation's two squadrons included).

`CombatRecord` holds these. The turn code keeps one in the game state, starts
a fresh one each turn (`CombatRecord()`), calls `next_phase()` between
activation phases (E, F) and `next_squadron_phase()` at each activation.
"""

from __future__ import annotations

import msgspec

from engine.war_galley.map_and_galleys.galley import GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.movement.speed import Wind


class CombatRecord(msgspec.Struct, frozen=True, kw_only=True):
    """This turn's combat bookkeeping (turn-wide sets first, then phase-wide ones)."""

    ram_attempts: frozenset[GalleyId] = frozenset()  # 7.11, 6.42
    rake_attempts: frozenset[GalleyId] = frozenset()  # 6.42
    faced: frozenset[GalleyId] = frozenset()  # 7.12: changed facing without moving this turn
    anastrophes: frozenset[GalleyId] = frozenset()  # 7.36: fatigued automatically, no 6.42 roll
    # phase-wide
    drew_reaction_ram: frozenset[GalleyId] = frozenset()  # 6.7: -1 to its Ram and Rake attempts
    turn_around_hexes: frozenset[Hex] = frozenset()  # 7.34: used by an Anastrophe this phase
    reaction_fired: frozenset[GalleyId] = frozenset()  # 8.42: Reaction Fire once per (Squadron) Phase

    def next_phase(self) -> CombatRecord:
        """The record at the start of the next activation phase: phase-wide sets cleared."""
        return msgspec.structs.replace(
            self, drew_reaction_ram=frozenset(), turn_around_hexes=frozenset(), reaction_fired=frozenset()
        )

    def next_squadron_phase(self) -> CombatRecord:
        """8.42: the record as a new Squadron Phase begins (5.41 "one Squadron Phase at a time"; 5.42 "two
        Command Squadrons in one phase"): every galley has its Reaction Fire again."""
        return msgspec.structs.replace(self, reaction_fired=frozenset()) if self.reaction_fired else self

    def with_ram(self, galley: GalleyId) -> CombatRecord:
        return msgspec.structs.replace(self, ram_attempts=self.ram_attempts | {galley})

    def with_rake(self, galley: GalleyId) -> CombatRecord:
        return msgspec.structs.replace(self, rake_attempts=self.rake_attempts | {galley})

    def with_faced(self, galley: GalleyId) -> CombatRecord:
        return msgspec.structs.replace(self, faced=self.faced | {galley})


class CombatOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Set-up choices and the turn's conditions that combat needs.

    `defensive_reaction_ram`: the optional rule 6.7, chosen at set-up.
    `wind` and `turn` are what `engine.war_galley.movement.moving.surroundings` needs.
    """

    defensive_reaction_ram: bool = False
    wind: Wind | None = None
    turn: int = 1
    rules_version: int = 1  # the game's War Galley rules version (GameState.rules_version)
