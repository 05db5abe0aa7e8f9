"""Sending a game file by mail: the message, and SMTP over STARTTLS or TLS.

A message carries one file three ways a mail program cannot all spoil: the
armored text in the body, the raw file as an attachment, and headers that
name the game and the file (X-Pbem-Game, X-Pbem-File). Its Subject is a
one-line summary of the turn; its body a short plain-text account of what
the file did and what the receiver decides (pbem.exchange.account). The
HTML report is attached only when the settings ask (attach_report): the
receiver's pbem renders it locally, and it made mails sixty times
larger (issue 24). Message-IDs are derived from the files, so each file's message
threads under the one before it in both players' mail programs.
"""

from __future__ import annotations

import smtplib
import socket
import ssl
from email.message import EmailMessage
from email.utils import formataddr, formatdate
from typing import Any, NamedTuple

from pbem.exchange import account as accounts
from pbem.exchange import armor
from pbem.signed import movefile
from pbem.game import referee
from pbem.errors import MailProblem
from pbem.exchange.mailconfig import Server
from pbem.signed.movefile import MAX_FILE_BYTES, Accept, Invite

# A report attached is at most this large: base64 makes it a third larger, and the whole
# message must stay under what the opponent's intake reads (32 file bounds, pbem.exchange.intake).
MAX_REPORT_BYTES = 16 * MAX_FILE_BYTES


class Attachment(NamedTuple):
    """A file attached as read once (never by name later: pbem.cli.mail.report_for)."""

    name: str
    data: bytes

SUBJECT_CHARS = 150


def visible(text: str) -> str:
    """One line of visible text: control characters and line breaks become spaces."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


def summary(game: referee.Game, seq: int) -> str:
    """The one-line turn summary that is a file's Subject."""
    signed = game.files[seq]
    body = signed.body
    player = game.player(body.author)
    who = game.signer(seq) if game.team is not None else player.name if player else body.author
    head = f"pbem {game.setup.scenario_name} {game.game_id[:8]} file {seq} from {who}"
    if isinstance(body, Invite):
        what = f"invitation to {body.ruleset} {body.scenario}, {body.host.side}"
    elif isinstance(body, Accept):
        what = f"accepts, plays {body.guest.side}"
    elif body.decisions:
        orders = "; ".join(game.ruleset.format_order(d) for d in body.decisions)
        what = f"{len(body.decisions)} order{'s' if len(body.decisions) != 1 else ''}: {orders}"
    else:
        what = "acknowledgement"
    state = game.resolutions.get(seq - 1)
    where = f" | {game.ruleset.describe(state.state)}" if state is not None else ""
    line = visible(f"{head}: {what}{where}")
    return line if len(line) <= SUBJECT_CHARS else line[: SUBJECT_CHARS - 1] + "…"


def message_id(game_id: str, seq: int, file_hash: str, address: str) -> str:
    domain = address.rsplit("@", 1)[-1] or "pbem.invalid"
    return f"<pbem.{game_id}.{seq}.{file_hash[:16]}@{domain}>"


# Issue 24's bound on a mail carrying a Tauris file, less what the servers on the way add
# (Return-Path, Received, Delivered-To: about 400 bytes on loopback dovecot; room for two hops more).
MAX_MAIL_BYTES = 20 * 1024
RELAY_HEADERS = 1536


def compose(
    game: referee.Game,
    seq: int,
    sender: str,
    sender_name: str,
    to: str,
    report: Attachment | None = None,
    limit: int = MAX_MAIL_BYTES,
) -> EmailMessage:
    """The mail of file `seq`: its account in the largest room (pbem.exchange.account.ROOMS) that keeps
    the mail within `limit` as delivered; a report asked for by the settings is past any bound, so it
    gets all. A file too large for two copies even so (a Tauris transfer with both of its activations
    written out made a 7.3 KB file, a 21.7 KB mail) travels armored only: the armored body is the copy
    a mail program cannot strip, and `pbem mail` or `pbem receive THIS-MESSAGE.eml` reads it."""
    for attached in (True, False):
        for room in accounts.ROOMS:
            message = _message(game, seq, sender, sender_name, to, report, room, attached)
            if report is not None or len(message.as_bytes()) + RELAY_HEADERS <= limit:
                return message
    return message


