"""Artillery Towers (8.47-8.48): Height Advantage, the ram penalty, jettisoning.

A galley has Towers when its counter shows a "T" and it has not jettisoned
them. Scenarios that add towers (Naulochus' option, Actium's "all galleys
had Towers") do it through the counter: `with_scenario_towers` gives the
galley T and one less Maximum Speed, as both scenarios say. Actium also
switches Height Advantage off (`Devices.height_advantage`).

Jettisoning is a movement step, `JettisonTowers` (engine.war_galley.movement.steps; 1 MP, any time in the
Movement Segment), registered with `engine.war_galley.movement.moving`. After `movement.move`
the turn code calls `after_move(galley, plan)` to mark the towers gone.
Reading: the +1 Maximum counts from the galley's next announcement (6.13:
MP are announced before moving), so this segment's jettison costs 1 MP of
the MP already announced.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine.events import Event
from engine.war_galley.manpower_combat.devices import Devices
from engine.war_galley.map_and_galleys.charts import Charts
from engine.war_galley.map_and_galleys.galley import Galley, GalleyId
from engine.war_galley.movement.moving import Leg, Mover, Refused, register_step
from engine.war_galley.movement.steps import JettisonTowers, Plan, Step


def towered(galley: Galley) -> bool:
    """8.47: a "T" on the counter, not jettisoned (8.48)."""
    return galley.ratings.towers and not galley.towers_jettisoned


def height_advantage(devices: Devices, galley: Galley, over: Galley) -> bool:
    """8.47: Towers give a Height Advantage over an opposing ship without them."""
    return devices.height_advantage and towered(galley) and not towered(over)


def height_drm(devices: Devices, galley: Galley, other: Galley, advantage: int, disadvantage: int) -> int:
    """The Height DRM for `galley` against `other` (8.24, 8.44): advantage, disadvantage or 0."""
    if height_advantage(devices, galley, other):
        return advantage
    if height_advantage(devices, other, galley):
        return disadvantage
    return 0


def ram_drm(charts: Charts, rammer: Galley) -> int:
    """8.47, 7.15: a galley with Towers subtracts one when attempting to Ram (for engine.war_galley.galley_combat.ramming)."""
    return charts.ramming.modifiers.rammer_towers if towered(rammer) else 0


def with_scenario_towers(galley: Galley, max_speed: int = -1) -> Galley:
    """A galley the scenario gives Towers (Naulochus option, Actium): T, and Maximum Speed changed."""
    if galley.ratings.towers:
        return galley
    maximum = replace(galley.ratings.maximum, speed=galley.ratings.maximum.speed + max_speed)
    return replace(galley, ratings=replace(galley.ratings, towers=True, maximum=maximum))


# ---------------------------------------------------------------- 8.48 the step


def _jettison(mover: Mover, leg: Leg, step: Step) -> Leg | Refused:
    galley = mover.galley
    if not galley.ratings.towers:
        return Refused("8.48", f"{galley.id} has no Towers to jettison")
    if galley.towers_jettisoned:
        return Refused("8.48", f"{galley.id} has already jettisoned its Towers")
    cost = mover.surroundings.fixed().towers.jettison_mp
    if leg.spent + cost > leg.budget:
        return Refused("8.48", f"jettisoning Towers costs {cost} MP; {leg.budget - leg.spent} MP left")
    # Paid like a sail step: it is no movement, so it neither starts the move
    # nor counts as forward motion (6.33).
    return replace(leg, spent=leg.spent + cost)


register_step(JettisonTowers, _jettison)


class TowersJettisoned(Event, frozen=True, kw_only=True):
    """8.48: +1 Maximum Speed from now on, no Height Advantage, -1 to Missile Fire, no Flame."""

    galley: GalleyId


def jettisons(plan: Plan) -> int:
    return sum(1 for step in plan.steps if isinstance(step, JettisonTowers))


def check_jettisons(galley: Galley, plan: Plan) -> None:
    """A plan jettisons the towers once at most (the step rule sees one step at a time)."""
    from engine.errors import IllegalOrder

    if jettisons(plan) > 1:
        raise IllegalOrder("8.48", f"{galley.id} can jettison its Towers only once")


def after_move(galley: Galley, plan: Plan) -> tuple[Galley, list[Event]]:
    """Mark the towers jettisoned if the (already moved) plan did so."""
    check_jettisons(galley, plan)
    if not jettisons(plan):
        return galley, []
    return replace(galley, towers_jettisoned=True), [TowersJettisoned(rule="8.48", galley=galley.id)]
