"""armor._unquote in one pass means what the per-line definition means: quoting off every line."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.exchange import armor

_PER_LINE = re.compile(r"^[\s>]*")


def _per_line(text: str) -> str:
    """The definition: drop invisible characters, then leading space and '>' from each line of splitlines()."""
    text = text.translate(armor._INVISIBLE)
    return "\n".join(_PER_LINE.sub("", line) for line in text.splitlines())


PIECES = ["\n", "\r", "\r\n", " ", "\t", ">", "> ", "a", "B", "-----", "\u2028", "\u2029", "\x85", "\x1c",
          "\u00a0", "\u3000", "\u200b", "\ufeff", "\f", "\v", "BEGIN PBEM FILE"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_one_pass_unquote_is_the_per_line_one(text: str) -> None:
    assert armor._unquote(text) in (_per_line(text), _per_line(text) + "\n")


def test_a_block_among_many_empty_lines_is_found() -> None:
    block = armor.armor(b'{"author":"x"}')
    text = "\n" * 100_000 + "> " + block.replace("\n", "\n> ") + "\r\n" * 100_000
    assert armor.dearmor_all(text, "flood") == [b'{"author":"x"}']
