"""Invitations that arrive by mail: offered to the player by `pbem mail`, taken by `pbem accept ID`.

An invitation (file 0) for a game the player has no folder for is checked
as `pbem accept` would check it (self-signed, ruleset, rules data and
scenario known: referee.replay) and kept in the mail state under
`invitations`, by game id, with the address it came from. Nothing is
written anywhere else until the player accepts: `pbem accept ID --out
FOLDER` takes it from there, makes the folder, records it under the state's
`games` (pbem never writes the settings file) and mails the acceptance to
that address.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import msgspec

from pbem.errors import MailProblem, MalformedFile, PbemError, UsageError
from pbem.exchange.mailconfig import MailState, plausible_address
from pbem.game import referee
from pbem.signed import movefile, textsafe
from pbem.signed.movefile import Invite

MAX_OFFERED = 20  # invitations kept waiting at once: more is someone flooding the mailbox
SHORT_ID = 8  # the length of id `pbem mail` prints; any unique prefix of 8+ hex digits is accepted


class Offered(msgspec.Struct, frozen=True):
    """An invitation waiting for the player's answer."""

    game_id: str
    sender: str
    host: str
    ruleset: str
    scenario: str
    side: str
    raw: bytes
    seats: str = ""  # a team game's seats, in words ("" for two players)

    def line(self, accept_hint: str) -> str:
        if self.seats:
            return (f"invitation {self.game_id[:SHORT_ID]} from {self.host} <{self.sender}>: {self.ruleset} "
                    f"{self.scenario}, a team game ({self.seats}); your seat, if not your side's lead: "
                    f"pbem join {self.game_id[:SHORT_ID]} --seat SEAT --out NEW-FOLDER; the other side's lead, "
                    f"once every seat has joined: {accept_hint}")
        return (f"invitation {self.game_id[:SHORT_ID]} from {self.host} <{self.sender}>: {self.ruleset} "
                f"{self.scenario}, the host plays {self.side}; accept it: {accept_hint}")


def hint(game_id: str, config_option: str) -> str:
    """The command that accepts it, as the player would type it."""
    return f"pbem accept {game_id[:SHORT_ID]} --out NEW-FOLDER --name YOUR-NAME{config_option}"


def offer(state: MailState, raw: bytes, what: str, sender: str, seat: str | None = None) -> Offered | None:
    """Check an invitation that came by mail and keep it; None if it was offered before.

    Raises the error that makes its message refused: a damaged or forged
    invitation, one from no plausible address, or one too many waiting.
    """
    game = referee.replay([raw], [what])  # every check pbem accept makes before writing anything
    body = game.files[0].body
    assert isinstance(body, Invite)
    if not plausible_address(sender):
        raise MalformedFile(f"{what}: an invitation from no usable address ({textsafe.visible(sender)[:80]!r}); "
                            "accept it by hand if you know who sent it: pbem accept THE-MESSAGE.eml --out NEW-FOLDER")
    table = state.data["invitations"]
    entry = table.get(body.game)
    fresh = entry is None
    if entry is None:
        if len(table) >= MAX_OFFERED:
            raise MalformedFile(f"{what}: {MAX_OFFERED} invitations already wait for an answer; accept or drop some "
                                f"(pbem accept ID, or delete them under \"invitations\" in {state.path})")
        entry = {"from": sender, "file": base64.b64encode(game.files[0].raw).decode()}
    if seat is not None:  # a team game's seat taking its place: its acceptance came with the invitation
        _seat_joined(entry, game, seat, what)
    table[body.game] = entry
    if not fresh:
        return None
    return _offered(body.game, entry, state.path)


SEAT_HEADER = re.compile(r"\A([a-z0-9][a-z0-9-]{0,31}) ([A-Za-z0-9+/]{86}==)\Z")


def _seat_joined(entry: dict, game: referee.Game, seat: str, what: str) -> None:
    """Keep a seat's acceptance (X-Pbem-Seat: SEAT SIGNATURE) once its signature verifies with the roster's key."""
    from pbem.signed import identity as ids, seals

    found = SEAT_HEADER.match(seat)
    team = game.team
    if found is None or team is None or found.group(1) not in team.by_id:
        raise MalformedFile(f"{what}: X-Pbem-Seat is not a seat of this team game and its signature")
    seat_id, signature = found.groups()
    ids.verify(team.by_id[seat_id].key, base64.b64decode(signature), seals.seat_message(game.files[0].hash, seat_id),
               f"{what}: seat {seat_id}'s acceptance")
    entry.setdefault("joined", {})[seat_id] = signature


def joined(state: MailState, game_id: str) -> dict[str, str]:
    """The seats' acceptances that came by mail for a team game's invitation."""
    value = state.data["invitations"].get(game_id, {}).get("joined", {})
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(value, dict) else {}


def _offered(game_id: str, entry: dict[str, str], where: Path | None = None) -> Offered:
    try:
        raw = base64.b64decode(entry["file"], validate=True)
        body = movefile.parse(raw, f"invitation {game_id[:SHORT_ID]}").body
        sender = entry["from"]
    except (KeyError, TypeError, ValueError, PbemError):  # the state file edited by hand
        raise MailProblem(f"{where or 'the mail state'}: invitation {game_id[:SHORT_ID]} is damaged; "
                          "delete it under \"invitations\"") from None
    if not isinstance(body, Invite) or not isinstance(sender, str):
        raise MailProblem(f"{where or 'the mail state'}: invitation {game_id[:SHORT_ID]} is not an invitation; "
                          "delete it under \"invitations\"")
    seats = "" if body.roster is None else "; ".join(
        f"{seat.seat}: {textsafe.visible(seat.name)}, {textsafe.visible(seat.side)}" for seat in body.roster.seats)
    return Offered(game_id, sender, textsafe.visible(body.host.name), body.ruleset,
                   textsafe.visible(body.scenario), textsafe.visible(body.host.side), raw, seats)


def waiting(state: MailState) -> list[Offered]:
    return [_offered(game_id, entry, state.path) for game_id, entry in state.data["invitations"].items()]


def looks_like_id(text: str) -> bool:
    return re.fullmatch(r"[0-9a-f]{8,32}", text) is not None


def take(state: MailState, prefix: str) -> Offered:
    """The invitation whose game id starts with `prefix`: one, or a UsageError saying why not."""
    matches = [game_id for game_id in state.data["invitations"] if game_id.startswith(prefix)]
    if not matches:
        known = ", ".join(g[:SHORT_ID] for g in state.data["invitations"]) or "none"
        raise UsageError(f"{prefix}: no invitation by that id came by mail (waiting: {known}; pbem mail fetches new ones)")
    if len(matches) > 1:
        raise UsageError(f"{prefix}: {len(matches)} invitations start so; give more of the id")
    return _offered(matches[0], state.data["invitations"][matches[0]], state.path)


def done(state: MailState, game_id: str) -> None:
    state.data["invitations"].pop(game_id, None)
