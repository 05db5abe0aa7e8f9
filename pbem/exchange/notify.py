"""The player's notification command, run by `pbem mail`/`pbem watch` when something arrives.

`notify = "notify-send pbem {game} {what}"` in the mail settings (or a list
of arguments). The command is split once, from the player's own settings,
into an argv; each placeholder ({game}, {folder}, {what}, {whose}) is
substituted inside its argument, and the result run without a shell. The
values come partly from mail (the opponent's name is his to choose): they
are made one visible line and cut short, and an argument can never become
an option (a leading '-' the template did not have gets a space before it).
"""

from __future__ import annotations

import subprocess
from typing import Sequence

import msgspec

from pbem.signed import textsafe

PLACEHOLDERS = ("game", "folder", "what", "whose")
VALUE_CHARS = 200
TIMEOUT = 30  # seconds a notification may take before pbem gives up on it


class Arrival(msgspec.Struct, frozen=True):
    """What to tell the player: which game, what came, whose decision it is now."""

    game: str
    folder: str
    what: str
    whose: str


def argv(template: Sequence[str], arrival: Arrival) -> list[str]:
    """The command for one arrival: placeholders substituted per argument, never re-split."""
    values = {name: _clean(getattr(arrival, name)) for name in PLACEHOLDERS}
    out = []
    for arg in template:
        done = arg
        for name, value in values.items():
            done = done.replace("{" + name + "}", value)
        if done.startswith("-") and not arg.startswith("-"):
            done = " " + done
        out.append(done)
    return out


def _clean(value: str) -> str:
    text = " ".join(textsafe.visible(value).split())
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def run(template: Sequence[str], arrival: Arrival) -> str | None:
    """Run the notification; a line to show if it failed (a notification never stops a round)."""
    if not template:
        return None
    command = argv(template, arrival)
    try:
        done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"notify: {command[0]} could not run ({exc})"
    if done.returncode != 0:
        why = textsafe.visible(done.stderr.decode("utf-8", "replace").strip())[:200]
        return f"notify: {command[0]} exited {done.returncode}{': ' + why if why else ''}"
    return None
