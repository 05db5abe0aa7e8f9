"""Scenario devices (8.12, 8.32, 8.5; Ecnomus, Naulochus, Myonessus, Tauris, Actium) as hooks.

No counter prints a Corvus, a Harpax, Firepots or Flame Capability: the
scenario names them (Special Rules, and the capabilities of its galley
groups). `Devices` holds what a battle's scenario and chosen options give,
built once by `devices_for(scenario, options)`; the manpower rules ask it:

- Corvus (Ecnomus): +2 to a grapple when the Corvus galley's Bow/Flank
  hexside is shared by a flank hexside of the target; a galley so grappled
  subtracts 2 when it tries to disengage, the Corvus galley 1. Corvus
  galleys never use Maximum Speed (`Equipment.corvus`, engine.war_galley.movement.speed).
- Harpax (Naulochus): grapple a galley whose flank hexes lie within two
  hexes of one's flank hexsides, no ship in the line; +2 adjacent, +1 at two;
  at two the target is pulled sideways into a common flank hexside; the
  target subtracts 2 to disengage, the Harpax galley does not.
- Firepots (Myonessus, 8.53): `fire.drop_firepots`, before a ram resolves.
- Flame (8.51): which galleys may fire Flame Missiles, the F roll's range
  (Tauris' wet weather: 5-6) and the Firefight DRM (Tauris: -1).
- Actium's flame-throwers (a side's single D counts as D/F) and its towers
  everywhere (no Height Advantage).
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Mapping
from typing import Any

import msgspec

from engine.errors import RulesDataError
from engine.war_galley.map_and_galleys.board import Board
from engine.war_galley.map_and_galleys.charts import RollRange
from engine.war_galley.map_and_galleys.contact import (
    FLANKS,
    clear_hexes_between,
    common_flank_hexsides,
    line_range,
    shifted,
    sideways,
)
from engine.war_galley.map_and_galleys.galley import Colour, Galley, GalleyId, GalleyType
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.map_and_galleys.manifest import expand_galleys
from engine.war_galley.map_and_galleys.position import Around, Position


class Device(enum.Enum):
    """A grappling device that helped make a grapple (8.32: "with help of Corvus or Harpax")."""

    CORVUS = "corvus"
    HARPAX = "harpax"


class CorvusRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Ecnomus, Grappling Effects: Corvus."""

    grapple_drm: int = 2
    enemy_disengage_drm: int = -2
    own_disengage_drm: int = -1


