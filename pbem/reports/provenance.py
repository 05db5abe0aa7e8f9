"""What a game was set up with, said plainly: rules data, scenario, options, chain lengths.

The invitation carries (or names) the exact rules data and scenario, pinned by
hash. A host can hand the guest a scenario file that is a copy of a built-in
battle with one line changed (the victory conditions, a unit's ratings)
under the same name; the game would look exactly like the real one. So when
the pinned bytes are not the installed ruleset's built-in bytes of that name,
`new`, `accept` and `status` say so loudly and show a unified diff of the
lines that differ (bounded in length). pbem compares bytes only: it knows
nothing of either ruleset, just what `builtin_scenario(name)` and
`default_rules_data()` return.
"""

from __future__ import annotations

import difflib
import hashlib
from typing import Any

from pbem.signed import textsafe
from pbem.signed.movefile import Player

MAX_DIFF_LINES = 40
MAX_LINE_CHARS = 160


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def diff(builtin: bytes, pinned: bytes, name: str) -> list[str]:
    """A unified diff from the built-in bytes to the game's, every line visible, at most MAX_DIFF_LINES."""
    old = builtin.decode("utf-8", errors="replace").splitlines()
    new = pinned.decode("utf-8", errors="replace").splitlines()
    lines = list(difflib.unified_diff(old, new, f"built-in {name}", f"this game's {name}", n=1, lineterm=""))
    shown = [textsafe.visible(line)[:MAX_LINE_CHARS] for line in lines[:MAX_DIFF_LINES]]
    if len(lines) > MAX_DIFF_LINES:
        shown.append(f"... and {len(lines) - MAX_DIFF_LINES} more diff lines")
    return shown


def data_lines(what: str, name: str, pinned: bytes, builtin: bytes | None) -> list[str]:
    """`what` ("rules data", "scenario") of the game: built in, MODIFIED (with a diff), or its own."""
    sha = _sha(pinned)[:16]
    label = textsafe.visible(name)
    if builtin is not None and pinned == builtin:
        return [f"{what} {label}: built in (sha256 {sha})"]
    if builtin is None:
        return [f"{what} {label}: THIS GAME'S OWN, not built in here (sha256 {sha}): read it before you play"]
    return [f"{what} {label}: MODIFIED, NOT the built-in {label} (sha256 {sha}; built-in {_sha(builtin)[:16]}); "
            "what differs:"] + ["    " + line for line in diff(builtin, pinned, name)]


def options_line(options: dict[str, object]) -> str:
    if not options:
        return "game options: none"
    return "game options: " + ", ".join(f"{textsafe.visible(k)}={textsafe.visible(str(v))}" for k, v in sorted(options.items()))


def chains_line(host: Player, guest: Player | None) -> str:
    """Each player's chain length: how many files he can write in this game."""
    text = f"reveal chains: host {host.chain} files"
    return text + (f", guest {guest.chain} files" if guest is not None else "")


def page_marks(ruleset: str, name: str, scenario: bytes, builtin_scenario: bytes | None, rules: bytes,
               builtin_rules: bytes, options: dict[str, object]) -> dict[str, Any]:
    """What a page (turn report, archive, archive index) shows beside the battle's title, which comes from
    the scenario's own data and so proves nothing: `mark` (None for the built-in battle under the built-in
    rules data; else MODIFIED, or NOT BUILT IN for a scenario this pbem does not have) and one `notes` line
    for each thing that is not the built-in, the options among them."""
    notes, mark = [], None
    if builtin_scenario is None:
        mark = "NOT BUILT IN"
        notes.append(f"Scenario {name}: this game's own, not a battle built in here (sha256 {_sha(scenario)[:16]}); "
                     "its title and everything in it are the host's.")
    elif scenario != builtin_scenario:
        mark = "MODIFIED"
        notes.append(f"Scenario {name}: MODIFIED, not the built-in {name} (sha256 {_sha(scenario)[:16]}; built-in "
                     f"{_sha(builtin_scenario)[:16]}): `pbem status` shows what differs.")
    if rules != builtin_rules:
        mark = mark or "MODIFIED"
        notes.append(f"Rules data: MODIFIED, not {ruleset}'s built-in charts and counters (sha256 "
                     f"{_sha(rules)[:16]}; built-in {_sha(builtin_rules)[:16]}).")
    if options:
        notes.append(options_line(options)[0].upper() + options_line(options)[1:] + ".")
    return {"mark": mark, "notes": notes}
