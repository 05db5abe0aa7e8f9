"""What the CLI does, as plain functions over folders and keys.

Each function either completes or raises a PbemError before anything is
written: checks first, then one atomic write.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec

from pbem.signed import commitments
from pbem.game import folder as folders
from pbem.signed import identity as ids
from pbem.game import lock
from pbem.signed import movefile
from pbem.game import referee
from pbem.signed import textsafe
from pbem.game import store
from pbem.game import writing
from pbem.errors import (
    BrokenChain,
    FolderProblem,
    IllegalDecision,
    KeyProblem,
    PbemError,
    UsageError,
    WrongTurn,
)
from pbem.signed.identity import Identity
from pbem.signed.movefile import SignedFile, file_name
from pbem.game.referee import Game


def when(timestamp: int) -> str:
    try:
        return _dt.datetime.fromtimestamp(timestamp, _dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    except (ValueError, OverflowError, OSError):
        return f"{timestamp} (not a date)"


# ----- keys ---------------------------------------------------------------------------


def choose_key(game: Game, keys: Path, name: str | None, role: str | None = None) -> Identity:
    """The key to act with: the named one, else the only key here that plays this game.

    If this key folder holds both players' keys (a solo test, the demo), the
    key of `role` (usually the next author) is chosen.
    """
    if name:
        me = ids.load(name, keys)
        writing.my_role(game, me)
        return me
    # Keys compare as bytes; set-up refuses any but the one canonical base64 spelling, so the text is that too.
    players = _players(game)
    mine = [i for i in ids.all_identities(keys) if ids.public_raw(i.public_b64, i.name) in players]
    if role is not None:
        of_role = [i for i in mine if players[ids.public_raw(i.public_b64, i.name)] == role]
        if len(of_role) > 1 and game.team is not None:  # seats of one side here: the one whose file is next
            of_role = [i for i in of_role if _writes_next(game, i)] or of_role
        if of_role:
            return of_role[0]
    if len(mine) == 1:
        return mine[0]
    if not mine:
        raise KeyProblem(f"no key in {keys} plays game {game.game_id} (use --key NAME or --keys DIR)")
    raise KeyProblem(f"several keys in {keys} play this game; say which with --key NAME")


def my_roles(game: Game, keys: Path, key: str | None) -> set[str]:
    """The roles the key (named, else every key in `keys`) plays in this game: both when solo or hot-seat."""
    if key:
        return {writing.my_role(game, ids.load(key, keys))}
    mine = {ids.public_raw(i.public_b64, i.name) for i in ids.all_identities(keys)}
    return {role for key, role in _players(game).items() if key in mine}


def _players(game: Game) -> dict[bytes, str]:
    """Every key that plays the game, with its role: the two players', and a team game's seats'."""
    players = {ids.public_raw(game.player(r).key, r): r for r in ("host", "guest") if game.player(r) is not None}
    if game.team is not None:
        for seat in game.team.roster.seats:
            players.setdefault(ids.public_raw(seat.key, seat.seat), game.role_of_side(seat.side))
    return players


def _writes_next(game: Game, me: Identity) -> bool:
    try:
        writing.outlook(game, me)
    except PbemError:
        return False
    return True


# ----- set-up ---------------------------------------------------------------------------


