"""`pbem mail --once` / `pbem watch`: read new mail, receive it, let the machine answer the machine.

One round: fetch the messages not handled before (IMAP, or a Maildir), find
the pbem files in each (pbem.exchange.intake), add those of the player's games
(session.receive), and then, in every game where the player is next and
has nothing to decide, write the acknowledgement (or the final file) and
mail it at once. People write only the files in which they decide.

Nothing in a message can stop the round (docs/mail.md, "Hostile mail").
Each message is read in its own error boundary, and the mail state is saved
after each. A message ends one of two ways:

- handled: its files were added, or it is refused for good (unreadable,
  hostile, too deep, too large, a forged or damaged file, no pbem file where
  its headers promise one), or it holds nothing for these games. A refusal
  is one line, printed once (a handled message is never read again) and
  kept in the mail state with its reason;
- left for the next round: the game folder is locked or cannot be written
  (a full disk), a validly signed file waits for an earlier one not yet
  received, the server went away. It is fetched again next round (IMAP:
  its UID stays in the state's `pending`, whatever the high-water mark).

Only a handled message that carried a file of the player's games is marked
read in the mailbox (\\Seen, or moved to cur/ with the S flag): other mail
is the player's, and is left as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterator

import msgspec

from pbem.signed import identity as ids
from pbem.exchange import intake
from pbem.exchange import invitations
from pbem.game import lock
from pbem.signed import movefile
from pbem.game import referee
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.errors import (
    BrokenChain, FolderProblem, MailProblem, MalformedFile, MissingFile, OtherSeat, PbemError, RulesetFailure, RulesetProblem,
)
from pbem.exchange.mailbox import Mailbox, open_mailbox
from pbem.exchange.mailconfig import MailConfig, MailState

# Failures that say nothing about the message: the same message may be added later.
TRANSIENT = (FolderProblem, MissingFile, RulesetProblem)  # FolderLocked is a FolderProblem


def transient(exc: PbemError) -> bool:
    return isinstance(exc, TRANSIENT) and not isinstance(exc, RulesetFailure)


class Round(msgspec.Struct):
    """What one round did, for the caller to print."""

    lines: list[str] = msgspec.field(default_factory=list)
    errors: list[PbemError] = msgspec.field(default_factory=list)
    decisions: list[Path] = msgspec.field(default_factory=list)  # games waiting on the player's own decision
    invited: list[invitations.Offered] = msgspec.field(default_factory=list)  # invitations new this round
    arrived: dict[Path, list[int]] = msgspec.field(default_factory=dict)  # files added (and answered), by game
    # Each folder's game as the round last loaded it: every later load extends it (store.load's known)
    # rather than resume from the state cache and admit the new files again: a team game's mail test
    # made 4,010 loads at about 7 ms each (load_state and admission) where each now costs about 1 ms.
    games: dict[Path, referee.Game] = msgspec.field(default_factory=dict)

    def load(self, folder: Path) -> referee.Game:
        """The folder's game now: every file read and hashed again, those added since this round's last
        look admitted."""
        game = self.games[folder] = store.load(folder, known=self.games.get(folder))
        return game

    def fail(self, exc: PbemError, line: str) -> None:
        self.errors.append(exc)
        self.lines.append(line)


# ----- a round --------------------------------------------------------------------------


def games_by_id(folders: list[Path], result: Round) -> dict[str, Path]:
    """The game of each folder; one that cannot be loaded is a line and left out."""
    found: dict[str, Path] = {}
    for folder in folders:
        try:
            game = result.load(folder)
        except PbemError as exc:
            result.fail(exc, f"{folder}: left out of this round: {exc}")
            continue
        found[game.game_id] = folder
    return found


class Message(msgspec.Struct):
    """One message, read: who sent it and the files of the player's games in it, by game."""

    key: str
    what: str
    sender: str
    by_game: dict[str, list[tuple[bytes, str]]]
    invitations: list[tuple[bytes, str]] = msgspec.field(default_factory=list)  # file 0 of a game not here
    seat: str | None = None  # a team game's seat taking its place (X-Pbem-Seat, pbem join)


class Taken(msgspec.Struct):
    """What became of one message's files in one game."""

    waiting: bool = False  # left for the next round
    added: int = 0


