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

Messages are read with the standard library's `email` and `mailbox` parsers,
but never handed to them unbounded (docs/mail.md, "Hostile mail"): the
parser recurses on MIME nesting, so the Content-Type headers are counted in
the raw bytes first (nesting can go no deeper than twice their number), and
the parsed message must then hold at most MAX_MIME_DEPTH levels, MAX_MIME_PARTS
parts and MAX_DECODED_BYTES of decoded payload. Anything the stdlib raises
on a hostile message becomes MalformedFile naming the message. HTML parts
become text through the stdlib's html.parser, fed in bounded pieces so that
its rescans of an unclosed tag stay linear in the whole (`html_text`).
In a message, a part whose decoded bytes start as a pbem body does (or
named `*.pbem`) is a raw file; every other part is text searched for armor
(pbem.exchange.armor finds blocks anywhere: mid-line, re-flowed, in [code] or fences).
The same file found twice (body and attachment) counts once.

Input is read to at most a bound a legal source can reach, then refused.
"""

from __future__ import annotations

import re
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Iterable

import msgspec

from pbem.exchange import armor
from pbem.errors import FolderProblem, MalformedFile, MissingFile, UsageError
from pbem.signed.movefile import MAX_FILE_BYTES

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
# A pbem message is a body, an HTML alternative and an attachment or two; mail
# programs nest multipart/mixed > alternative > related at most. Far above that.
MAX_MIME_DEPTH = 8
MAX_MIME_PARTS = 64
MAX_DECODED_BYTES = MAX_MESSAGE_BYTES
# A line that starts a Content-Type header, after any line break the stdlib
# parser splits on (it splits on \r, \n and \r\n; the rest are counted too,
# as over-counting is safe). Only such a header makes the parser recurse.
_CONTENT_TYPE = re.compile(rb"(?:\A|[\r\n\x0b\x0c\x1c\x1d\x1e])content-type", re.IGNORECASE)
# html.parser rescans an unclosed tag to the end of what it was fed, once per
# "<": fed pieces of about this many characters, always cut just before a "<"
# (so no tag is ever cut), that rescan costs at most this much per character.
HTML_PIECE = 128
# html.parser costs about a microsecond a character on hostile markup: a message's
# HTML parts are read up to this many characters in all (an armored 1 MiB file
# in HTML is under 2 MiB); the rest of its HTML is not searched (its plain parts are).
MAX_HTML_CHARS = 4 * MAX_FILE_BYTES
# Elements after which a mail program shows a line break.
_BREAK_AFTER = frozenset({"p", "div", "pre", "tr", "li", "table", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"})


class Found(msgspec.Struct, frozen=True):
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
        found = from_message(as_email(data, what), what)
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
            where = f"{what} (message {number})"
            found.extend(from_message(as_email(box.get_bytes(key), where), where))
    finally:
        box.close()
    if not found:
        raise MalformedFile(f"no pbem file in {what} (an mbox of {len(box)} messages)")
    return _unique(found)


def read_maildir(path: Path) -> list[Found]:
    """Every pbem file in every message of a Maildir (new/ and cur/), oldest first."""
    import mailbox

    found: list[Found] = []
    messages = maildir_messages(path)
    for key, file in messages:
        where = f"{path} (message {key})"
        found.extend(from_message(as_email(read_bounded(file, MAX_MESSAGE_BYTES), where), where))
    if not found:
        raise MalformedFile(f"no pbem file in {path} (a Maildir of {len(messages)} messages)")
    return _unique(found)


def maildir_messages(path: Path) -> list[tuple[str, Path]]:
    """(key, file) of each message in a Maildir's new/ and cur/, in delivery order (their times).

    Read from the folder itself, not through mailbox.Maildir's parsed
    messages: ordering must not parse (a hostile message can make the parser
    fail) nor load a message of any size. A key is the name before ":2,".
    """
    import os

    found: list[tuple[float, str, Path]] = []
    for sub in ("new", "cur"):
        try:
            entries = list(os.scandir(path / sub))
        except OSError as exc:
            raise FolderProblem(f"{path / sub}: cannot read ({exc.strerror})") from None
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                if not entry.is_file(follow_symlinks=False):
                    continue
                when = entry.stat(follow_symlinks=False).st_mtime
            except OSError:  # gone since the listing (another mail program moved it)
                continue
            found.append((when, entry.name.split(":", 1)[0], Path(entry.path)))
    return [(key, file) for _, key, file in sorted(found)]


def as_email(data: bytes, what: str = "a message") -> EmailMessage:
    """`data` parsed as one email, within the bounds above; MalformedFile naming `what` if not."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise MalformedFile(f"{what}: {len(data)} bytes, more than the {MAX_MESSAGE_BYTES} any message a player is sent can be")
    headers = 0
    for _ in _CONTENT_TYPE.finditer(data):  # before the parser recurses: it would on every one of them
        headers += 1
        if headers > MAX_MIME_PARTS:
            raise MalformedFile(f"{what}: more than {MAX_MIME_PARTS} MIME parts; no pbem message has that many")
    import email
    import email.policy
    from email.message import EmailMessage

    try:
        message = email.message_from_bytes(data, policy=email.policy.default)
    except Exception as exc:  # the stdlib parser on hostile input (ValueError, IndexError, ...): the message's fault
        raise MalformedFile(f"{what}: not a readable email ({_why(exc)})") from None
    assert isinstance(message, EmailMessage)
    _check_shape(message, what)
    return message


