"""Numbers in typed order notation, read with a bound.

`int()` on typed text fails three ways a notation parser must not pass on:
a number too long to convert (ValueError past 4,300 digits), one too large
to use (`[step] * 10**21` raises OverflowError; `[step] * 10**9` fills the
memory) and a digit `str.isdigit` accepts but `int` does not (`²`). Every
ruleset's notation reads its numbers here and refuses, with its own error
type, whatever `whole` answers None for.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"-?[0-9]+")  # ASCII only: the notation prints what it read, digit for digit


def whole(text: str, most: int, negative: bool = False) -> int | None:
    """The whole number `text` spells in ASCII digits, if it is at most `most` in size (and not
    below zero unless `negative`); None for anything else, before converting a long text."""
    if len(text) > len(str(most)) + 1 or not _DIGITS.fullmatch(text) or (text[0] == "-" and not negative):
        return None
    value = int(text)
    return value if abs(value) <= most else None


def shown(text: str, limit: int = 24) -> str:
    """A typed word for an error message, cut short: an error names what was typed in one line."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"