def _new_folder(folder: Path, purpose: str) -> None:
    """Refuse a game folder that is a file or already holds something."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: is a file; give a new folder for {purpose}")
    if folder.exists() and any(p.name != lock.HOLDER_FILE for p in folder.iterdir()):
        raise UsageError(f"{folder}: the folder is not empty; choose a new one for {purpose}")


def _holds_only(folder: Path, name: str, raw: bytes) -> bool:
    """True if the folder holds exactly one entry, `name`, with exactly these bytes."""
    if not folder.is_dir():
        return False
    entries = [p for p in folder.iterdir() if p.name != lock.HOLDER_FILE]
    return len(entries) == 1 and entries[0].name == name and entries[0].read_bytes() == raw


@contextlib.contextmanager
def _locked_new_folder(folder: Path, purpose: str, command: str) -> Iterator[None]:
    """Create the new game folder if need be and hold its lock while it is checked empty and written."""
    _new_folder(folder, purpose)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FolderProblem(f"{folder}: cannot create ({exc.strerror or exc})") from None
    with lock.hold(folder, command):
        _new_folder(folder, purpose)  # again, under the lock: another command may have written meanwhile
        yield


def start(folder: Path, invite: SignedFile) -> Path:
    _new_folder(folder, "a new game")
    path = folder / file_name(0)
    with _locked_new_folder(folder, "a new game", "pbem new"):
        folders.write_atomic(path, invite.raw)
    return path


def accept(invitation: tuple[bytes, str], out: Path, me: Identity, name: str, chain_length: int,
           joined: dict[str, str] | None = None) -> tuple[Game, Path]:
    """Accept the invitation (its bytes and where they came from: pbem.exchange.intake.one_file) into `out`."""
    raw, what = invitation
    signed = movefile.parse(raw, what)
    game = referee.replay([raw], [what])
    acceptance = writing.make_accept(game, me, name, chain_length, joined)
    path = out / file_name(1)
    if _holds_only(out, file_name(0), signed.raw):  # solo / hot-seat: accept in the host's own folder
        with lock.hold(out, "pbem accept"):
            if not _holds_only(out, file_name(0), signed.raw):
                raise UsageError(f"{out}: changed while pbem accept was checking it; try again")
            folders.write_atomic(path, acceptance.raw)
        return store.load(out), path
    with _locked_new_folder(out, "this game", "pbem accept"):
        folders.write_all_atomic([(out / file_name(0), signed.raw), (path, acceptance.raw)])
    return store.load(out), path


# ----- receiving ------------------------------------------------------------------------


class Received(msgspec.Struct):
    added: list[Path]
    already: list[str]
    game: Game | None = None  # the game with them, as written under the lock (pass it on: store.load's known)


def receive(folder: Path, incoming: list[tuple[bytes, str]], known: Game | None = None) -> Received:
    """Add the incoming files to the game, in order; all or nothing.

    A file already present byte for byte is a no-op; a different, validly
    signed file for a step already present is equivocation; any other bad
    file is rejected with its own error and nothing is written.
    """
    with lock.hold(folder, "pbem receive"):
        return _receive(folder, incoming, known)


def _receive(folder: Path, incoming: list[tuple[bytes, str]], known: Game | None = None) -> Received:
    game = store.load(folder, known=known)
    added: list[tuple[Path, bytes]] = []
    already: list[str] = []
    for raw, what in sorted(incoming, key=lambda item: _seq_hint(item[0])):
        signed = movefile.parse(raw, what)
        seq = signed.body.seq
        if signed.body.game != game.game_id:
            referee._check_place(signed, seq, None, what, game.game_id)
        if seq < game.next_seq:
            if game.files[seq].raw == raw:
                already.append(f"{what}: file {seq} is already in the game")
                continue
            referee.raise_if_equivocation(game, signed, what)
            # Not validly signed by that step's author: say what is wrong with it.
            referee._check_place(signed, seq, game.files[seq - 1] if seq else None, what, game.game_id)
            player = game.player(signed.body.author)
            if player is not None:
                ids.verify(player.key, signed.signature, signed.body_bytes, what)
            raise BrokenChain(f"{what}: differs from file {seq} already in the game")
        if seq > game.next_seq:
            raise BrokenChain(f"{what}: is file {seq}, but the game needs file {game.next_seq} first")
        referee.admit(game, signed, what)
        added.append((folder / file_name(seq), raw))
    folders.write_all_atomic(added)
    return Received([p for p, _ in added], already, game)


def _seq_hint(raw: bytes) -> int:
    """Sort incoming files by their claimed number; unparsable ones go first to fail fast."""
    try:
        return movefile.parse(raw, "").body.seq
    except Exception:
        return -1


# ----- moving -----------------------------------------------------------------------------


def _is_text(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_orders(game: Game, state: Any, lines: list[str], secrets: Any = None) -> list[Any]:
    """Order lines to decisions: `commit`/`open` lines by pbem (see pbem.signed.commitments), the rest by the ruleset."""
    ruleset = game.ruleset
    decisions = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if not _is_text(text):  # bytes undecodable as UTF-8 come from argv as lone surrogates
            raise IllegalDecision(f"order {number} ({textsafe.cut(text)}): not UTF-8 text")
        if secrets is not None and commitments.is_secret_line(text):
            decisions.append(secrets(text))
            continue
        try:
            with referee.ruleset_call(ruleset, "orders", f"reading order {number}"):
                decisions.append(ruleset.parse_order(text, state))
        except ruleset.illegal_errors as exc:
            raise IllegalDecision(f"order {number} ({textsafe.cut(text)}): {exc}") from None
    return decisions


def move(
    folder: Path, me: Identity, orders: list[str], note: str, keys: Path | None = None,
    propose_rules: Any = None, accept_rules: bool = False, known: Game | None = None, hand: str = "",
    seat_change: Any = None, accept_seat: bool = False,
) -> tuple[Path, SignedFile, writing.Outlook]:
    """Write my next file; it may propose other rules (a movefile.RulesProposal) or accept the rules
    change the last file proposes (pbem.game.ruleschange: then my orders are judged by the new rules);
    in a team game the lead may hand his side's next file to a teammate (`hand`, no orders then)."""
    with lock.hold(folder, "pbem move"):
        return _move(folder, me, orders, note, keys, propose_rules, accept_rules, known, hand, seat_change,
                     accept_seat)


def _move(
    folder: Path, me: Identity, orders: list[str], note: str, keys: Path | None,
    propose_rules: Any = None, accept_rules: bool = False, known: Game | None = None, hand: str = "",
    seat_change: Any = None, accept_seat: bool = False,
) -> tuple[Path, SignedFile, writing.Outlook]:
    game = store.load(folder, known=known)  # read again under the lock: `known` only spares the replay
    if seat_change is not None:  # made here, under the lock: its box is bound to the file's number
        seat_change = writing.seat_change(game, me, *seat_change)
    view = writing.outlook(game, me, accept_rules, any_seat=seat_change is not None and not orders)
    player = game.player(view.role)
    assert player is not None
    pending_secrets: list[str] = []

    def secret(line: str) -> Any:
        pending_secrets.append(line)
        return commitments.decision(line, me, game.game_id, player.nonce, keys or Path("."), remember=False)

    judged = game
    if view.changed is not None:  # orders read by the rules they will be judged by
        judged = game.copy()
        judged.setup = view.changed
    decisions = parse_orders(judged, view.resolution.state, orders, secret)
    if decisions and view.pending.side != player.side:
        raise WrongTurn(
            f"you have nothing to decide now (the game waits on: {view.pending.prompt}); "
            "send the file without orders"
        )
    committed = dict(filter(None, (commitments.committed(line) for line in pending_secrets)))
    signed = writing.make_move(game, me, decisions, note, propose_rules, accept_rules, view, hand, seat_change,
                               accept_seat, committed)
    path = folder / file_name(signed.body.seq)
    folders.write_atomic(path, signed.raw)
    if keys is not None:  # keep committed values beside the keys, so `open LABEL` needs no retyping
        for line in pending_secrets:
            commitments.decision(line, me, game.game_id, player.nonce, keys, remember=True)
    return path, signed, view
