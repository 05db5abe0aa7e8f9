"""Events and states in words, each event citing its rule (for reports and `pbem history`)."""

from __future__ import annotations

from typing import Any, Callable

import msgspec

from engine.events import DieRolled, Event
from engine.war_galley.map_and_galleys.hexes import MapSpec
from engine.war_galley.play.describe_movement import MAP, MOVEMENT_WORDS, position_words
from engine.war_galley.turn.state import PHASE_NAMES, GameState, PhaseBegan


def _die(event: DieRolled) -> str:
    mods = "".join(f" {value:+d} ({why})" for why, value in event.modifiers)
    total = f" = {event.adjusted}" if event.modifiers else ""
    return f"{event.table}: rolled {event.natural}{mods}{total}: {event.outcome}"


def _fields(event: Event) -> str:
    values = msgspec.structs.asdict(event)
    values.pop("rule", None)
    return ", ".join(f"{k} {_plain(v)}" for k, v in values.items() if v not in (None, (), ""))


def _plain(value: Any) -> str:
    if isinstance(value, tuple):
        return " ".join(_plain(v) for v in value)
    if hasattr(value, "value") and not isinstance(value, (int, str)):
        return str(value.value)
    return str(value)


def _phase(event: PhaseBegan) -> str:
    seg = f" {event.segment.value}" if event.segment.value else ""
    return f"Turn {event.turn}: {PHASE_NAMES[event.phase]}{seg}"