def _message(
    game: referee.Game,
    seq: int,
    sender: str,
    sender_name: str,
    to: str,
    report: Attachment | None,
    room: accounts.Room,
    attached: bool,
) -> EmailMessage:
    signed = game.files[seq]
    body = signed.body
    message = EmailMessage()
    message["From"] = formataddr((visible(sender_name), sender)) if sender_name else sender
    message["To"] = to
    message["Subject"] = summary(game, seq)
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = message_id(game.game_id, seq, signed.hash_hex, sender)
    if seq > 0:
        previous = message_id(game.game_id, seq - 1, game.files[seq - 1].hash_hex, to)
        message["In-Reply-To"] = previous
        message["References"] = previous
    message["X-Pbem-Game"] = game.game_id
    message["X-Pbem-File"] = str(seq)
    text = armor.armor(signed.raw, f"Game: {body.game} File: {seq}")
    note = getattr(body, "note", "")
    how = (
        ["pbem mail reads it (or by hand: pbem accept THIS-MESSAGE.eml --out NEW-FOLDER)."]
        if isinstance(body, Invite) else
        ["pbem mail reads it, adds it to your game and writes its report;",
         "or by hand: pbem receive YOUR-GAME-FOLDER THIS-MESSAGE.eml"]
    )
    lines = [
        f"{summary(game, seq)}",
        "",
        *([f"Note: {visible(note)}", ""] if note else []),
        *accounts.account(game, seq, room),
        "",
        f"The file is attached ({movefile.file_name(seq)}) and armored below." if attached else
        f"The file ({movefile.file_name(seq)}) is armored below, not attached: the mail keeps within "
        f"{MAX_MAIL_BYTES // 1024} KB.",
        *how,
        "",
        text,
    ]
    content = "\n".join(lines)
    message.set_content(content, cte=transfer_encoding(content))
    if attached:
        message.add_attachment(signed.raw, maintype="application", subtype="x-pbem", filename=movefile.file_name(seq))
    if report is not None:
        message.add_attachment(report.data, maintype="text", subtype="html", filename=report.name)
    return message


def transfer_encoding(text: str) -> str:
    """7bit for short ASCII lines, else quoted-printable: never base64, which the email package picks
    when the first ten lines look unlike English and which would encode the armored file a second time."""
    if text.isascii() and all(len(line) <= 78 for line in text.splitlines()):
        return "7bit"
    return "quoted-printable"


def _context(server: Server) -> ssl.SSLContext:
    try:
        return ssl.create_default_context(cafile=server.cafile or None)
    except (OSError, ssl.SSLError) as exc:
        raise MailProblem(f"{server.kind} cafile {server.cafile}: cannot load ({exc})") from None


def send(server: Server, message: EmailMessage, timeout: float = 60) -> None:
    """Deliver `message` to the SMTP server; MailProblem in one line for any failure."""
    where = f"SMTP {server.host}:{server.port}"
    password = server.password()
    try:
        if server.security == "tls":
            client: smtplib.SMTP = smtplib.SMTP_SSL(server.host, server.port, timeout=timeout, context=_context(server))
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=timeout)
        with client:
            client.ehlo()
            if server.security == "starttls":
                if not client.has_extn("starttls"):
                    raise MailProblem(f"{where}: the server offers no STARTTLS; pbem will not send in the clear")
                client.starttls(context=_context(server))
                client.ehlo()
            if server.user:
                client.login(server.user, password or "")
            refused = client.send_message(message)
            if refused:
                raise MailProblem(f"{where}: refused recipients: {', '.join(refused)}")
    except MailProblem:
        raise
    except smtplib.SMTPAuthenticationError as exc:
        raise MailProblem(f"{where}: login as {server.user} refused ({_reply(exc)})") from None
    except smtplib.SMTPRecipientsRefused as exc:
        raise MailProblem(f"{where}: refused recipients: {', '.join(exc.recipients)}") from None
    except smtplib.SMTPResponseException as exc:
        raise MailProblem(f"{where}: {_reply(exc)}") from None
    except ssl.SSLError as exc:
        raise MailProblem(f"{where}: TLS failed ({exc.reason or exc})") from None
    except (smtplib.SMTPException, socket.timeout, OSError) as exc:
        raise MailProblem(f"{where}: {exc.strerror if isinstance(exc, OSError) and exc.strerror else exc}") from None


def _reply(exc: Any) -> str:
    text = exc.smtp_error.decode("utf-8", "replace") if isinstance(exc.smtp_error, bytes) else str(exc.smtp_error)
    return f"{exc.smtp_code} {visible(text)}"
