"""Intake: the pbem files inside whatever a player was sent.

A source's form is decided once, from its start, and never guessed again
(docs/security.md, "One file read two ways"):

- a folder with `cur/` and `new/` is a Maildir; every message in it is read;
- bytes starting with `{` are one raw pbem file, taken whole: a raw file is
  never searched for armor, so a note cannot smuggle a second file in;
- bytes starting with `From ` are an mbox;
- bytes starting with an RFC 5322 header block naming a mail field are one
  email message (any transfer encoding, multipart, attachments);
- anything else is text (a paste, a saved body) searched for armored blocks.

Messages are read with the standard library's `email` and `mailbox` parsers.
In a message, a part whose decoded bytes start as a pbem body does (or
named `*.pbem`) is a raw file; every other part is text searched for armor
(pbem.armor finds blocks anywhere: mid-line, re-flowed, in [code] or fences).
The same file found twice (body and attachment) counts once.

Input is read to at most a bound a legal source can reach, then refused.
"""

from __future__ import annotations

import html
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Iterable

from pbem import armor
from pbem.errors import FolderProblem, MalformedFile, MissingFile
from pbem.movefile import MAX_FILE_BYTES

if TYPE_CHECKING:  # the mail parsers are imported where mail is read: a raw file (most receives) needs none
    import mailbox
    from email.message import EmailMessage, Message