def _check_shape(message: Message, what: str) -> None:
    """At most MAX_MIME_DEPTH levels and MAX_MIME_PARTS parts, walked without recursion."""
    parts = 0
    stack: list[tuple[Message, int]] = [(message, 1)]
    while stack:
        part, depth = stack.pop()
        parts += 1
        if depth > MAX_MIME_DEPTH:
            raise MalformedFile(f"{what}: MIME parts nested more than {MAX_MIME_DEPTH} deep; no pbem message is")
        if parts > MAX_MIME_PARTS:
            raise MalformedFile(f"{what}: more than {MAX_MIME_PARTS} MIME parts; no pbem message has that many")
        payload = part.get_payload()
        if isinstance(payload, list):
            stack.extend((child, depth + 1) for child in reversed(payload) if not isinstance(child, str))


def _why(exc: BaseException) -> str:
    """An exception from the stdlib, as a short visible phrase."""
    from pbem.signed.textsafe import visible

    text = visible(str(exc))
    return f"{type(exc).__name__}: {text[:160]}" if text else type(exc).__name__


def sender(message: Message, what: str = "a message") -> str:
    """The address in the From header ("" if none), printable; MalformedFile if the stdlib cannot read it.

    A From the standard library refuses (an encoded CR LF smuggling a Bcc:
    line, say) is a hostile message, refused as such rather than guessed at.
    """
    from email.utils import parseaddr

    from pbem.signed.textsafe import visible

    try:
        value = message.get("From")
        text = "" if value is None else str(value)
    except Exception as exc:  # ValueError from the header registry, and whatever else it raises
        raise MalformedFile(f"{what}: its From header cannot be read ({_why(exc)})") from None
    return visible(parseaddr(text[:998])[1])  # RFC 5322's line limit: a From longer is no one's address


def header(message: Message, name: str) -> str:
    """A header's raw value as visible text, or "" ; never raises."""
    from pbem.signed.textsafe import visible

    try:
        raw = next((str(value) for key, value in message.raw_items() if key.lower() == name.lower()), "")
    except Exception:
        return ""
    return visible(" ".join(raw.split()))[:200]


def from_message(message: Message, what: str) -> list[Found]:
    """The pbem files in one email: raw attachments and armor in any text part.

    MalformedFile if the stdlib fails on any part of it, or if its parts
    decode to more than MAX_DECODED_BYTES.
    """
    try:
        return _from_message(message, what)
    except MalformedFile:
        raise
    except Exception as exc:  # a header or payload the stdlib cannot read (a CR in an address, ...)
        raise MalformedFile(f"{what}: not a readable email ({_why(exc)})") from None


def _from_message(message: Message, what: str) -> list[Found]:
    message_id = header(message, "Message-ID")
    found: list[Found] = []
    decoded = 0
    html_left = MAX_HTML_CHARS
    for number, part in enumerate(_leaves(message), 1):
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes) or not payload:
            continue
        decoded += len(payload)
        if decoded > MAX_DECODED_BYTES:
            raise MalformedFile(f"{what}: its parts decode to more than {MAX_DECODED_BYTES} bytes; no pbem message does")
        filename = part.get_filename() or ""
        where = f"{what} (attachment {filename})" if filename else f"{what} (part {number})" if number > 1 else what
        if payload.startswith(RAW_START) or filename.endswith(".pbem"):
            found.append(Found(payload, where, message_id))
            continue
        text = _part_text(part, payload)
        if part.get_content_type() == "text/html":
            if len(text) > html_left:
                continue
            html_left -= len(text)
            text = html_text(text)
        found.extend(Found(f.raw, f.what, message_id) for f in from_text(text, where))
    return _unique(found)


def _leaves(message: Message) -> Iterable[Message]:
    """The non-multipart parts in order, without recursion (the depth is bounded already, but still)."""
    stack = [message]
    while stack:
        part = stack.pop()
        payload = part.get_payload() if part.is_multipart() else None
        if isinstance(payload, list):
            stack.extend(reversed([child for child in payload if not isinstance(child, str)]))
        else:
            yield part


def _part_text(part: Message, payload: bytes) -> str:
    charset = part.get_content_charset() or "utf-8"
    try:
        text = payload.decode(charset, errors="replace")
    except LookupError:  # an unknown charset name: the armor is ASCII anyway
        text = payload.decode("utf-8", errors="replace")
    return text


class _Text(HTMLParser):
    """The text of an HTML document, with a line break where a mail program shows one."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self.out.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in _BREAK_AFTER:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        self.out.append(data)


def html_text(markup: str) -> str:
    """The text of `markup`, entities decoded; linear time in its length, whatever it holds.

    html.parser, fed a tag that never closes, retries it at every later "<"
    up to the end of its input: one feed of a flood of "<br" is quadratic.
    Fed pieces cut just before a "<", each closed before the next (an
    unclosed tag then ends as text, as at the end of a document), no retry
    reaches past its piece: at most HTML_PIECE characters rescanned per "<".
    """
    parser = _Text()
    start = 0
    cut = markup.find("<", 1)
    while cut >= 0:
        if cut - start >= HTML_PIECE:
            _feed(parser, markup[start:cut])
            start = cut
        cut = markup.find("<", cut + 1)
    _feed(parser, markup[start:])
    return "".join(parser.out)


def _feed(parser: _Text, piece: str) -> None:
    parser.feed(piece)
    parser.close()
    parser.reset()  # no state (an unclosed <script>, a half tag) carries into the next piece


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


def one_file(path: Path) -> tuple[bytes, str]:
    """The one pbem file a path holds (an invitation: a file, a message or a text), refused if several."""
    found = incoming(path)
    if len(found) != 1:
        raise UsageError(f"{path}: holds {len(found)} pbem files; give the invitation alone")
    return found[0]
