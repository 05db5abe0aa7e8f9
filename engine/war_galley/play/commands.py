"""Commands: the Admiral and Squadron Commanders (5.1) a team game's seats hold, and what each decision concerns.

pbem, knowing no ruleset, checks that every decision in a file concerns only the commands its signer's
seat holds (engine/contract.py, "Optional"; issue 26). A command is a commander's name as the battle
file writes it; it stays the same string all game: a transfer (5.52) or a lost commander placed with
another galley (5.53) moves the counter, not the name, and a Command Squadron's key (5.24, phase B) is
its commander's name. An Individual Squadron (5.3) is keyed by its galley and a battle's leaderless
squadron (Actium's transports, the opening moves) by its own name: neither is a command.

The side's share. `[]` is a decision of the whole side (the roster gives it to the seat holding the
side's first command, its Admiral, 5.12). A decision that concerns commands and also the side's share
(a transfer followed by phase B's squadrons, a Speed shortcut that also sets an Individual Squadron
galley) names its commands and the side's first command, standing for the side; so does
`awaited_commands` when the pending question may be answered either way (phase D with both Command
and Individual Squadrons still to set).

The side's first command is its Admiral; with two (Ecnomus, 5.13) the first named; with none (Lade's
Ionians) the first commander named. 9.2 (Loss of Admiral): it stays the same name after he is lost, as
every command does: side-wide decisions stay with the seat holding the Admiral's name, whoever commands
the fleet now (under version 2 a fleet with two admirals goes on under the other, who does not take the
seat's side-wide decisions). In the state, such a demoted admiral is told from a Squadron Commander by
the Initiative rating he keeps (only admirals have one, 5.12): one rated 0 - 0 could not be told, and
the side's first command would pass to the other admiral; no battle of the book has one.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.war_galley.battles import secrets, tournament
from engine.war_galley.battles.scenario_files import game_scenario
from engine.war_galley.map_and_galleys.rulesdata import load_rules_data, parse
from engine.war_galley.turn.activation import allowed, double_options
from engine.war_galley.turn.decisions import (
    Activate,
    Boarding,
    Decision,
    Double,
    Speed,
    Transfer,
    from_json,
)
from engine.war_galley.turn.initiative import active_admirals
from engine.war_galley.turn.sequence import decision_due
from engine.war_galley.turn.state import CommanderState, GameState


def commands(scenario_data: bytes, rules_data: bytes) -> dict[str, list[str]]:
    """Each side's commands: its commanders as the battle file names them (each fleet's `commanders`, which
    every deployment group and `commanders_anywhere` draw on), the side's first Admiral first (5.12, 5.13).

    Tournament play (10.0) names none: each side's commanders are chosen in secret during play.
    """
    if tournament.is_tournament(scenario_data):
        spec = tournament.load(scenario_data)
        return {side.key: [] for side in spec.sides}
    scenario = game_scenario(scenario_data, rules_data)
    out: dict[str, list[str]] = {}
    for side in scenario.sides:
        if side.key in scenario.commanders:  # inline ratings (a player's own battle file)
            ranks = {c.name: c.rank for c in scenario.commanders[side.key]}
        else:  # as engine.war_galley.battles.setup reads them
            roster = parse(load_rules_data(rules_data)).commanders.roster(scenario.roster or scenario.key, side.key)
            ranks = {c.name: c.rank for c in roster}
        names = list(dict.fromkeys(name for fleet in side.fleets for name in fleet.commanders))
        out[side.key] = _admiral_first(names, [n for n in names if ranks.get(n) == "admiral"])
    return out


def _admiral_first(names: list[str], admirals: list[str]) -> list[str]:
    return [admirals[0], *(n for n in names if n != admirals[0])] if admirals else names


def _was_admiral(c: CommanderState) -> bool:
    """An Admiral's counter (5.12): still one, or one with an Initiative rating whom the loss of a second
    admiral's galley made a Squadron Commander (9.2, version 2: he keeps his ratings)."""
    return c.admiral or c.initiative > 0 or c.re_initiative > 0


def first_command(state: GameState, side: str) -> str | None:
    """The side's first command (what `commands` puts first), None for a side without commanders."""
    mine = state.commanders_of(side)
    return _admiral_first([c.name for c in mine], [c.name for c in mine if _was_admiral(c)])[0] if mine else None


class _Concerns:
    """The commands a decision (or the pending question) concerns, in order, and whether the side's share too."""

    def __init__(self, state: GameState, side: str) -> None:
        self.state = state
        self.side = side
        self.names: list[str] = []
        self.side_share = False
        self._commanders = {c.name for c in state.commanders}

    def squadron(self, key: str | None) -> None:
        """A squadron by its key: its commander's command, or the side's share (Individual, leaderless)."""
        if key is None:
            return
        if key in self._commanders:
            self.command(key)
        else:
            self.side_share = True

    def command(self, name: str) -> None:
        if name not in self.names:
            self.names.append(name)

    def answer(self) -> list[str]:
        if self.side_share and self.names:
            lead = first_command(self.state, self.side)
            if lead is not None:
                self.command(lead)
        return list(self.names)