class HarpaxRule(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Naulochus, The Harpax (the parameters of its special rule)."""

    range: int = 2
    grapple_drm_adjacent: int = 2
    grapple_drm_range_2: int = 1
    target_disengage_drm: int = -2
    pull: bool = True


class Devices(msgspec.Struct, frozen=True):
    """What a battle's scenario adds to the manpower rules; `Devices()` is a battle without any.

    The sets name the galleys that carry each device. `flame_ignites` is the
    scenario's F-roll range (None: the charts' 4-6); `firefight_drm` is added
    to every Firefight roll; `flame_throwers` is the side whose single D counts
    as D/F when it fires Flame Missiles; `height_advantage` False switches 8.47's
    Height Advantage off (Actium); `no_fire` bars flame and firepots.
    """

    corvus: CorvusRule | None = None
    harpax: HarpaxRule | None = None
    corvus_galleys: frozenset[GalleyId] = frozenset()
    harpax_galleys: frozenset[GalleyId] = frozenset()
    flame_galleys: frozenset[GalleyId] = frozenset()
    firepot_galleys: frozenset[GalleyId] = frozenset()
    flame_ignites: RollRange | None = None
    firefight_drm: int = 0
    flame_throwers: Colour | None = None
    height_advantage: bool = True
    no_fire: bool = False


NO_DEVICES = Devices()


# ---------------------------------------------------------------- who carries what


def has_corvus(devices: Devices, galley: Galley) -> bool:
    return galley.equipment.corvus or galley.id in devices.corvus_galleys


def has_harpax(devices: Devices, galley: Galley) -> bool:
    return devices.harpax is not None and galley.id in devices.harpax_galleys


def flame_capable(devices: Devices, galley: Galley) -> bool:
    """8.51, 8.48: named by the scenario, and not after jettisoning towers."""
    return not devices.no_fire and galley.id in devices.flame_galleys and not galley.towers_jettisoned


def firepot_armed(devices: Devices, galley: Galley) -> bool:
    """8.53: named by the scenario (Myonessus' Rhodian cataphracted triremes)."""
    return not devices.no_fire and galley.id in devices.firepot_galleys


# ---------------------------------------------------------------- Corvus


def corvus_applies(devices: Devices, grappler: Galley, target: Galley) -> bool:
    """Ecnomus: the grappler's Bow/Flank hexside is shared by a flank hexside of the target."""
    if not has_corvus(devices, grappler) or grappler.position is None or target.position is None:
        return False
    return any(t.my_side is Around.BOW_FLANK for t in common_flank_hexsides(grappler.position, target.position))


def corvus_rule(devices: Devices) -> CorvusRule:
    return devices.corvus or CorvusRule()


# ---------------------------------------------------------------- Harpax


def harpax_range(devices: Devices, grappler: Galley, target: Galley, occupied: Collection[Hex]) -> int | None:
    """Naulochus: 1 with a common flank hexside, 2 with a clear hex between the flanks; else None.

    "whose flank hexes (not bow or stern) are within two hexes of the
    activated galley's flank (all) hexes": the line leaves the grappler across
    a flank hexside and reaches the target across one of its flank hexsides;
    it may not pass through any ship.
    """
    rule = devices.harpax
    if rule is None or not has_harpax(devices, grappler) or grappler.position is None or target.position is None:
        return None
    if common_flank_hexsides(grappler.position, target.position):
        return 1
    found = line_range(grappler.position, target.position, occupied, max_range=rule.range, their_sides=FLANKS)
    return found if found is not None and found > 1 else None


def harpax_drm(devices: Devices, distance: int) -> int:
    rule = devices.harpax or HarpaxRule()
    return rule.grapple_drm_adjacent if distance == 1 else rule.grapple_drm_range_2


def harpax_pulls(board: Board, grappler: Position, target: Position, occupied: Collection[Hex]) -> list[Position]:
    """Where a target grappled at two hexes may be pulled (Naulochus' Harpax Pull).

    One hex "sideways" (any direction but along its keel, facing kept), into
    sea hexes no other ship fills, ending with a common flank hexside with
    the grappler. Sorted, so the listing is stable.
    """
    others = set(occupied) - set(target.hexes)
    found = []
    for direction in sideways(target):
        moved = shifted(target, direction)
        if any(h in others or not board.is_sea(h) for h in moved.hexes):
            continue
        if common_flank_hexsides(grappler, moved):
            found.append(moved)
    return sorted(found)


def harpax_line_hexes(grappler: Position, target: Position, occupied: Collection[Hex]) -> list[Hex]:
    """The clear hexes a range-2 Harpax line may pass (for reports)."""
    return sorted(set(clear_hexes_between(grappler, target, occupied, FLANKS, FLANKS)))


# ---------------------------------------------------------------- fire


def ignition_range(devices: Devices, printed: RollRange) -> RollRange:
    """The F roll (8.51) or firepot roll (8.53) under the scenario's weather (Tauris: at least 5)."""
    if devices.flame_ignites is None:
        return printed
    return RollRange(max(printed.low, devices.flame_ignites.low), printed.high)


# ---------------------------------------------------------------- from a scenario


_COLOURS = {"red": Colour.RED, "green": Colour.GREEN}


def _active(special: Any, options: Mapping[str, str]) -> bool:
    """A special rule tied to an option applies only when that option is chosen."""
    if special.option is None:
        return True
    key, _, choice = special.option.partition("=")
    chosen = options.get(key, "off")
    return chosen == choice if choice else chosen != "off"


def _galley_id(colour: Colour, type_text: str, number: int) -> GalleyId:
    try:
        return GalleyId(colour, GalleyType(type_text), number)
    except ValueError:
        raise RulesDataError(f"devices: unknown galley type {type_text!r}") from None


def devices_for(scenario: Any, options: Mapping[str, str] | None = None) -> Devices:
    """The devices a scenario (engine.war_galley.battles.scenario.Scenario) and its chosen options give.

    Galley capabilities ("corvus", "harpax", "flame", "firepots") come from
    the galley groups; the special rules `corvus`, `harpax`, `wet_fire`,
    `no_fire`, `flame_capable`, `flame_throwers` and `all_towers` (with their
    parameters) from the scenario's special rules.
    """
    chosen = dict(options or {})
    sets: dict[str, set[GalleyId]] = {"corvus": set(), "harpax": set(), "flame": set(), "firepots": set()}
    by_type: dict[str, list[GalleyId]] = {}
    side_colour: dict[str, Colour] = {}
    for side in scenario.sides:
        colour = _COLOURS[side.colour]
        side_colour[side.key] = colour
        for fleet in side.fleets:
            for group in fleet.galleys:
                for type_text, number in expand_galleys([group.galleys]):
                    galley_id = _galley_id(colour, type_text, number)
                    by_type.setdefault(f"{side.key}:{type_text}", []).append(galley_id)
                    for capability in group.capabilities:
                        if capability in sets:
                            sets[capability].add(galley_id)
    fields: dict[str, Any] = {}
    for special in scenario.special:
        if not _active(special, chosen):
            continue
        params = dict(special.params)
        if special.name == "corvus":
            fields["corvus"] = CorvusRule(**{k: v for k, v in params.items() if k in CorvusRule.__struct_fields__})
        elif special.name == "harpax":
            fields["harpax"] = HarpaxRule(**{k: v for k, v in params.items() if k in HarpaxRule.__struct_fields__})
        elif special.name == "wet_fire":
            fields["flame_ignites"] = RollRange(int(params.get("fire_min", 5)), 6)
            fields["firefight_drm"] = int(params.get("firefight_drm", 0))
        elif special.name == "no_fire":
            fields["no_fire"] = True
        elif special.name == "flame_capable":
            sides = [params["side"]] if "side" in params else list(side_colour)
            for key in sides:
                for type_text in params.get("types", []):
                    sets["flame"].update(by_type.get(f"{key}:{type_text}", []))
        elif special.name == "flame_throwers":
            fields["flame_throwers"] = side_colour[params["side"]]
        elif special.name == "all_towers":
            fields["height_advantage"] = bool(params.get("height_advantage", False))
    # A flame_capable option overrides the book's "no fire weapons" (Naulochus' optional rule).
    if fields.get("no_fire") and sets["flame"] and any(
        s.name == "flame_capable" and s.option is not None and _active(s, chosen) for s in scenario.special
    ):
        fields["no_fire"] = False
    if sets["corvus"] and "corvus" not in fields:
        fields["corvus"] = CorvusRule()
    if sets["harpax"] and "harpax" not in fields:
        fields["harpax"] = HarpaxRule()
    return Devices(
        corvus_galleys=frozenset(sets["corvus"]),
        harpax_galleys=frozenset(sets["harpax"]),
        flame_galleys=frozenset(sets["flame"]),
        firepot_galleys=frozenset(sets["firepots"]),
        **fields,
    )
