"""`pbem legal GAME GALLEY`: one galley's ratings, markers, MP, end positions and combat targets.

Plain data (JSON values) and its text, both from the generators that
validate: end positions from the planner (engine.war_galley.play.planner), rams, rakes,
Pass-Throughs and Anastrophes from the legal-action generator's attack
search (engine.war_galley.play.legal_combat), each kept only if the rules' own check of the
plan passes; fire and grapples from the checks of 8.42 and 8.11; boarding
targets from 8.21. Rolls are the charts' ranges with the modifiers that
apply as the galley stands now (a ram's MP bonus as its cheapest path gives it).
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalOrder
from engine.war_galley.galley_combat.raking import rake_modifiers
from engine.war_galley.galley_combat.ramming import ram_modifiers, ram_mp_used
from engine.war_galley.manpower_combat.battlefield import Field, enemies
from engine.war_galley.manpower_combat.boarding import boarding_modifiers
from engine.war_galley.manpower_combat.grappling import grapple_options
from engine.war_galley.manpower_combat.manpower_orders import FireOrder, Shot
from engine.war_galley.manpower_combat.missiles import FireTiming, check_fire, fire_range, missile_modifiers
from engine.war_galley.map_and_galleys.charts import boarding_range, missile_result, rake_range, ram_range
from engine.war_galley.map_and_galleys.galley import Galley, parse_galley_id
from engine.war_galley.map_and_galleys.position import format_position
from engine.war_galley.movement.speed import speed_limit
from engine.war_galley.movement.steps import Anastrophe, LowerSails, PassThrough, Plan, RaiseSails, Rake, Ram
from engine.war_galley.play import legal_combat, orders
from engine.war_galley.play.board_text import board_data, board_text, markers
from engine.war_galley.play.legal import Options
from engine.war_galley.turn import boarding_segment
from engine.war_galley.turn.state import GameState

REACH_LIMIT = 400  # end positions listed in full; more are counted


class UnknownGalley(IllegalOrder):
    """A galley id that names no galley of this battle."""


def find_galley(state: GameState, text: str) -> Galley:
    """The battle's galley with this id; NotationError or UnknownGalley naming it otherwise."""
    gid = parse_galley_id(text)
    for galley in state.galleys:
        if galley.id == gid:
            return galley
    raise UnknownGalley("4.1", f"{gid} is not a galley of this battle")


def _roll(dice: str, low: int, high: int, modifiers: tuple[tuple[str, int], ...]) -> dict[str, Any]:
    drm = sum(v for _, v in modifiers)
    return {"dice": dice, "adjusted": f"{low}-{high}" if high != low else str(low), "drm": drm,
            "natural_at_least": low - drm, "modifiers": [[why, v] for why, v in modifiers]}


def _roll_text(roll: dict[str, Any]) -> str:
    drm = f", DRM {roll['drm']:+d}" if roll["drm"] else ""
    return f"{roll['dice']} {roll['adjusted']}{drm} (natural {roll['natural_at_least']}+)"


def galley_report(state: GameState, text: str) -> dict[str, Any]:
    """Everything `pbem legal GAME GALLEY` shows, as JSON values (docs/cli.md, "legal")."""
    galley = find_galley(state, text)
    map_ = state.board.map
    r = galley.ratings
    report: dict[str, Any] = {
        "galley": str(galley.id), "side": state.controller(galley), "type": r.type,
        "position": format_position(galley.position, map_) if galley.position is not None else None,
        "ratings": {"crew": r.crew, "manpower": galley.manpower, "printed_manpower": r.manpower,
                    "engines": r.engines, "towers": r.towers,
                    "cruise": {"ram_attack": r.cruise.ram_attack, "ram_defense": r.cruise.ram_defense,
                               "speed": r.cruise.speed},
                    "maximum": {"ram_attack": r.maximum.ram_attack, "ram_defense": r.maximum.ram_defense,
                                "speed": r.maximum.speed, "anastrophe": r.maximum.anastrophe}},
        "markers": markers(galley), "mp": None, "reaches": [], "reaches_total": 0, "targets": [],
    }
    if galley.position is None:
        return report
    report["mp"] = speed_limit(galley, galley.speed, state.wind).mp
    options = Options(state, state.controller(galley))
    reaches = options.of(galley)
    report["reaches_total"] = len(reaches)
    report["reaches"] = [
        {"position": format_position(x.position, map_), "mp": x.mp,
         "path": " ".join(orders.format_step(s) for s in x.steps), "ends": x.ending.value if x.ending else None}
        for x in reaches[:REACH_LIMIT]]
    report["targets"] = _targets(state, galley, options, report["mp"])
    return report


def _sails_up(galley: Galley, plan: Plan) -> bool:
    """Whether the galley moves under sail in `plan` (a sail step comes before any movement, 6.21)."""
    for step in plan.steps:
        if isinstance(step, (RaiseSails, LowerSails)):
            return isinstance(step, RaiseSails)
    return galley.sails_up