def run_round(
    config: MailConfig,
    state: MailState,
    folders: list[Path],
    keys: Path,
    key: str | None,
    send: Callable[[Path, int, referee.Game], str],
) -> Round:
    """One round: read, receive, acknowledge. `send(folder, seq, game)` mails a file and says to whom."""
    result = Round()
    games = games_by_id(folders, result)
    try:
        box: Mailbox | None = open_mailbox(config, state)
    except MailProblem as exc:  # no mail this round; what needs sending is still sent
        result.fail(exc, f"mail: {exc}; nothing read this round")
        box = None
    if box is not None:
        try:
            _read_all(box, config, state, games, keys, key, result)
        finally:
            box.close()
            state.save()
    for folder in games.values():
        try:
            for line in answer(folder, keys, key, state, send, result):
                result.lines.append(f"{folder}: {line}")
        except PbemError as exc:
            result.fail(exc, f"{folder}: {exc}")
    return result


def _read_all(
    box: Mailbox, config: MailConfig, state: MailState, games: dict[str, Path], keys: Path, key: str | None, result: Round
) -> None:
    """Every message, each in its own boundary, the state saved after each; then the ones a gap held back."""
    held: list[Message] = []  # validly signed files waiting on an earlier one: another try once files are added
    added = 0
    for message_key in box.keys():
        try:
            message = _read_one(box, message_key, games, state, result)
        except MailProblem as exc:  # the server went away: the rest is left for the next round
            result.fail(exc, f"mail: {exc}; the messages not yet read are left for the next round")
            return
        if message is None:
            state.save()
            continue
        if message.invitations:
            try:
                _offer(message, state, result)
            except PbemError as exc:
                _refuse(box, message.key, state, result, exc)
            else:
                box.handled(message.key, seen=True)
            state.save()
            continue
        taken = _take(message, config, state, games, keys, key, result)
        added += taken.added
        if taken.waiting:
            held.append(message)
        else:
            try:
                box.handled(message.key, seen=True)
            finally:
                state.save()
    while held and added:  # file 7 came before file 6 in this very round: 7 can go in now
        again, held, added = held, [], 0
        for message in again:
            taken = _take(message, config, state, games, keys, key, result)
            added += taken.added
            if taken.waiting:
                held.append(message)
            else:
                box.handled(message.key, seen=True)
                state.save()


def _read_one(box: Mailbox, key: str, games: dict[str, Path], state: MailState, result: Round) -> Message | None:
    """The message's files for these games; None once it is handled here (refused, or nothing for them)."""
    what = f"message {key}"
    try:
        data = box.read(key)
    except MailProblem:
        raise
    except PbemError as exc:
        if transient(exc):
            result.fail(exc, f"{what}: {exc}; left for the next round")
            return None
        _refuse(box, key, state, result, exc)
        return None
    try:
        parsed = intake.as_email(data, what)
        sender = intake.sender(parsed, what)
        what = f"message {key} from {sender or 'an unknown sender'}"
        found = intake.from_message(parsed, what)
    except PbemError as exc:
        _refuse(box, key, state, result, exc)
        return None
    except Exception as exc:  # the stdlib email package on input it was never meant for: the message's fault
        _refuse(box, key, state, result, MalformedFile(f"{what}: not a readable email ({intake._why(exc)})"))
        return None
    by_game: dict[str, list[tuple[bytes, str]]] = {}
    invites: list[tuple[bytes, str]] = []
    broken: list[PbemError] = []
    for file in found:
        try:
            game_id: str | None = movefile.parse(file.raw, file.what).body.game
        except PbemError as exc:  # armor, a .pbem name or a pbem body's start, and no pbem file
            broken.append(exc)
            continue
        if game_id in games:
            by_game.setdefault(game_id, []).append((file.raw, file.what))
        elif _is_invitation(file.raw, file.what):
            invites.append((file.raw, file.what))
    if invites and not by_game:
        return Message(key, what, sender, {}, invites, _seat_header(intake.header(parsed, "X-Pbem-Seat")))
    if not by_game:
        claimed = intake.header(parsed, "X-Pbem-Game")
        if broken:
            _refuse(box, key, state, result, broken[0])
        elif not found and claimed in games:  # says it is a file of this game, and holds none
            _refuse(box, key, state, result, MalformedFile(f"{what}: names game {claimed} but holds no pbem file"))
        else:
            box.handled(key, seen=False)  # the player's other mail (or another game's): his, left unread
        return None
    return Message(key, what, sender, by_game)