# An email carries a file three times at most (armored body, attachment, an
# HTML alternative), base64 adds a third, and there may be a few files.
MAX_MESSAGE_BYTES = 32 * MAX_FILE_BYTES
MAX_MAILBOX_BYTES = 1024 * MAX_FILE_BYTES
RAW_START = b'{"author":'  # every canonical body starts so: "author" is its first key
_HEADER_LINE = re.compile(rb"\A[!-9;-~]+:[ \t]?")
_MAIL_FIELDS = re.compile(
    rb"^(from|to|subject|date|message-id|mime-version|content-type|received|return-path|delivered-to|"
    rb"reply-to|cc|x-pbem-game):",
    re.IGNORECASE | re.MULTILINE,
)
_TAG = re.compile(r"<[^>]*>")
_BREAK = re.compile(r"<\s*(br|/p|/div|/pre|/tr)\b[^>]*>", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """One candidate pbem file: its bytes and where it was found (for messages)."""

    raw: bytes
    what: str
    message_id: str = ""


def read_bounded(path: Path | None, limit: int, stream: BinaryIO | None = None) -> bytes:
    """At most `limit` bytes of a file (or stream); MalformedFile if there are more."""
    what = str(path) if path is not None else "standard input"
    try:
        if stream is None:
            assert path is not None
            with path.open("rb") as handle:
                data = handle.read(limit + 1)
        else:
            data = stream.read(limit + 1)
    except FileNotFoundError:
        raise MissingFile(f"{what}: no such file") from None
    except IsADirectoryError:
        raise MissingFile(f"{what}: is a folder, not a file or a Maildir") from None
    except OSError as exc:
        raise FolderProblem(f"{what}: cannot read ({exc.strerror})") from None
    if len(data) > limit:
        raise MalformedFile(f"{what}: more than {limit} bytes; no file or message a player is sent is that large")
    return data


def is_maildir(path: Path) -> bool:
    return path.is_dir() and (path / "cur").is_dir() and (path / "new").is_dir()


def form_of(data: bytes) -> str:
    """'raw', 'mbox', 'message' or 'text', from the first bytes alone."""
    if data.startswith(b"{"):
        return "raw"
    if data.startswith(b"From "):
        return "mbox"
    head = data[: data.find(b"\n\n")] if b"\n\n" in data else data[:4096]
    head = head.replace(b"\r\n", b"\n")
    if _HEADER_LINE.match(data) and _MAIL_FIELDS.search(head):
        return "message"
    return "text"


def read_path(path: Path) -> list[Found]:
    """The pbem files in a file or Maildir, as its form says; duplicates once."""
    if is_maildir(path):
        return read_maildir(path)
    if not path.exists():
        raise MissingFile(f"{path}: no such file")
    if path.is_dir():
        raise MissingFile(f"{path}: is a folder, not a file or a Maildir (it has no cur/ and new/)")
    data = read_bounded_head(path)
    if form_of(data) == "mbox":  # the mailbox module reads the file itself, to a larger bound
        if path.stat().st_size > MAX_MAILBOX_BYTES:
            raise MalformedFile(f"{path}: an mbox of more than {MAX_MAILBOX_BYTES} bytes; give pbem a smaller one")
        return _read_mbox(data, str(path), path)
    return read_bytes(data, str(path))


def read_bounded_head(path: Path) -> bytes:
    """A file's bytes up to the message bound (an mbox may be longer: its form shows in the start)."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_MESSAGE_BYTES + 1)
    except OSError:
        return read_bounded(path, MAX_MESSAGE_BYTES)  # the same open, for its one-line error
    if len(data) > MAX_MESSAGE_BYTES and form_of(data) != "mbox":
        raise MalformedFile(f"{path}: more than {MAX_MESSAGE_BYTES} bytes; no file or message a player is sent is that large")
    return data


def read_bytes(data: bytes, what: str) -> list[Found]:
    """The pbem files in `data` (a raw file, a message, an mbox or text)."""
    form = form_of(data)
    if form != "mbox" and len(data) > MAX_MESSAGE_BYTES:
        raise MalformedFile(f"{what}: more than {MAX_MESSAGE_BYTES} bytes; no message a player is sent is that large")
    if form == "raw":
        return [Found(data, what)]
    if form == "mbox":
        return _read_mbox(data, what, None)
    if form == "message":
        found = from_message(as_email(data), what)
    else:
        found = from_text(data.decode("utf-8", errors="replace"), what)
    if not found:
        raise MalformedFile(f"no pbem file in {what}")
    return found


def _read_mbox(data: bytes, what: str, path: Path | None) -> list[Found]:
    if path is None:  # mailbox.mbox reads a file: stage standard input in one
        with tempfile.NamedTemporaryFile(suffix=".mbox") as handle:
            handle.write(data)
            handle.flush()
            return _read_mbox(data, what, Path(handle.name))
    import mailbox

    box = mailbox.mbox(path, factory=None, create=False)
    found: list[Found] = []
    try:
        for number, key in enumerate(box.keys(), 1):
            found.extend(from_message(as_email(box.get_bytes(key)), f"{what} (message {number})"))
    finally:
        box.close()
    if not found:
        raise MalformedFile(f"no pbem file in {what} (an mbox of {len(box)} messages)")
    return _unique(found)


def read_maildir(path: Path) -> list[Found]:
    """Every pbem file in every message of a Maildir (new/ and cur/), oldest first."""
    import mailbox

    box = mailbox.Maildir(path, factory=None, create=False)
    found: list[Found] = []
    for key in maildir_keys(box):
        found.extend(from_message(as_email(box.get_bytes(key)), f"{path} (message {key})"))
    if not found:
        raise MalformedFile(f"no pbem file in {path} (a Maildir of {len(box)} messages)")
    return _unique(found)


def maildir_keys(box: mailbox.Maildir) -> list[str]:
    """Message keys in delivery order (a Maildir name starts with its delivery time)."""
    return sorted(box.keys(), key=lambda key: _delivery_time(box, key))


def _delivery_time(box: mailbox.Maildir, key: str) -> tuple[float, str]:
    try:
        return (float(box.get_message(key).get_date()), key)
    except (KeyError, OSError):
        return (0.0, key)


def as_email(data: bytes) -> EmailMessage:
    if len(data) > MAX_MESSAGE_BYTES:
        raise MalformedFile(f"a message of {len(data)} bytes; no message a player is sent is that large")
    import email
    import email.policy
    from email.message import EmailMessage

    message = email.message_from_bytes(data, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def from_message(message: Message, what: str) -> list[Found]:
    """The pbem files in one email: raw attachments and armor in any text part."""
    message_id = str(message.get("Message-ID", "") or "").strip()
    found: list[Found] = []
    for number, part in enumerate(_leaves(message), 1):
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes) or not payload:
            continue
        filename = part.get_filename() or ""
        where = f"{what} (attachment {filename})" if filename else f"{what} (part {number})" if number > 1 else what
        if payload.startswith(RAW_START) or filename.endswith(".pbem"):
            found.append(Found(payload, where, message_id))
            continue
        text = _part_text(part, payload)
        found.extend(Found(f.raw, f.what, message_id) for f in from_text(text, where))
    return _unique(found)


def _leaves(message: Message) -> Iterable[Message]:
    for part in message.walk():
        if not part.is_multipart():
            yield part


def _part_text(part: Message, payload: bytes) -> str:
    charset = part.get_content_charset() or "utf-8"
    try:
        text = payload.decode(charset, errors="replace")
    except LookupError:  # an unknown charset name: the armor is ASCII anyway
        text = payload.decode("utf-8", errors="replace")
    if part.get_content_type() == "text/html":
        text = html.unescape(_TAG.sub("", _BREAK.sub("\n", text)))
    return text


def from_text(text: str, what: str) -> list[Found]:
    """Every armored file in a text, wherever it stands; [] if there is none."""
    if not armor.has_block(text):
        return []
    blocks = armor.dearmor_all(text, what)
    if len(blocks) == 1:
        return [Found(blocks[0], what)]
    return _unique([Found(raw, f"{what} (armored file {i})") for i, raw in enumerate(blocks, 1)])


def _unique(found: list[Found]) -> list[Found]:
    seen: set[bytes] = set()
    unique = []
    for item in found:
        if item.raw not in seen:
            seen.add(item.raw)
            unique.append(item)
    return unique


def incoming(path: Path | None, data: bytes | None = None) -> list[tuple[bytes, str]]:
    """(bytes, name) of every pbem file in a path, or in `data` (standard input)."""
    found = read_path(path) if path is not None else read_bytes(data or b"", "standard input")
    return [(item.raw, item.what) for item in found]
