"""`pbem mail --once` / `pbem watch`: read new mail, receive it, let the machine answer the machine.

One round: fetch the messages not read before (IMAP, or a Maildir), find
the pbem files in each (pbem.intake), add those of the player's games
(session.receive), and then, in every game where the player is next and
has nothing to decide, write the acknowledgement (or the final file) and
mail it at once. People write only the files in which they decide.

A bad message (a forged or damaged file, another game) is reported in one
line and the round goes on; it is never fatal to the other messages.
"""

from __future__ import annotations

import mailbox
import ssl
from dataclasses import dataclass, field
from email.message import Message
from email.utils import parseaddr
from pathlib import Path
from typing import Callable, Iterator

from pbem import intake, movefile, referee, session
from pbem.errors import MailProblem, PbemError
from pbem.mailconfig import MailConfig, MailState, Server


@dataclass
class Round:
    """What one round did, for the caller to print."""

    lines: list[str] = field(default_factory=list)
    errors: list[PbemError] = field(default_factory=list)
    decisions: list[Path] = field(default_factory=list)  # games waiting on the player's own decision


# ----- fetching ---------------------------------------------------------------------------


@dataclass
class Fetched:
    key: str  # the message's id in its mailbox (IMAP UID or Maildir key)
    message: Message


def fetch_imap(server: Server, state: MailState) -> tuple[list[Fetched], Callable[[list[str]], None]]:
    """Messages with UIDs above the last one read; and a callback marking the pbem ones \\Seen."""
    from imapclient import IMAPClient
    from imapclient.exceptions import IMAPClientError

    where = f"IMAP {server.host}:{server.port}"
    password = server.password()
    try:
        context = ssl.create_default_context(cafile=server.cafile or None)
        client = IMAPClient(server.host, port=server.port, ssl=server.security == "tls", ssl_context=context, timeout=60)
        if server.security == "starttls":
            client.starttls(context)
        client.login(server.user, password or "")
        selected = client.select_folder(server.folder)
        validity = int(selected[b"UIDVALIDITY"])
        mark = f"{server.user}@{server.host}:{server.port}/{server.folder}"
        seen = state.data["imap"].get(mark, {})
        last = int(seen.get("last_uid", 0)) if seen.get("uidvalidity") == validity else 0
        uids = [uid for uid in client.search(["UID", f"{last + 1}:*"]) if uid > last]
        fetched: list[Fetched] = []
        for uid, data in sorted(client.fetch(uids, ["BODY.PEEK[]"]).items()) if uids else []:
            fetched.append(Fetched(str(uid), intake.as_email(data[b"BODY[]"])))
        if uids:
            state.data["imap"][mark] = {"uidvalidity": validity, "last_uid": max(uids)}
    except MailProblem:
        raise
    except (IMAPClientError, OSError, ssl.SSLError) as exc:
        raise MailProblem(f"{where}: {exc}") from None
    except PbemError as exc:
        raise MailProblem(f"{where}: {exc}") from None

    def done(keys: list[str]) -> None:
        try:
            if keys:
                client.add_flags([int(k) for k in keys], [b"\\Seen"])
            client.logout()
        except (IMAPClientError, OSError) as exc:
            raise MailProblem(f"{where}: {exc}") from None

    return fetched, done


def fetch_maildir(path: Path, state: MailState) -> tuple[list[Fetched], Callable[[list[str]], None]]:
    """Messages of a Maildir not read before; the callback moves the pbem ones to cur/ as seen."""
    if not intake.is_maildir(path):
        raise MailProblem(f"{path}: not a Maildir (it needs cur/ and new/)")
    box = mailbox.Maildir(path, factory=None, create=False)
    read = set(state.data["maildir"].get(str(path), []))
    fetched = [Fetched(k, intake.as_email(box.get_bytes(k))) for k in intake.maildir_keys(box) if k not in read]
    state.data["maildir"][str(path)] = sorted(read | {f.key for f in fetched} & set(box.keys()))

    def done(keys: list[str]) -> None:
        for key in keys:
            try:
                message = box.get_message(key)
                message.set_subdir("cur")
                message.add_flag("S")
                box[key] = message
            except (KeyError, OSError):
                continue

    return fetched, done


# ----- a round --------------------------------------------------------------------------


