"""Text that came out of a file, made safe to print on a terminal.

A name, a note, a unit's name from a user scenario, an error message quoting
an order: any of it may carry bytes a terminal obeys (ESC sequences that move
the cursor, clear the screen or write the clipboard; bidi overrides that
reorder what the eye reads). `visible` spells such characters out (`\\x1b`,
`\\u202e`), the same on a terminal and through a pipe, so what is printed is
what the file says. `refused_in_name` is the stricter rule for player names
(docs/protocol.md, "Player names"): a name is one line of visible text.
"""

from __future__ import annotations

import re

# Characters a name may not contain and printed text shows escaped: C0 controls,
# DEL, C1 controls, the bidi marks, embeddings, overrides and isolates, the
# zero-width and invisible format characters, the line and paragraph
# separators, and the byte-order mark. A fixed list (not a Unicode category
# lookup) so every implementation, whatever its Unicode version, agrees.
INVISIBLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x001F),  # C0 controls (TAB and LF included)
    (0x007F, 0x009F),  # DEL and the C1 controls (CSI, OSC, ...)
    (0x061C, 0x061C),  # ARABIC LETTER MARK
    (0x200B, 0x200F),  # zero-width space, joiners, LRM, RLM
    (0x2028, 0x202E),  # line/paragraph separators, LRE, RLE, PDF, LRO, RLO
    (0x2060, 0x2069),  # word joiner, invisible operators, LRI, RLI, FSI, PDI
    (0xFEFF, 0xFEFF),  # byte-order mark / zero-width no-break space
)

_CLASS = "".join(
    f"\\u{low:04x}" if low == high else f"\\u{low:04x}-\\u{high:04x}" for low, high in INVISIBLE_RANGES
)
_INVISIBLE = re.compile(f"[{_CLASS}]")
_INVISIBLE_BUT_LAYOUT = re.compile(f"(?![\\n\\t])[{_CLASS}]")


def _spell(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every invisible or terminal-controlling character spelled out, newlines too."""
    return _INVISIBLE.sub(_spell, text)


def visible_lines(text: str) -> str:
    """As `visible`, but newlines and tabs stay: for pbem's own multi-line output around file-borne words."""
    return _INVISIBLE_BUT_LAYOUT.sub(_spell, text)


def refused_in_name(name: str) -> str | None:
    """Why `name` is not one line of visible text, or None if it is."""
    match = _INVISIBLE.search(name)
    if match:
        return f"contains the invisible or control character {_spell(match)}"
    if not name.strip():
        return "is blank"
    return None


def cut(text: str, limit: int = 80) -> str:
    """`text` as repr, cut to its first `limit` characters when longer: a typed line named in an error
    message (the message is one line; a 5,000-digit order need not be printed whole to be named)."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"
