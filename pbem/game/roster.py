"""A team game's roster: who sits where, who holds which command, whose file comes next (docs/protocol.md,
"Team games").

The invitation names each side's seats, the commands each holds and the key that sits there; the rules
of authority are pbem's, the commands are the ruleset's names (its optional `commands`, `commands_of` and
`awaited_commands`). A two-player game has no roster: none of this applies and its files are as before.

- Authority: a decision that concerns commands (the ruleset's `commands_of`) may be signed only by the
  seat holding every one of them; a decision for the whole side (it concerns none) only by the side's
  lead, the seat holding its first command (the Admiral, as the ruleset lists them) unless the roster
  names another. A command keeps its name when its commander is transferred or lost (the ruleset's
  names), so it stays with its seat all game.
- Whose file: files alternate between the sides as in every game. The side's seat that writes its next
  file is fixed by the resolved state: when the side decides and every command the rules wait on
  (`awaited_commands`) is held by one seat, that seat; otherwise (a decision of the whole side, a choice
  among several seats' commands, an acknowledgement) the lead, who may act with his own commands or hand
  the side's next file to a teammate (`hand`, a file with no decisions).
"""

from __future__ import annotations


from msgspec.structs import replace
from typing import Any

import msgspec

from pbem.errors import MalformedFile, NotYourCommand, RulesetProblem, WrongTurn
from pbem.game.ruleset import Ruleset
from pbem.signed import identity as ids
from pbem.signed.movefile import Roster, Seat


class Team(msgspec.Struct, frozen=True):
    """A roster read for its questions: the seat of an id, the holder of a command, a side's lead."""

    roster: Roster
    by_id: dict[str, Seat] = msgspec.field(default_factory=dict)
    holder: dict[tuple[str, str], str] = msgspec.field(default_factory=dict)  # (side, command) -> seat id

    @classmethod
    def of(cls, roster: Roster) -> Team:
        by_id = {seat.seat: seat for seat in roster.seats}
        holder = {(seat.side, command): seat.seat for seat in roster.seats for command in seat.commands}
        return cls(roster, by_id, holder)

    def lead(self, side: str) -> Seat:
        return self.by_id[self.roster.lead[side]]

    def seats_of(self, side: str) -> list[Seat]:
        return [seat for seat in self.roster.seats if seat.side == side]

    def seats_of_key(self, key: str) -> list[Seat]:
        return [seat for seat in self.roster.seats if ids.same_key(seat.key, key)]

    def describe(self, seat: Seat) -> str:
        held = ", ".join(seat.commands) if seat.commands else "no command"
        lead = "; the side's lead" if self.roster.lead.get(seat.side) == seat.seat else ""
        return f"seat {seat.seat} ({seat.name}: {held}{lead})"


def commands_by_side(ruleset: Ruleset, scenario_data: bytes, rules_data: bytes, what: str) -> dict[str, list[str]]:
    commands = getattr(ruleset, "commands", None)
    if commands is None:
        raise RulesetProblem(f"{what}: the ruleset {ruleset.name} names no commands, so it cannot be played "
                             "by teams (it has no `commands`)")
    return dict(commands(scenario_data, rules_data))


def check(roster: Roster, ruleset: Ruleset, scenario_data: bytes, rules_data: bytes, host_key: str, host_side: str,
          seals: dict[str, str], what: str) -> Team:
    """A roster as the invitation pins it: every command of each side held by exactly one of its seats,
    each side led by one of its seats, the host the lead of his side, nobody on both sides."""
    team = Team.of(roster)
    if len(team.by_id) != len(roster.seats):
        raise MalformedFile(f"{what}: the roster names a seat twice")
    commands = commands_by_side(ruleset, scenario_data, rules_data, what)
    if set(roster.lead) != set(commands):
        raise MalformedFile(f"{what}: the roster must name a lead seat for each side ({', '.join(commands)})")
    for seat in roster.seats:
        ids.check_public(seat.key, f"{what}: seat {seat.seat}")
        if seat.side not in commands:
            raise MalformedFile(f"{what}: seat {seat.seat} sits on {seat.side!r}, not a side of this battle")
        unknown = [c for c in seat.commands if c not in commands[seat.side]]
        if unknown:
            raise MalformedFile(f"{what}: seat {seat.seat} holds {unknown[0]!r}, not a command of the {seat.side} "
                                f"(they are: {', '.join(commands[seat.side])})")
        if not seat.commands and roster.lead[seat.side] != seat.seat:
            raise MalformedFile(f"{what}: seat {seat.seat} holds no command")
    for side, names in commands.items():
        lead = roster.lead[side]
        if lead not in team.by_id or team.by_id[lead].side != side:
            raise MalformedFile(f"{what}: the {side}' lead {lead!r} is not a seat of that side")
        for name in names:
            held = [seat.seat for seat in roster.seats if seat.side == side and name in seat.commands]
            if len(held) != 1:
                raise MalformedFile(f"{what}: {name} ({side}) must be held by exactly one seat, not "
                                    f"{len(held)} ({', '.join(held) or 'none'})")
    keys_by_side: dict[str, set[bytes]] = {}
    for seat in roster.seats:
        keys_by_side.setdefault(seat.side, set()).add(ids.public_raw(seat.key, what))
    sides = list(keys_by_side)
    if len(sides) == 2 and keys_by_side[sides[0]] & keys_by_side[sides[1]]:
        raise MalformedFile(f"{what}: one key sits on both sides; a player plays one side")
    lead = team.lead(host_side)
    if not ids.same_key(lead.key, host_key):
        raise MalformedFile(f"{what}: the host must sit in his side's lead seat ({lead.seat})")
    check_seals(team, host_side, host_key, seals, what)
    return team


