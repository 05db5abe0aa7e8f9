"""Where the installed rules data and report templates are.

`scenarios/` and `templates/` are shipped as data packages (see
pyproject.toml), so they are found the same way from a checkout, an editable
install, a wheel or pipx: through importlib.resources, never relative to a
source file. Each ruleset has its own folder in both (`scenarios/war_galley/`,
`templates/war_galley/`), named like its package under engine/. Nothing here
is ruleset-specific.
"""

from __future__ import annotations

import hashlib
import re
from importlib.resources import files
from pathlib import Path

# A store entry's name: a kind ("rules" or a scenario's name) and a SHA-256, both from a game's invitation,
# so both are checked before they touch a path (no "..", no separators).
_KIND = re.compile(r"\A[a-z0-9][a-z0-9_-]{0,63}\Z")
_SHA256 = re.compile(r"\A[0-9a-f]{64}\Z")
PINNED_SUFFIXES = (".json", ".toml")


def scenarios_dir(ruleset: str | None = None) -> Path:
    """The installed `scenarios/` data, or one ruleset's folder of it (a real folder on disk)."""
    top = Path(str(files("scenarios")))
    return top / ruleset if ruleset else top


def templates_dir(ruleset: str | None = None) -> Path:
    """The installed `templates/` data, or one ruleset's folder of it (a real folder on disk)."""
    top = Path(str(files("templates")))
    return top / ruleset if ruleset else top


def pinned_data(ruleset: str, kind: str, sha256: str) -> bytes | None:
    """The bytes with this SHA-256 that a release shipped as `ruleset`'s rules data (kind "rules") or as
    its built-in scenario `kind`, from the store scenarios/<ruleset>/pinned/<kind>/<sha256>.<suffix>
    (bench/pinned_store.py seeds it from the history); None if not kept here.

    A game pins its data by hash in its signed invitation, so bytes found by hash are the very bytes
    it pinned: the hash is checked again here, and a damaged store entry is as good as none."""
    if not _KIND.match(kind) or not _SHA256.match(sha256):
        return None
    folder = scenarios_dir(ruleset) / "pinned" / kind
    for suffix in PINNED_SUFFIXES:
        try:
            data = (folder / f"{sha256}{suffix}").read_bytes()
        except OSError:
            continue
        if hashlib.sha256(data).hexdigest() == sha256:
            return data
    return None


__all__ = ["pinned_data", "scenarios_dir", "templates_dir"]
