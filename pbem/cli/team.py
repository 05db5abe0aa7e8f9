"""Team games on the command line (docs/protocol.md, "Team games"; docs/cli.md, "Team games").

- `pbem new SCENARIO --side S --out F --roster ROSTER.toml`: the invitation names each seat, the
  commands it holds and the key that sits there (read here, `read_roster`).
- `pbem join INVITATION --seat ID --out F`: a seat takes its place: its own signed acceptance, written
  beside the game folder it makes (`seat-ID.json`), for the guest side's lead to carry in file 1.
- `pbem accept INVITATION --joined FILE ...`: the guest side's lead accepts once every seat has joined.
- `pbem move F --hand SEAT`: the lead hands his side's next file to a teammate.
"""

from __future__ import annotations

import base64
import binascii
import tomllib
from pathlib import Path
from typing import Annotated, Any, Optional

import msgspec
import typer

from pbem.cli.mail import KeyOption, KeysOption
from pbem.errors import MalformedFile, MissingFile, UsageError, WrongGame
from pbem.game import folder as folders
from pbem.game import referee, session, writing
from pbem.game.ruleset import Ruleset
from pbem.signed import canonical, textsafe
from pbem.signed import identity as ids
from pbem.signed import movefile
from pbem.signed.movefile import Roster, Seat

MAX_ROSTER_BYTES = 64 * 1024


def read_roster(path: Path, ruleset: Ruleset, scenario: str) -> Roster:
    """A roster file: [[seat]] tables (seat, name, side, key: base64 or a .pub file beside it, commands,
    address) and an optional [lead] table (side = seat id); a side's lead is by default the seat holding
    its first command, the Admiral as the ruleset lists them."""
    try:
        doc = tomllib.loads(folders.read(path, MAX_ROSTER_BYTES).decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise MalformedFile(f"{path}: not a roster (TOML): {exc}") from None
    tables = doc.get("seat")
    if not isinstance(tables, list) or not tables:
        raise MalformedFile(f"{path}: a roster lists its seats as [[seat]] tables")
    seats = []
    for number, table in enumerate(tables, 1):
        if not isinstance(table, dict):
            raise MalformedFile(f"{path}: seat {number} is not a table")
        table = dict(table)
        table["key"] = _key_text(str(table.get("key", "")), path.parent, f"{path}: seat {number}")
        try:
            seats.append(msgspec.convert(table, Seat))
        except msgspec.ValidationError as exc:
            raise MalformedFile(f"{path}: seat {number}: {exc}") from None
    scenario_name, scenario_data = ruleset.load_scenario(scenario)
    commands = getattr(ruleset, "commands", None)
    if commands is None:
        raise UsageError(f"the ruleset {ruleset.name} names no commands: it cannot be played by teams")
    by_side = commands(scenario_data, ruleset.default_rules_data())
    lead = doc.get("lead", {})
    if not isinstance(lead, dict) or not all(isinstance(v, str) for v in lead.values()):
        raise MalformedFile(f"{path}: [lead] names a seat id for each side")
    lead = dict(lead)
    for side, names in by_side.items():
        if side not in lead:
            holder = next((s.seat for s in seats if s.side == side and names and names[0] in s.commands), None)
            if holder is None:
                raise MalformedFile(f"{path}: no seat of the {side} holds {names[0] if names else 'a command'}; "
                                    "name the side's lead under [lead]")
            lead[side] = holder
    return Roster(seats, lead)


def _key_text(value: str, beside: Path, what: str) -> str:
    """A seat's key: its base64 as written, or the text of a .pub file (pbem keygen's) beside the roster."""
    try:
        if len(base64.b64decode(value, validate=True)) == 32:
            return value
    except (ValueError, binascii.Error):
        pass
    path = beside / value
    if not value or not path.is_file():
        raise MissingFile(f"{what}: key {textsafe.visible(value)!r} is neither a base64 public key nor a file "
                          f"beside the roster")
    return folders.read(path, 4096).decode("ascii", errors="replace").strip()


# ----- a seat's acceptance ---------------------------------------------------------------


class SeatAcceptance(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat taking its place (pbem.signed.seals.seat_message): carried by the guest lead's file 1."""

    kind: str  # "seat"
    pbem: int
    game: str
    invite: str  # hex SHA-256 of file 0
    seat: str
    signature: str


def seat_file(invite: movefile.SignedFile, me: ids.Identity, seat: str) -> bytes:
    signature = writing.take_seat(invite, me, seat)
    value = SeatAcceptance("seat", movefile.FORMAT_VERSION, invite.body.game, invite.hash_hex, seat, signature)
    return canonical.encode(msgspec.to_builtins(value)) + b"\n"


def read_seat_file(path: Path, invite: movefile.SignedFile) -> tuple[str, str]:
    """(seat id, signature) of a seat's acceptance of this invitation; the signature is checked in file 1."""
    raw = folders.read(path, 4096)
    try:
        value = msgspec.convert(canonical.decode(raw.rstrip(b"\n"), str(path)), SeatAcceptance)
    except msgspec.ValidationError as exc:
        raise MalformedFile(f"{path}: not a seat's acceptance: {exc}") from None
    if value.kind != "seat":
        raise MalformedFile(f"{path}: not a seat's acceptance")
    if value.game != invite.body.game or value.invite != invite.hash_hex:
        raise WrongGame(f"{path}: seat {value.seat} accepted another invitation ({value.invite[:16]})")
    return value.seat, value.signature


def register(app: typer.Typer) -> None:
    """Add `pbem join` to the app."""
    from pbem.cli.app import out, _only_key

    @app.command("join")
    def join(
        invitation: Annotated[Path, typer.Argument(help="The team game's invitation (file 0): raw, armored or a saved mail.")],
        seat: Annotated[str, typer.Option(help="Your seat's id, as the invitation's roster names it.")],
        out_folder: Annotated[Path, typer.Option("--out", help="New folder for this game (you follow it there).")],
        key: KeyOption = None,
        keys: KeysOption = None,
    ) -> None:
        """Take your seat in a team game: write your signed acceptance for the guest side's lead to carry."""
        from pbem.exchange import intake

        folder = ids.key_folder(keys)
        me = ids.load(key, folder) if key else _only_key(folder)
        raw, what = intake.one_file(invitation)
        game = referee.replay([raw], [what])
        accepted = seat_file(game.files[0], me, seat)
        session.start(out_folder, game.files[0])
        path = out_folder / f"seat-{seat}.json"
        folders.write_atomic(path, accepted)
        team = game.team
        assert team is not None
        mine = team.by_id[seat]
        out(f"game {game.game_id}: {game.ruleset.name} {game.setup.scenario_name}; you take "
            f"{team.describe(mine)} of the {mine.side}")
        guest_lead = next(team.lead(s) for s in team.roster.lead if s != game.setup.host.side)
        out(f"send {path} to the {guest_lead.side}' lead, {guest_lead.name}"
            + (f" <{guest_lead.address}>" if guest_lead.address else "")
            + f": he accepts with pbem accept INVITATION --joined {path.name} ...")


def joined_of(paths: list[Path], invite: movefile.SignedFile) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in paths:
        seat, signature = read_seat_file(path, invite)
        found[seat] = signature
    return found


def roster_lines(game: Any) -> list[str]:
    """Who holds what, for status and reports."""
    team = game.team
    if team is None:
        return []
    return [f"{seat.side}: {team.describe(seat)} {ids.fingerprint(seat.key)}" for seat in team.roster.seats]
