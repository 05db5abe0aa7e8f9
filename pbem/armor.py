"""The armored text form of a file, for email bodies and forum posts.

    -----BEGIN PBEM FILE-----
    Game: 3f2a... File: 7
    <blank line>
    base64 of the file's bytes, 64 characters a line
    -----END PBEM FILE-----

Reading tolerates what mail and forums do to text: re-wrapped lines, "> "
quoting at any depth, stray spaces and CRLF. Header lines (with a colon) are
information only; the bytes are all in the base64.
"""

from __future__ import annotations

import base64
import binascii
import re

from pbem.errors import MalformedFile

BEGIN = "-----BEGIN PBEM FILE-----"
END = "-----END PBEM FILE-----"
_QUOTE = re.compile(r"^[\s>]*")


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


def dearmor_all(text: str, what: str) -> list[bytes]:
    """Every armored file in `text`, in order; MalformedFile if one is damaged."""
    files: list[bytes] = []
    inside = False
    chunks: list[str] = []
    for line in text.splitlines():
        line = _QUOTE.sub("", line).strip()
        if line == BEGIN:
            inside, chunks = True, []
        elif line == END and inside:
            inside = False
            data = "".join(chunks)
            try:
                files.append(base64.b64decode(data, validate=True))
            except (binascii.Error, ValueError):
                raise MalformedFile(f"{what}: armored file {len(files) + 1} has damaged base64") from None
        elif inside and ":" not in line:
            chunks.append(line.replace(" ", ""))
    if inside:
        raise MalformedFile(f"{what}: armored file {len(files) + 1} has no END line")
    if not files:
        raise MalformedFile(f"{what}: no '{BEGIN}' block found")
    return files