def commands_of(state: GameState, decision: Any) -> list[str]:
    """The commands a decision (its JSON form, as signed) concerns; [] for the whole side's.

    `state` is the state the decision is applied to. Readings:
    - Activate (5.41): its squadron's command, and `also`'s (5.42 Double Activation); an Individual
      Squadron's activation (5.31, phase F) or a leaderless squadron's is the side's.
    - Double (5.42): the Admiral's own squadron, then `other`.
    - Speed (6.12): its squadron's command; an Individual Squadron galley's is the side's; with the `rest`
      shortcut also every squadron of the side still to set.
    - Transfer (5.51-5.52): the commander, then what its follow-ups (`if_done`, `if_failed`) concern.
    - Boarding (E/2, 8.2): the squadron(s) whose activation the Boarding Segment follows; [] if none.
    - Individual (5.31), Deploy, Squadrons (5.24), Initiative (3.2), Standing, Reactions, Concede,
      ProposeHalt, AcceptHalt, and the secret choices (10.0): the side's, [].
    A value that is no decision raises IllegalOrder (as `apply` would); no rule is checked.
    """
    if secrets.is_secret(decision):
        return []
    parsed = from_json(decision)
    found = _Concerns(state, parsed.side)
    _concerns(found, parsed)
    return found.answer() if found.names else []


def _concerns(found: _Concerns, decision: Decision) -> None:
    state = found.state
    if isinstance(decision, Activate):
        found.squadron(decision.squadron)
        found.squadron(decision.also)
    elif isinstance(decision, Double):
        found.squadron(_double_admiral(state, decision))
        found.squadron(decision.other)
    elif isinstance(decision, Speed):
        found.squadron(decision.squadron)
        if decision.rest:
            _squadrons(found, (s.key for s in state.squadrons if s.side == decision.side
                                and s.key not in state.speed_set))
    elif isinstance(decision, Transfer):
        found.command(decision.commander)
        for follow_up in (decision.if_done, decision.if_failed):
            if follow_up is not None:
                _concerns(found, follow_up)
    elif isinstance(decision, Boarding):
        _squadrons(found, _boarding_squadrons(state))
    else:
        found.side_share = True


def _squadrons(found: _Concerns, keys: Iterable[str]) -> None:
    for key in keys:
        found.squadron(key)


def _double_admiral(state: GameState, decision: Double) -> str | None:
    """The Admiral whose own squadron a Double Activation with `other` moves (as 5.42's check finds him)."""
    paired = next((a for a, other in double_options(state, decision.side) if other == decision.other), None)
    if paired is not None:
        return paired
    admirals = active_admirals(state, decision.side) or [c for c in state.commanders_of(decision.side) if c.admiral]
    return admirals[0].name if admirals else None


def _boarding_squadrons(state: GameState) -> list[str]:
    """The squadrons whose galleys the Boarding Segment (E/2) follows the activation of, in order."""
    keys: list[str] = []
    for gid in state.boarders:
        squadron = state.squadron_of(gid)
        if squadron is not None and squadron.key not in keys:
            keys.append(squadron.key)
    return keys


def awaited_commands(state: GameState) -> list[str]:
    """The commands the pending decision may concern, in the order of `commands`; [] for the whole side's
    question (deployment, phase B, the initiative, Individual Squadrons, secret choices) or when nobody
    decides.

    Phase D (6.12): the side's squadrons still to set. An activation (E/1, F): the squadrons that may
    activate now, those a Double Activation may move included (5.42); the one begun, after a Double
    Activation's roll or an Individual Squadron's Crew check. The Boarding Segment (E/2, 8.2): the
    squadrons just activated. Orders a side may give whenever it decides (transfers, 5.51; standing
    orders and reactions; conceding or halting, 9.1) are not the question: they are not counted here.
    """
    due = decision_due(state)
    if due is None:
        return []
    found = _Concerns(state, due.side)
    if due.kind == "speed":
        _squadrons(found, (s.key for s in state.squadrons if s.side == due.side and s.key not in state.speed_set))
    elif due.kind == "activate" and state.current is not None:
        _squadrons(found, state.current.squadrons)
    elif due.kind == "activate":
        for key, also in allowed(state, due.side):
            found.squadron(key)
            found.squadron(also)
        for admiral, other in double_options(state, due.side):
            found.squadron(admiral)
            found.squadron(other)
    elif due.kind == "board":
        _squadrons(found, _boarding_squadrons(state))
    if not found.names:
        return []
    awaited = set(found.answer())
    lead = first_command(state, due.side)
    order = [lead, *(c.name for c in state.commanders_of(due.side) if c.name != lead)]
    return [name for name in order if name in awaited]