_WORDS: dict[str, Callable[[Any], str]] = {
    "DieRolled": _die,
    "PhaseBegan": _phase,
    "Deployed": lambda e: f"{e.side} deploy",
    "SquadronFormed": lambda e: (f"{e.side}: Individual Squadron {e.squadron}" if e.commander is None else
                                 f"{e.side}: {e.commander}'s squadron" + (" (Line Astern)" if e.line_astern else "")
                                 + f": {_plain(e.galleys)}"),
    "InitiativeWon": lambda e: (f"{e.side} has the initiative" + (" (scenario)" if e.given else "")
                                if e.side else "initiative tied: roll again"),
    "FirstPlayerChosen": lambda e: f"{e.side} choose: {e.first} go first in D, E and F",
    "SpeedChosen": lambda e: (f"{e.squadron}: " + (f"Maximum Speed for {_plain(e.maximum)}, the rest Cruise"
                                                  if e.maximum else "Cruise Speed")
                              + (f" (no choice: {e.why})" if e.automatic and e.why else
                                 " (no choice)" if e.automatic else " (standing order)" if e.standing else "")),
    "StandingSet": lambda e: f"{e.side} set their standing orders" + (" for this turn" if e.this_turn else "")
                             + ": " + ("; ".join(
        (["squadrons by range (5.24)"] if e.squadrons else []) + ([f"{e.first} first if they win the initiative (3.2)"]
         if e.first else []) + ([f"every squadron {e.speed} (6.12)"] if e.speed else [])) or "none, asked each time"),
    "Activated": lambda e: f"{e.side} activate {' and '.join(e.squadrons)}",
    "DoubleActivation": lambda e: f"{e.admiral} tries a Double Activation with {e.other}: "
                                  + ("success" if e.success else "failure, Orders Confusion"),
    "OrdersConfused": lambda e: f"{e.galley}: Orders Confusion",
    "CrewChecked": lambda e: f"{e.galley} " + ("is free to act" if e.free else "must keep clear of the enemy"),
    "Fatigued": lambda e: f"{e.galley} is Fatigued F-{e.level}",
    "Recovered": lambda e: f"{e.galley} recovers" + (f" to F-{e.level}" if e.level else ""),
    "Transferred": lambda e: f"{e.commander} transfers to {e.galley}, on his Reduced Effectiveness side",
    "CommanderRestored": lambda e: f"{e.commander} is back to his normal ratings",
    "TransferSettled": lambda e: f"{e.commander} has commanded since his transfer: his galley may use Maximum "
                                 "Speed again (he stays on his RE side, 5.53)",
    "CommanderLost": lambda e: f"{e.commander} is lost: " + (f"now RE aboard {e.galley}" if e.galley else "gone"),
    "SoleAdmiral": lambda e: f"{e.lost} is no longer an admiral: {' and '.join(e.admirals)} "
                             + ("is the sole admiral" if len(e.admirals) == 1 else "command the fleet"),
    "FleetWithdraws": lambda e: f"the {e.side} fleet withdraws",
    "VPAwarded": lambda e: f"{e.side} +{e.vp} VP: {e.galley} {e.reason}",
    "VPLost": lambda e: f"{e.side} -{e.vp} VP: {e.galley} {e.reason}",
    "GameEnded": lambda e: f"game over: {e.text}",
    "HaltProposed": lambda e: f"{e.side} propose to halt play",
    "WindChanged": lambda e: "Dead Calm" if e.wind is None else f"wind now toward {int(e.wind.direction)}, "
                                                               f"strength {e.wind.strength}",
    "Eliminated": lambda e: f"{e.galley} is eliminated ({e.how})",
    "RamResolved": lambda e: f"{e.rammer} rams {e.target}" + (" in reaction" if e.reaction else "") + ": "
                             + {"collided": "Collision", "retracted": "Rammed, the rammer Retracts",
                                "fouled": "Rammed, the two are Fouled"}[e.result.value],
    "RamMissed": lambda e: f"{e.rammer} misses {e.target}, which avoided: it rows on",
    "RakeResolved": lambda e: f"{e.raker} rakes {e.target}'s {e.side.value} side: "
                              + ("Crippled" if e.crippled else "no effect"),
    "RakeMissed": lambda e: f"{e.raker} does not rake {e.target}: {e.reason}",
    "Avoided": lambda e: f"{e.galley} avoids ({e.direction.value}) to {position_words(e.position)}, "
                         f"Fatigued F-{e.fatigue}",
    "Grappled": lambda e: f"{e.line.grappler} grapples {e.line.target}"
                          + (f" with its {e.line.device.value}" if e.line.device else ""),
    "GrappleFailed": lambda e: f"{e.galley} fails to grapple {e.target}",
    "Captured": lambda e: f"{e.galley} is {'recaptured' if e.recaptured else 'captured'} by {_plain(e.boarders)}",
    "Repulsed": lambda e: f"{e.galley} repulses the boarders ({_plain(e.boarders)})",
    "NoBoarding": lambda e: f"{e.side} board nothing",
    "MissileHit": lambda e: f"{e.galley} fires {'Flame Missiles ' if e.flame else ''}at {e.target} with "
                            f"M{e.manpower}: {e.result}",
    "Sank": lambda e: f"{e.galley} sinks" + (f", dragged down by {e.dragged_by}" if e.dragged_by else ""),
    "SankByFire": lambda e: f"{e.galley} burns out and sinks",
    "SetOnFire": lambda e: f"{e.galley} is On Fire ({e.cause})",
    "OrderLapsed": lambda e: f"{e.galley}'s {e.order} lapses: {e.reason}",
    "PlanHalted": lambda e: f"{e.galley} stops at step {e.step}: {e.reason}",
    "ReactionsSet": lambda e: f"{e.side} change their standing reaction orders",
    "Committed": lambda e: f"{e.side} write down their {e.label} in secret",
    "Opened": lambda e: f"{e.side} open their secret {e.label}: {e.value}",
    "SpecialRule": lambda e: e.text,
    **MOVEMENT_WORDS,
}


def event_words(event: Any, map_: MapSpec | None = None) -> str:
    """An event in words with its rule, `GRL-1 leaves the map for good (9.1)`; unknown kinds as raw fields.

    `map_`: the battle's map, so hexes read as the players write them (`N3719`)."""
    if not isinstance(event, Event):
        return repr(event)
    token = MAP.set(map_) if map_ is not None else None
    try:
        words = _WORDS.get(type(event).__name__)
        text = words(event) if words else f"{type(event).__name__}: {_fields(event)}"
    finally:
        if token is not None:
            MAP.reset(token)
    return f"{text} ({event.rule})"


def state_summary(state: GameState) -> str:
    from engine.war_galley.turn.sequence import describe_phase

    sides = ", ".join(
        f"{s.name} {state.vp(s.key)} VP, {sum(1 for _ in state.galleys_of(s.key))} galleys" for s in state.sides
    )
    wind = "no wind" if state.wind is None else f"wind toward {int(state.wind.direction)}"
    return f"{describe_phase(state)}; {sides}; {wind}"
