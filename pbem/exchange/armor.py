"""The armored text form of a file, for email bodies and forum posts.

    -----BEGIN PBEM FILE-----
    Game: 3f2a... File: 7
    <blank line>
    base64 of the file's bytes, 64 characters a line
    -----END PBEM FILE-----

Reading tolerates what mail and forums do to text: re-wrapped lines, "> "
quoting at any depth, stray spaces and CRLF, a block starting mid-line (in
`[code]` or a Markdown fence), a block re-flowed into one paragraph, and
invisible characters (zero-width spaces, soft hyphens). Header lines (with a
colon) are information only; the bytes are all in the base64. Only text is
searched for armor: a raw file never is (pbem.exchange.intake decides the form).
"""

from __future__ import annotations

import base64
import binascii
import re

from pbem.errors import MalformedFile

BEGIN = "-----BEGIN PBEM FILE-----"
END = "-----END PBEM FILE-----"
# Quoting at the start of any line, once the line ends are all "\n": one pass
# over the whole text (a substitution per line cost 2.2 s on 8 MiB of empty lines).
_QUOTE = re.compile(r"^(?:[^\S\n]|>)+", re.MULTILINE)
# Every other line end str.splitlines knows, so that "a line" means what it did.
_LINE_ENDS = dict.fromkeys(map(ord, "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"), "\n")


def armor(raw: bytes, header: str = "") -> str:
    text = base64.b64encode(raw).decode("ascii")
    lines = [BEGIN]
    if header:
        lines.append(header)
    lines.append("")
    lines.extend(text[i : i + 64] for i in range(0, len(text), 64))
    lines.append(END)
    return "\n".join(lines) + "\n"


def is_armored(data: bytes) -> bool:
    return BEGIN.encode() in data


# Markers as mail and forums leave them: re-wrapped between words, quoted.
_BEGIN = re.compile(r"-{5}\s*BEGIN\s+PBEM\s+FILE\s*-{5}")
_END = re.compile(r"-{5}\s*END\s+PBEM\s+FILE\s*-{5}")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_BASE64 = re.compile(r"\A[A-Za-z0-9+/]*={0,2}\Z")


def has_block(text: str) -> bool:
    return _BEGIN.search(_unquote(text)) is not None


def _unquote(text: str) -> str:
    """The text with "> " quoting removed from every line and invisible characters dropped."""
    text = text.translate(_INVISIBLE).replace("\r\n", "\n").translate(_LINE_ENDS)
    return _QUOTE.sub("", text)


def dearmor_all(text: str, what: str) -> list[bytes]:
    """Every armored file in `text`, in order, wherever it stands; MalformedFile if one is damaged.

    A block may start mid-line (`[code]-----BEGIN ...`), have lost its line
    breaks (a paragraph re-flowed by a forum) or gained new ones. Inside it,
    the header is either the lines before the first blank line, or, once the
    lines are gone, the leading `Key: value` pairs; the rest is base64.
    """
    plain = _unquote(text)
    files: list[bytes] = []
    position = 0
    while (begin := _BEGIN.search(plain, position)) is not None:
        end = _END.search(plain, begin.end())
        if end is None:
            raise MalformedFile(f"{what}: armored file {len(files) + 1} has no END line")
        data = _base64_of(plain[begin.end() : end.start()])
        try:
            if not _BASE64.match(data):
                raise ValueError("not base64")
            files.append(base64.b64decode(data, validate=True))
        except (binascii.Error, ValueError):
            raise MalformedFile(f"{what}: armored file {len(files) + 1} has damaged base64") from None
        position = end.end()
    if not files:
        raise MalformedFile(f"{what}: no '{BEGIN}' block found")
    return files


def _base64_of(inside: str) -> str:
    lines = [line.strip() for line in inside.strip().splitlines()]
    if "" in lines and all(":" in line for line in lines[: lines.index("")]):
        tokens = " ".join(lines[lines.index("") + 1 :]).split()
    else:
        tokens = inside.split()
        while tokens and tokens[0].endswith(":"):  # re-flowed header: "Game: 3f2a File: 7"
            tokens = tokens[2:]
    return "".join(tokens)