def _targets(state: GameState, galley: Galley, options: Options, cap: int) -> list[dict[str, Any]]:
    field = {g.id: g for g in state.galleys}
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    drew = galley.id in state.record.drew_reaction_ram  # 6.7: -1 on its Ram and Rake attempts this phase
    attack = legal_combat._Attack(state, field, galley, options.of(galley), options.nearness, max(0, cap))
    for plan in attack.plans():
        step = next(s for s in plan.steps if isinstance(s, (Ram, Rake, PassThrough, Anastrophe)))
        kind = {Ram: "ram", Rake: "rake", PassThrough: "pass-through", Anastrophe: "anastrophe"}[type(step)]
        key = (kind, str(step.target))
        if key in seen or not legal_combat._legal(state, field, plan):
            continue
        seen.add(key)
        target = field[step.target]
        entry: dict[str, Any] = {"action": kind, "target": str(step.target), "order": orders.format_order(plan)}
        if kind in ("ram", "anastrophe"):
            turns = next((x.turns for x in options.of(galley) if x.steps == plan.steps[:-1]), 0)
            rng = ram_range(state.charts, galley.ratings.side(galley.speed).ram_attack,
                            target.ratings.side(target.speed).ram_defense)
            mp_used = ram_mp_used(galley, plan.mp, state.wind, _sails_up(galley, plan))  # as execute_plan counts
            mods = ram_modifiers(state.charts, galley, target, mp_used=mp_used, turns=turns, drew_reaction_ram=drew)
            entry["roll"] = _roll("2d6", rng.low, rng.high, mods)
        elif kind == "rake":
            rng = rake_range(state.charts, galley.crew, target.crew)
            entry["roll"] = _roll("2d6", rng.low, rng.high,
                                  rake_modifiers(state.charts, galley, target, drew_reaction_ram=drew))
        out.append(entry)
    return out + manpower_targets(state, galley)


def manpower_targets(state: GameState, galley: Galley) -> list[dict[str, Any]]:
    """The galley's Missile Fire (8.42), grapple (8.11) and boarding (8.21) targets from where it stands now,
    each with the roll it needs (also the board's clicks after a galley's move, engine.war_galley.play.clicks)."""
    field = {g.id: g for g in state.galleys}
    out: list[dict[str, Any]] = []
    battle = Field(state.board, field, state.charts, state.devices)
    for foe in sorted((g for g in field.values() if g.position is not None and enemies(galley, g)), key=lambda g: str(g.id)):
        try:
            check_fire(battle, FireOrder(galley.id, (Shot(foe.id),)), FireTiming.AFTER_MOVEMENT,
                       already_fired=galley.id in state.fired, rammed_by=state.rammers(galley.id))
        except IllegalOrder:
            continue
        distance = fire_range(battle, galley, foe, False) or 1
        mods = missile_modifiers(battle, galley, foe, distance)
        drm = sum(v for _, v in mods)
        faces = [f for f in range(1, 7) if missile_result(state.charts, galley.manpower, f + drm).depletes]
        entry = {"action": "fire", "target": str(foe.id), "order": f"{galley.id} fire {foe.id}",
                 "note": "from where it stands now (8.42; after moving it may have others)"}
        if faces:  # the table's adjusted results that deplete, as this galley's natural faces reach them
            entry["roll"] = _roll("1d6", min(faces) + drm, max(faces) + drm, mods) | {"for": "a Depletion"}
        out.append(entry)
    for option in grapple_options(battle, galley.id, attempted=state.grapple_tried,
                                  retracted_from=[t for r, t in state.retracted if r == galley.id]):
        out.append({"action": "grapple", "target": str(option.target), "order": f"{galley.id} grapple {option.target}",
                    "roll": _roll("1d6", option.needed.low, option.needed.high, option.modifiers),
                    "note": "from where it stands now (8.11: at the end of its movement)"})
    if galley.manpower >= state.charts.boarding.min_attacker and galley.capture.value == "none":
        for foe in boarding_segment.targets(state, galley):
            rng = boarding_range(state.charts, galley.manpower, foe.manpower)
            out.append({"action": "board", "target": str(foe.id), "order": f"board: {galley.id} {foe.id}",
                        "roll": _roll("2d6", rng.low, rng.high, boarding_modifiers(battle, [galley], foe))})
    return out


def galley_text(report: dict[str, Any]) -> str:
    """The report as lines for a terminal."""
    r = report["ratings"]
    lines = [f"{report['galley']} ({report['side']}, type {report['type']}) at {report['position'] or 'off the map'}",
             f"  Crew {r['crew']}, Manpower M{r['manpower']} (printed M{r['printed_manpower']})"
             + (", Engines" if r["engines"] else "") + (", Towers" if r["towers"] else ""),
             f"  Cruise: Ram {r['cruise']['ram_attack']}/{r['cruise']['ram_defense']}, speed {r['cruise']['speed']};"
             f" Maximum: Ram {r['maximum']['ram_attack']}{'*' if r['maximum']['anastrophe'] else ''}/"
             f"{r['maximum']['ram_defense']}, speed {r['maximum']['speed']}",
             "  markers: " + (", ".join(report["markers"]) or "none")]
    if report["mp"] is None:
        return "\n".join(lines)
    lines.append(f"  movement points now: {report['mp']}")
    shown = len(report["reaches"])
    more = f" (first {shown} shown)" if shown < report["reaches_total"] else ""
    lines.append(f"  end positions: {report['reaches_total']}{more}, cheapest path each")
    for x in report["reaches"]:
        ends = f"  ({x['ends']})" if x["ends"] else ""
        lines.append(f"    {x['position']:<14} {x['mp']} MP: {x['path'] or '(stays)'}{ends}")
    lines.append("  targets:" + ("" if report["targets"] else " none open now"))
    for t in report["targets"]:
        roll = f"; needs {_roll_text(t['roll'])}" if "roll" in t else ""
        lines.append(f"    {t['action']} {t['target']}{roll}")
        lines.append(f"      {t['order']}")
    return "\n".join(lines)


def explain(state: GameState, subject: str | None) -> tuple[Any, str]:
    """The contract's `explain`: (JSON data, text) about `subject` (a galley id); None: every galley's place."""
    if subject is None:
        return board_data(state), board_text(state)
    report = galley_report(state, subject)  # its NotationError already names the subject
    return report, galley_text(report)


__all__ = ["explain", "galley_report", "galley_text", "find_galley", "manpower_targets", "markers", "UnknownGalley",
           "Plan"]