def _seat_header(value: str) -> str | None:
    """X-Pbem-Seat as written (mail folds its long signature into encoded words: joined again here);
    invitations checks what it says."""
    from email.header import decode_header, make_header

    if not value:
        return None
    try:
        return " ".join(str(make_header(decode_header(value))).split())[:200]
    except Exception:  # the header's bytes are the sender's: a broken one is refused as not a seat's
        return value


def _is_invitation(raw: bytes, what: str) -> bool:
    try:
        return isinstance(movefile.parse(raw, what).body, movefile.Invite)
    except PbemError:
        return False


def _offer(message: Message, state: MailState, result: Round) -> None:
    """An invitation by mail: checked and kept for `pbem accept ID`; a bad one refuses its message."""
    for raw, where in message.invitations:
        offered = invitations.offer(state, raw, f"{message.what}: {where}", message.sender, message.seat)
        if offered is not None:
            result.invited.append(offered)
        if message.seat:
            game_id = movefile.parse(raw, where).body.game
            result.lines.append(f"invitation {game_id[:invitations.SHORT_ID]}: seat {message.seat.split()[0]} has "
                                f"taken its place ({message.what}); seats joined: "
                                f"{', '.join(sorted(invitations.joined(state, game_id)))}")


def _refuse(box: Mailbox, key: str, state: MailState, result: Round, exc: PbemError) -> None:
    """A message refused for good: one line now, its reason in the state, never read again."""
    result.fail(exc, f"refused (never read again): {exc}")
    state.refused(f"{box.name} {key}", str(exc))
    box.handled(key, seen=False)


def _take(
    message: Message, config: MailConfig, state: MailState, games: dict[str, Path], keys: Path, key: str | None, result: Round
) -> Taken:
    """Add the message's files to each game: added, refused for good, or left for the next round."""
    taken = Taken()
    for game_id, files in message.by_game.items():
        folder = games[game_id]
        try:
            with lock.hold(folder, "pbem mail"):  # the split below and the adding see one folder
                added, waiting, authors = _add(folder, files, message.what, result)
        except PbemError as exc:
            if transient(exc):
                taken.waiting = True
                result.fail(exc, f"{folder}: {message.what} left for the next round: {exc}")
            else:
                result.fail(exc, f"{folder}: refused {message.what}: {exc}")
            continue
        for path in added:
            result.lines.append(f"{folder}: added {path.name} ({message.what})")
            result.arrived.setdefault(folder, []).append(int(path.stem))
        for line in waiting:
            result.lines.append(f"{folder}: {line}")
        if waiting:
            taken.waiting = True
        elif not added:
            result.lines.append(f"{folder}: {message.what} holds nothing new (already in the game)")
        taken.added += len(added)
        if added:
            learned = _learn(folder, result.load(folder), config, state, message.sender, authors, keys, key)
            if learned:
                result.lines.append(f"{folder}: {learned}")
    return taken


def _add(folder: Path, files: list[tuple[bytes, str]], what: str,
         result: Round) -> tuple[list[Path], list[str], dict[int, str]]:
    """Add what can go in now; (added, lines on the files that wait for an earlier one, author of each added seq).

    A file beyond the next one the game needs waits (its message is left for
    the next round) only if it is validly signed by its author: anyone else's
    would otherwise be fetched again every round, for ever.
    """
    game = result.load(folder)
    parsed: list[tuple[int, str, bytes, str]] = []
    broken: list[tuple[bytes, str]] = []
    for raw, where in files:
        try:
            signed = movefile.parse(raw, where)
        except PbemError:
            broken.append((raw, where))  # session.receive says what is wrong with it
            continue
        parsed.append((signed.body.seq, signed.body.author, raw, where))
    parsed.sort(key=lambda item: item[0])
    ready: list[tuple[bytes, str]] = list(broken)
    later: list[tuple[int, str, bytes, str]] = []
    needed = game.next_seq
    for seq, author, raw, where in parsed:
        if seq < needed or (seq == needed and not later):
            ready.append((raw, where))
            needed = max(needed, seq + 1)
        else:
            later.append((seq, author, raw, where))
    waiting: list[str] = []
    for seq, author, raw, where in later:
        player = game.player(author)
        if player is None:  # the guest's key comes in file 1: nothing here can tell his file from a forgery
            raise BrokenChain(f"{where}: is file {seq}, but the game has no file 1 yet, so no key to check it "
                              f"by; pbem receive GAME-FOLDER THE-MESSAGE.eml by hand once file 1 is in")
        signed = movefile.parse(raw, where)
        ids.verify(player.key, signed.signature, signed.body_bytes, where)  # BadSignature: refused for good
        waiting.append(f"{where}: file {seq} waits for file {needed}, not yet received; left for the next round")
    authors = {seq: author for seq, author, _, _ in parsed}
    received = session.receive(folder, ready, known=game) if ready else session.Received([], [])
    if received.game is not None:
        result.games[folder] = received.game
    return received.added, waiting, {int(p.stem): authors.get(int(p.stem), "") for p in received.added}