def check_seals(team: Team, side: str, lead_key: str, seals: dict[str, str], what: str) -> None:
    """The side's chain seed sealed to exactly each of its seats another key holds."""
    wanted = {seat.seat for seat in team.seats_of(side) if not ids.same_key(seat.key, lead_key)}
    if set(seals) != wanted:
        raise MalformedFile(f"{what}: the {side}' chain must be sealed to seats {', '.join(sorted(wanted)) or 'none'}, "
                            f"not {', '.join(sorted(seals)) or 'none'}")


def joiners(team: Team, host_key: str, guest_key: str) -> set[str]:
    """The seats whose own acceptance file 1 must carry: those neither the host's nor the guest's key holds."""
    return {seat.seat for seat in team.roster.seats
            if not ids.same_key(seat.key, host_key) and not ids.same_key(seat.key, guest_key)}


# ----- whose file, and authority ----------------------------------------------------------------


def next_seat(team: Team, ruleset: Ruleset, state: Any, side: str, handed: str) -> Seat:
    """The seat that writes the side's next file, the state it decides in being `state`; `handed`: the seat
    the side's previous file handed it to ("" if none)."""
    pending = ruleset.pending(state)
    if pending.side != side or pending.finished:
        return team.lead(side)  # an acknowledgement, or the final file
    if handed:
        return team.by_id[handed]
    awaited = getattr(ruleset, "awaited_commands", None)
    commands = list(awaited(state)) if awaited is not None else []
    holders = {team.holder.get((side, command)) for command in commands}
    if len(holders) == 1 and None not in holders:
        return team.by_id[holders.pop()]  # type: ignore[index]
    return team.lead(side)


def check_seat(team: Team, expected: Seat, signer: str, what: str, seq: int) -> None:
    if signer != expected.seat:
        signed_by = team.describe(team.by_id[signer]) if signer in team.by_id else f"seat {signer!r}"
        raise WrongTurn(f"{what}: file {seq} is the {expected.side}' file for {team.describe(expected)}, "
                        f"but {signed_by} signed it")


def check_hand(team: Team, seat: Seat, handed: str, what: str) -> None:
    if not handed:
        return
    target = team.by_id.get(handed)
    if team.roster.lead[seat.side] != seat.seat:
        raise NotYourCommand(f"{what}: only the {seat.side}' lead seat hands the side's next file on, "
                             f"not {team.describe(seat)}")
    if target is None or target.side != seat.side:
        raise MalformedFile(f"{what}: it hands the side's next file to {handed!r}, not a seat of the {seat.side}")


def check_authority(team: Team, ruleset: Ruleset, state: Any, seat: Seat, decision: Any, number: int,
                    what: str) -> None:
    """The decision concerns only commands `seat` holds; a decision of the whole side, only its lead."""
    concerned = list(ruleset.commands_of(state, decision))  # type: ignore[attr-defined]
    if not concerned:
        lead = team.lead(seat.side)
        if lead.seat != seat.seat:
            raise NotYourCommand(f"{what}: decision {number} is the whole {seat.side}' decision, which belongs to "
                                 f"{team.describe(lead)}, not to {team.describe(seat)}")
        return
    for command in concerned:
        if command not in seat.commands:
            holder = team.holder.get((seat.side, command))
            held_by = team.describe(team.by_id[holder]) if holder else "no seat"
            raise NotYourCommand(f"{what}: decision {number} concerns {command}, held by {held_by}, "
                                 f"not by {team.describe(seat)}")


# ----- a seat changing hands -------------------------------------------------------------------


def check_change(team: Team, proposer: Seat, change: Any, what: str) -> None:
    """A proposal that a seat of the proposer's side pass to another key (never one of the other side's)."""
    target = team.by_id.get(change.seat)
    if target is None or target.side != proposer.side:
        raise MalformedFile(f"{what}: it hands seat {change.seat!r} on, which is not a seat of the {proposer.side}")
    ids.check_public(change.key, f"{what}: the seat's new holder")
    if any(ids.same_key(seat.key, change.key) for seat in team.roster.seats if seat.side != proposer.side):
        raise MalformedFile(f"{what}: the seat's new key sits on the other side; a player plays one side")


def changed(team: Team, change: Any) -> Team:
    """The roster once a seat change is accepted: the seat as it was, held by the new person."""
    seats = [replace(seat, name=change.name, key=change.key, address=change.address) if seat.seat == change.seat
             else seat for seat in team.roster.seats]
    return Team.of(Roster(seats, team.roster.lead))
