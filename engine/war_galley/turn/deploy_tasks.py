"""What a player still has to deploy (the scenario's set-up, 10.0): groups of galleys, slots or zones, commanders.

Part of the game state (`engine.war_galley.turn.state.GameState.deploy`),
which names them too; they live here to keep that module to one concept.
"""

from __future__ import annotations

from typing import Any

import msgspec

from engine.war_galley.map_and_galleys.galley import GalleyId
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.map_and_galleys.position import Position


class Zone(msgspec.Struct, frozen=True):
    """A free deployment zone (scenario `zone`): printed columns and rows, sheet, facings."""

    columns: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None
    sheet: str | None = None
    bow_hexes: tuple[str, ...] = ()
    facings: tuple[int, ...] = ()
    bow_only: bool = False
    stern_offmap: bool = False


class DeployGroup(msgspec.Struct, frozen=True):
    """One deployment group a player still has to place (galleys to slots or a zone, commanders)."""

    name: str
    galleys: tuple[GalleyId, ...]  # the galleys the player places
    slots: tuple[Position, ...] = ()  # assign = "player": the book's positions
    zone: Zone | None = None
    commanders: tuple[str, ...] = ()  # to put on any galley of the group
    aboard: tuple[GalleyId, ...] = ()  # galleys of the group already placed, for commanders
    count: int = 0  # how many of `galleys` the player places now
    # How many more of `galleys` wait off the map (`off`, `behind GALLEY`, `enter HEX`); -1: any number
    # (tournament play, 10.0: the Initiative Player may bring his fleet in on the first turn).
    offmap: int = 0
    commander_at: tuple[tuple[str, Hex], ...] = ()  # a commander fixed to the galley in that hex
    constraints: tuple[str, ...] = ()  # relational zone rules (engine.war_galley.battles.zones)
    params: dict[str, Any] = {}
    entry: tuple[Hex, ...] = ()  # the edge hexes off-map galleys of this group enter by


class DeployTask(msgspec.Struct, frozen=True):
    side: str
    groups: tuple[DeployGroup, ...]
    anywhere: tuple[str, ...] = ()  # commanders placed on any galley of the side
