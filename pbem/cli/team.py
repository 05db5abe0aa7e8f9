"""Team games on the command line (docs/protocol.md, "Team games"; docs/cli.md, "Team games").

- `pbem new SCENARIO --side S --out F --roster ROSTER.toml`: the invitation names each seat, the
  commands it holds and the key that sits there (read here, `read_roster`).
- `pbem join INVITATION --seat ID --out F`: a seat takes its place: its own signed acceptance, written
  beside the game folder it makes (`seat-ID.json`), for the guest side's lead to carry in file 1.
- `pbem accept INVITATION --joined FILE ...`: the guest side's lead accepts once every seat has joined.
- `pbem move F --hand SEAT`: the lead hands his side's next file to a teammate.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer

from pbem.cli.mail import ConfigOption, KeyOption, KeysOption
from pbem.errors import MalformedFile, MissingFile, UsageError, WrongGame
from pbem.game import folder as folders
from pbem.game import referee, session, writing
from pbem.game.ruleset import Ruleset
from pbem.signed import canonical, textsafe
from pbem.signed import identity as ids
from pbem.signed import movefile
from pbem.signed.movefile import Roster, Seat

MAX_ROSTER_BYTES = 64 * 1024
PUBLIC_KEY = re.compile(r"\A[A-Za-z0-9+/]{43}=\Z")


def read_roster(path: Path, ruleset: Ruleset, scenario: str) -> Roster:
    """A roster file: [[seat]] tables (seat, name, side, key: base64 or a .pub file beside it, commands,
    address) and an optional [lead] table (side = seat id); a side's lead is by default the seat holding
    its first command, the Admiral as the ruleset lists them."""
    import tomllib  # only for a roster: every other command goes without it

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
    if PUBLIC_KEY.match(value):  # 32 bytes in base64 (the referee checks it is a strong key)
        return value
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
        invitation: Annotated[str, typer.Argument(help="The team game's invitation: a file (raw, armored, a saved mail) or the id pbem mail printed.")],
        seat: Annotated[str, typer.Option(help="Your seat's id, as the invitation's roster names it.")],
        out_folder: Annotated[Path, typer.Option("--out", help="New folder for this game (you follow it there).")],
        config: ConfigOption = None,
        key: KeyOption = None,
        keys: KeysOption = None,
    ) -> None:
        """Take your seat in a team game: your signed acceptance, mailed to the other side's lead (or saved)."""
        from pbem.cli import join as joining

        folder = ids.key_folder(keys)
        me = ids.load(key, folder) if key else _only_key(folder)
        (raw, what), sender, by_id = joining._source(invitation, config)
        game = referee.replay([raw], [what])
        team = game.team
        if team is None:
            raise UsageError(f"{what}: not a team game; accept it with pbem accept")
        accepted = seat_file(game.files[0], me, seat)
        session.start(out_folder, game.files[0])
        path = out_folder / f"seat-{seat}.json"
        folders.write_atomic(path, accepted)
        mine = team.by_id[seat]
        guest_lead = next(team.lead(s) for s in team.roster.lead if s != game.setup.host.side)
        out(f"game {game.game_id}: {game.ruleset.name} {game.setup.scenario_name}; you take {team.describe(mine)}")
        mailed = _mail_seat(game, out_folder, seat, guest_lead, sender, by_id, config, path)
        out(f"mailed your acceptance to {mailed}; pbem mail now reads for {out_folder}" if mailed else
            f"send {path} to the {guest_lead.side}' lead, {guest_lead.name}: he accepts with "
            f"pbem accept INVITATION --joined {path.name} ...")


    @app.command("seat")
    def seat_command(
        folder: Annotated[Path, typer.Argument(help="The team game's folder.")],
        seat: Annotated[str, typer.Option(help="The seat of your side that passes to another person.")] = "",
        to_key: Annotated[str, typer.Option("--to-key", help="The new holder's public key: base64, or his .pub file.")] = "",
        name: Annotated[str, typer.Option(help="The new holder's name.")] = "",
        address: Annotated[str, typer.Option(help="The new holder's mail address.")] = "",
        accept: Annotated[bool, typer.Option("--accept", help="Accept the seat change the other side's last file proposes.")] = False,
        key: KeyOption = None,
        keys: KeysOption = None,
    ) -> None:
        """A seat changes hands (a player drops out): propose it in your side's next file, or accept theirs."""
        from pbem.game import store

        folder_keys = ids.key_folder(keys)
        game = store.load(folder)
        if game.team is None:
            raise UsageError(f"{folder}: not a team game; it has no seats to hand on")
        me = session.choose_key(game, folder_keys, key, role=game.next_author)
        if accept:
            path, _, _ = session.move(folder, me, [], "", folder_keys, known=game, accept_seat=True)
            out(f"wrote {path}: it accepts the seat change; send it (pbem send {folder}, or pbem mail)")
            return
        if not (seat and to_key and name):
            raise UsageError("give --seat, --to-key and --name (or --accept)")
        new_key = _key_text(to_key, Path("."), "--to-key")
        path, _, _ = session.move(folder, me, [], "", folder_keys, known=game, seat_change=(seat, name, new_key, address))
        out(f"wrote {path}: seat {seat} passes to {name} ({ids.fingerprint(new_key)}) once the other side's next file "
            f"accepts it (pbem seat GAME --accept); send it (pbem send {folder}, or pbem mail)")


    @app.command("secrets")
    def secrets_command(
        folder: Annotated[Path, typer.Argument(help="The team game's folder.")],
        key: KeyOption = None,
        keys: KeysOption = None,
    ) -> None:
        """A team game: the values your side has committed to in secret (10.0), which its seats alone can read."""
        from pbem.game import store

        game = store.load(folder)
        if game.team is None:
            raise UsageError(f"{folder}: not a team game; your own secrets are kept in your key folder")
        me = session.choose_key(game, ids.key_folder(keys), key)
        found = writing.side_secrets(game, me)
        if not found:
            out("your side has committed to no secret yet")
        for label, value in found.items():
            out(f"{label}: {textsafe.visible(value)}")


def _mail_seat(game: Any, out_folder: Path, seat: str, lead: Seat, sender: str | None, by_id: bool,
               config: Path | None, path: Path) -> str | None:
    """Mail the seat's acceptance (X-Pbem-Seat, with the invitation attached) to the other side's lead, when the
    invitation came by mail and his address is known; the folder becomes pbem mail's."""
    from pbem.errors import MailProblem
    from pbem.exchange import invitations, mailconfig, mailer

    if sender is None:
        return None
    try:
        settings = mailconfig.load(config)
    except MailProblem:
        if by_id:
            raise
        return None
    address = lead.address
    if not address:
        return None
    state = mailconfig.MailState(mailconfig.state_path(settings.path))
    state.add_game(out_folder, sender)
    invitations.done(state, game.game_id)
    state.save()
    if settings.smtp is None:
        raise MailProblem(f"{settings.path}: no [smtp] settings; send {path} to {address} by hand")
    _, signature = read_seat_file(path, game.files[0])
    message = mailer.compose(game, 0, settings.address, settings.name, address)
    del message["Subject"]
    message["Subject"] = mailer.visible(f"pbem {game.setup.scenario_name} {game.game_id[:8]}: seat {seat} takes "
                                        "its place")
    message["X-Pbem-Seat"] = f"{seat} {signature}"
    mailer.send(settings.smtp, message)
    return address


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