def _learn(
    folder: Path, game: referee.Game, config: MailConfig, state: MailState, sender: str,
    authors: dict[int, str], keys: Path, key: str | None,
) -> str | None:
    """Where the acknowledgements go: learned only from a message that added a file the opponent signed.

    The first such address is kept; a later, different one is shown (once)
    and never used by itself: `pbem send --to` or `[games]` decide.
    """
    if not sender or not authors:
        return None
    mine = session.my_roles(game, keys, key)
    theirs = [seq for seq, author in sorted(authors.items()) if author and author not in mine]
    if not theirs:
        return None
    configured = config.games.get(folder.resolve())
    return state.learn_from(game.game_id, sender, theirs[-1], configured)


def answer(
    folder: Path, keys: Path, key: str | None, state: MailState, send: Callable[[Path, int, referee.Game], str],
    result: Round,
) -> Iterator[str]:
    """Write and send what needs no person (the acknowledgement, or the final file); send the player's unsent one."""
    try:
        written = acknowledge(folder, keys, key, result.games.get(folder))
    except PbemError as exc:
        result.errors.append(exc)
        yield f"cannot acknowledge: {exc}"
        return
    if written is not None:
        yield f"nothing for you to decide; wrote {written.name}"
        result.arrived.setdefault(folder, []).append(int(written.stem))
    game = result.load(folder)
    last = game.files[-1]
    mine = session.my_roles(game, keys, key)
    # The player's latest file not mailed yet: an acknowledgement written here, or his own `pbem move`
    # (a person decides by moving; the mail carries it, so no `pbem send` is needed).
    unsent = (
        last.body.author in mine
        and isinstance(last.body, movefile.Move)
        and not state.was_sent(game.game_id, last.body.seq)
    )
    if unsent:
        try:
            to = send(folder, last.body.seq, game)
        except PbemError as exc:
            result.errors.append(exc)
            yield f"could not send {movefile.file_name(last.body.seq)} (it is kept; the next round retries): {exc}"
        else:
            yield f"sent {movefile.file_name(last.body.seq)} to {to}"
    if game.finished():
        yield f"game over: {game.result()}"
    elif game.next_author in mine and game.next_seq >= 2:
        me = session.choose_key(game, keys, key, role=game.next_author)
        try:
            view = writing.outlook(game, me)
        except OtherSeat as exc:
            yield f"waiting on your teammate: {exc}"
            return
        if not view.pending.finished and view.pending.side == game.player(view.role).side:
            result.decisions.append(folder)
            yield (f"your decision: {view.pending.prompt} (see: pbem legal {folder}; then pbem move {folder} ORDERS... "
                   f"and pbem mail sends it)")


def acknowledge(folder: Path, keys: Path, key: str | None, known: referee.Game | None = None) -> Path | None:
    """If the player is next and has nothing to decide, write that file (no orders) and return it.

    With both players' keys here (solo, hot-seat) it goes on answering for
    whichever side is next, until a side has a decision or the game ends.
    """
    written: Path | None = None
    game = known
    for _ in range(10_000):
        game = store.load(folder, known=game)
        if game.finished() or game.next_seq < 2 or game.next_author not in session.my_roles(game, keys, key):
            return written
        me = session.choose_key(game, keys, key, role=game.next_author)
        try:
            view = writing.outlook(game, me)
        except OtherSeat:  # a team game: the side's next file is a teammate's
            return written
        player = game.player(view.role)
        assert player is not None
        if not view.pending.finished and view.pending.side == player.side:
            return written
        written, _, _ = session.move(folder, me, [], "", known=game)
        if view.pending.finished:
            return written
    return written