def games_by_id(folders: list[Path]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in folders:
        game = referee.load(folder)
        found[game.game_id] = folder
    return found


def _game_of(raw: bytes) -> str | None:
    try:
        return movefile.parse(raw, "").body.game
    except PbemError:
        return None


def run_round(
    config: MailConfig,
    state: MailState,
    folders: list[Path],
    keys: Path,
    key: str | None,
    send: Callable[[Path, int], str],
) -> Round:
    """One round: read, receive, acknowledge. `send(folder, seq)` mails a file and says to whom."""
    result = Round()
    games = games_by_id(folders)
    if config.imap is not None:
        fetched, done = fetch_imap(config.imap, state)
    elif config.maildir is not None:
        fetched, done = fetch_maildir(config.maildir, state)
    else:
        raise MailProblem(f"{config.path}: neither [imap] nor [maildir]: pbem has no mail to read")
    ours: list[str] = []
    for item in fetched:
        sender = parseaddr(str(item.message.get("From", "")))[1]
        what = f"message {item.key} from {sender or 'unknown sender'}"
        try:
            found = intake.from_message(item.message, what)
        except PbemError as exc:
            result.errors.append(exc)
            result.lines.append(f"{what}: {exc}")
            continue
        by_game: dict[str, list[tuple[bytes, str]]] = {}
        for file in found:
            game_id = _game_of(file.raw)
            if game_id in games:
                by_game.setdefault(game_id, []).append((file.raw, file.what))
        if by_game:
            ours.append(item.key)
        for game_id, files in by_game.items():
            folder = games[game_id]
            try:
                received = session.receive(folder, files)
            except PbemError as exc:
                result.errors.append(exc)
                result.lines.append(f"{folder}: refused {what}: {exc}")
                continue
            if sender and folder.resolve() not in config.games:
                state.learn(game_id, sender)
            for path in received.added:
                result.lines.append(f"{folder}: added {path.name} ({what})")
            if not received.added:
                result.lines.append(f"{folder}: {what} holds nothing new (already in the game)")
    done(ours)
    for folder in games.values():
        for line in answer(folder, keys, key, state, send, result):
            result.lines.append(f"{folder}: {line}")
    return result


def answer(
    folder: Path, keys: Path, key: str | None, state: MailState, send: Callable[[Path, int], str], result: Round
) -> Iterator[str]:
    """Write and send what needs no person: the acknowledgement, or the final file; resend unsent ones."""
    game = referee.load(folder)
    try:
        written = acknowledge(folder, keys, key)
    except PbemError as exc:
        result.errors.append(exc)
        yield f"cannot acknowledge: {exc}"
        return
    if written is not None:
        yield f"nothing for you to decide; wrote {written.name}"
        game = referee.load(folder)
    last = game.files[-1]
    mine = session.my_roles(game, keys, key)
    unsent_ack = (
        last.body.author in mine
        and isinstance(last.body, movefile.Move)
        and not last.body.decisions
        and not state.was_sent(game.game_id, last.body.seq)
    )
    if unsent_ack:
        try:
            to = send(folder, last.body.seq)
        except PbemError as exc:
            result.errors.append(exc)
            yield f"could not send {movefile.file_name(last.body.seq)} (it is kept; the next round retries): {exc}"
        else:
            yield f"sent {movefile.file_name(last.body.seq)} to {to}"
    if game.finished():
        yield f"game over: {game.result()}"
    elif game.next_author in mine and game.next_seq >= 2:
        me = session.choose_key(game, keys, key, role=game.next_author)
        view = referee.outlook(game, me)
        if not view.pending.finished and view.pending.side == game.player(view.role).side:
            result.decisions.append(folder)
            yield f"your decision: {view.pending.prompt} (pbem legal {folder}; then pbem move and pbem send)"


def acknowledge(folder: Path, keys: Path, key: str | None) -> Path | None:
    """If the player is next and has nothing to decide, write that file (no orders) and return it.

    With both players' keys here (solo, hot-seat) it goes on answering for
    whichever side is next, until a side has a decision or the game ends.
    """
    written: Path | None = None
    for _ in range(10_000):
        game = referee.load(folder)
        if game.finished() or game.next_seq < 2 or game.next_author not in session.my_roles(game, keys, key):
            return written
        me = session.choose_key(game, keys, key, role=game.next_author)
        view = referee.outlook(game, me)
        player = game.player(view.role)
        assert player is not None
        if not view.pending.finished and view.pending.side == player.side:
            return written
        written, _, _ = session.move(folder, me, [], "")
        if view.pending.finished:
            return written
    return written
