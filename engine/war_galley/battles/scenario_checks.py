"""The checks a battle file must pass before a game starts: sheets, hexes, counters, commanders, options.

Every problem is one RulesDataError naming the file, the key and why.
"""

from __future__ import annotations

from engine.errors import RulesDataError
from engine.war_galley.battles.scenario import SCHEMA_VERSION, SPECIAL_RULES, ZONE_CONSTRAINTS, Scenario
from engine.war_galley.battles.scenario_layout import group_slots
from engine.war_galley.map_and_galleys.hexes import Hex
from engine.war_galley.map_and_galleys.manifest import (
    Commanders,
    CounterKey,
    Manifest,
    expand_galleys,
    format_galley,
)
from engine.war_galley.map_and_galleys.position import format_position

# ---------------------------------------------------------------- checks


def check_scenario(
    s: Scenario, source: str, manifest: Manifest | None = None, commanders: Commanders | None = None
) -> None:
    """Everything the schema alone cannot check; raises RulesDataError."""

    def fail(path: str, what: str) -> RulesDataError:
        return RulesDataError(f"{source}: {path}: {what}")

    if s.schema != SCHEMA_VERSION:
        raise fail("schema", f"version {s.schema} not supported (expected {SCHEMA_VERSION})")
    if not s.map.sheets:
        raise fail("map.sheets", "no map sheet")
    letters = [sh.letter for sh in s.map.sheets]
    if len(set(letters)) != len(letters):
        raise fail("map.sheets", "two sheets with one letter")
    if len(letters) > 1 and "" in letters:
        raise fail("map.sheets", "a map of several sheets needs a letter on each")
    for n, sh in enumerate(s.map.sheets):
        if sh.column_offset % 2:
            raise fail(f"map.sheets[{n}].column_offset", "must be even to keep column parity")
    try:
        map_ = s.map.joined()
    except RulesDataError as exc:
        raise fail("map.sheets", str(exc)) from None

    def hex_ok(path: str, text: str | None) -> None:
        try:
            if text is not None:
                map_.parse(text)
        except ValueError as exc:
            raise fail(path, str(exc)) from None

    def hexes_ok(path: str, texts: list[str]) -> None:
        for k, h in enumerate(texts):
            hex_ok(f"{path}[{k}]", h)

    land: set[Hex] = set()
    for n, area in enumerate(s.map.land):
        hexes_ok(f"map.land[{n}].hexes", area.hexes)
        land |= {map_.parse(h) for h in area.hexes}
    for n, coast in enumerate(s.map.coast):
        hex_ok(f"map.coast[{n}].gap_from", coast.gap_from)
        hex_ok(f"map.coast[{n}].gap_to", coast.gap_to)
    hex_ok("wind.marker", s.wind.marker)
    hex_ok("wind.toward", s.wind.toward)
    keys = [side.key for side in s.sides]
    if len(s.sides) != 2 or len(set(keys)) != 2:
        raise fail("sides", "a battle has exactly two sides with distinct keys")
    if sorted(s.deploy_order) != sorted(keys):
        raise fail("deploy_order", f"must list the sides {keys}")
    if s.initiative.first_turn == "side" and s.initiative.side not in keys:
        raise fail("initiative.side", f"{s.initiative.side!r} is not a side ({keys})")
    for n, sail_side in enumerate(s.wind.sails):
        if sail_side not in keys:
            raise fail(f"wind.sails[{n}]", f"{sail_side!r} is not a side")
    if s.wind.mode != "none" and (s.wind.marker is None or s.wind.toward is None):
        raise fail("wind", f"mode {s.wind.mode!r} needs marker and toward")
    if sorted(v.side for v in s.victory.sides) != sorted(keys):
        raise fail("victory.sides", f"one entry per side {keys}")
    option_choices = {o.key: o.choices for o in s.options}
    for n, o in enumerate(s.options):
        if o.default not in o.choices:
            raise fail(f"options[{n}].default", f"{o.default!r} is not one of {o.choices}")
    for n, rule in enumerate(s.special):
        if rule.name not in SPECIAL_RULES:
            raise fail(f"special[{n}].name", f"unknown special rule {rule.name!r}")
        if rule.option is not None:
            okey, _, choice = rule.option.partition("=")
            if okey not in option_choices or (choice and choice not in option_choices[okey]):
                raise fail(f"special[{n}].option", f"{rule.option!r} names no option/choice")
        side_param = rule.params.get("side")
        if side_param is not None and side_param not in keys:
            raise fail(f"special[{n}].params.side", f"{side_param!r} is not a side")

    roster_key = s.roster or s.key
    occupied: dict[Hex, str] = {}
    for si, side in enumerate(s.sides):
        sp = f"sides[{si}]"
        owned: dict[tuple[str, int], str] = {}
        fleet_commanders: list[str] = []
        for fi, fleet in enumerate(side.fleets):
            for gi, g in enumerate(fleet.galleys):
                path = f"{sp}.fleets[{fi}].galleys[{gi}]"
                try:
                    run = expand_galleys([g.galleys])
                except ValueError as exc:
                    raise fail(f"{path}.galleys", str(exc)) from None
                if g.crew is not None and not 1 <= g.crew <= 4:
                    raise fail(f"{path}.crew", "Crew is 1-4 (6.41)")
                for t, i in run:
                    if (t, i) in owned:
                        raise fail(f"{path}.galleys", f"{format_galley(t, i)} listed twice")
                    owned[(t, i)] = fleet.key
                    if manifest is not None and CounterKey(side.colour, t, i) not in manifest:
                        raise fail(f"{path}.galleys", f"{side.colour} {format_galley(t, i)} is not in the counter manifest")
            fleet_commanders += fleet.commanders
            for name in fleet.flagship_crew:
                if name not in fleet.commanders:
                    raise fail(f"{sp}.fleets[{fi}].flagship_crew", f"{name!r} is not a commander of this fleet")
        if len(set(fleet_commanders)) != len(fleet_commanders):
            raise fail(f"{sp}.fleets", "a commander listed twice")
        if commanders is not None or side.key in s.commanders:
            roster = s.commanders.get(side.key)
            if roster is None:
                assert commanders is not None
                try:
                    roster = commanders.roster(roster_key, side.key)
                except RulesDataError as exc:
                    raise fail(f"{sp}.fleets", str(exc)) from None
            known = {c.name for c in roster}
            for name in fleet_commanders:
                if name not in known:
                    raise fail(f"{sp}.fleets", f"commander {name!r} is not in the {side.key} roster")
        deployed: set[tuple[str, int]] = set()
        pooled = 0
        names = [g.name for g in side.deploy]
        for gi, group in enumerate(side.deploy):
            gp = f"{sp}.deploy[{gi}]"
            try:
                run = expand_galleys(group.galleys)
            except ValueError as exc:
                raise fail(f"{gp}.galleys", str(exc)) from None
            if group.count is not None and group.galleys:
                raise fail(gp, "give either galleys or count, not both")
            size = len(run) if group.count is None else group.count
            pooled += group.count or 0
            for t, i in run:
                if (t, i) not in owned:
                    raise fail(f"{gp}.galleys", f"{format_galley(t, i)} is not in this side's fleets")
                if (t, i) in deployed:
                    raise fail(f"{gp}.galleys", f"{format_galley(t, i)} is deployed twice")
                deployed.add((t, i))
            for name in group.commanders:
                if name not in fleet_commanders:
                    raise fail(f"{gp}.commanders", f"{name!r} is not a commander of this side")
            for name, h in group.commander_at.items():
                if name not in group.commanders:
                    raise fail(f"{gp}.commander_at", f"{name!r} is not in this group's commanders")
                hex_ok(f"{gp}.commander_at.{name}", h)
            try:
                slots = group_slots(group, map_)
            except ValueError as exc:
                raise fail(f"{gp}.positions/lines", str(exc)) from None
            on_map = size - (group.offmap.count if group.offmap else 0)
            if group.offmap is not None:
                hexes_ok(f"{gp}.offmap.entry", group.offmap.entry)
                if group.offmap.after is not None and group.offmap.after not in names:
                    raise fail(f"{gp}.offmap.after", f"no group {group.offmap.after!r}")
                if not 0 <= group.offmap.count <= size:
                    raise fail(f"{gp}.offmap.count", "more galleys off map than in the group")
            if group.zone is not None:
                z = group.zone
                if slots:
                    raise fail(gp, "a zone group has no fixed positions")
                hexes_ok(f"{gp}.zone.bow_hexes", z.bow_hexes)
                for k, c in enumerate(z.constraints):
                    if c not in ZONE_CONSTRAINTS:
                        raise fail(f"{gp}.zone.constraints[{k}]", f"unknown constraint {c!r}")
                ref = z.params.get("group")
                if ref is not None and ref not in names:
                    raise fail(f"{gp}.zone.params.group", f"no group {ref!r}")
                continue
            if group.assign == "in_order" and not group.galleys:
                raise fail(f"{gp}.assign", "a group by count is placed by the player (assign = \"player\")")
            if group.assign == "in_order" and len(slots) != on_map:
                raise fail(gp, f"{on_map} galleys on the map but {len(slots)} positions")
            if len(slots) < on_map:
                raise fail(gp, f"{on_map} galleys on the map but only {len(slots)} positions")
            group_hexes: set[Hex] = set()
            for k, slot in enumerate(slots):
                pos = format_position(slot, map_)
                for h in slot.hexes:
                    if h in occupied:
                        raise fail(f"{gp} slot {k} ({pos})", f"overlaps {occupied[h]}")
                    if h in land:
                        raise fail(f"{gp} slot {k} ({pos})", "is on land")
                    occupied[h] = f"{side.key} {group.name} ({pos})"
                    group_hexes.add(h)
            for name, h in group.commander_at.items():
                if map_.parse(h) not in group_hexes:
                    raise fail(f"{gp}.commander_at.{name}", f"no galley of this group in {h}")
            if manifest is not None:
                for (t, i), pos in zip(run, slots if group.assign == "in_order" else []):
                    double = manifest.ratings(CounterKey(side.colour, t, i)).double
                    if double != pos.double:
                        where = format_position(pos, map_)
                        raise fail(gp, f"{format_galley(t, i)} is {'double' if double else 'single'}-sized but placed at {where}")
        for name in side.commanders_anywhere:
            if name not in fleet_commanders:
                raise fail(f"{sp}.commanders_anywhere", f"{name!r} is not a commander of this side")
        missing = sorted(set(owned) - deployed)
        if pooled != len(missing):
            raise fail(f"{sp}.deploy", f"groups by count take {pooled} galleys but {len(missing)} are left to them")
        if missing and not pooled:
            raise fail(f"{sp}.deploy", f"galleys not deployed: {', '.join(format_galley(t, i) for t, i in missing)}")
