"""Where the installed rules data and report templates are.

`scenarios/` and `templates/` are shipped as data packages (see
pyproject.toml), so they are found the same way from a checkout, an editable
install, a wheel or pipx: where Python imports the package from, never
relative to this source file. Both are real folders on disk (pbem reads and
lists them as files); their packages are only a docstring, so finding them
costs nothing, where importlib.resources cost about 2 ms of every command.
Each ruleset has its own folder in both (`scenarios/war_galley/`,
`templates/war_galley/`), named like its package under engine/. Nothing here
is ruleset-specific.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path
from typing import Any

import msgspec

import scenarios
import templates

# A store entry's name: a kind ("rules" or a scenario's name) and a SHA-256, both from a game's invitation,
# so both are checked before they touch a path (no "..", no separators).
_KIND = re.compile(r"\A[a-z0-9][a-z0-9_-]{0,63}\Z")
_SHA256 = re.compile(r"\A[0-9a-f]{64}\Z")
PINNED_SUFFIXES = (".json", ".toml")


def scenarios_dir(ruleset: str | None = None) -> Path:
    """The installed `scenarios/` data, or one ruleset's folder of it (a real folder on disk)."""
    top = Path(scenarios.__file__).parent
    return top / ruleset if ruleset else top


def templates_dir(ruleset: str | None = None) -> Path:
    """The installed `templates/` data, or one ruleset's folder of it (a real folder on disk)."""
    top = Path(templates.__file__).parent
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


# Every TOML file shipped under scenarios/ is also shipped as its document in JSON, named by the SHA-256
# of the TOML bytes: msgspec reads JSON some hundred times faster than tomllib reads TOML (counters.toml:
# 10 ms against 0.05 ms), and a command reads three or four such files. Built by `python -m engine.datafiles`
# (tests/engine/test_toml_as_json.py fails until it is run after a data file changes); without a twin the
# TOML is read as always, so a twin only ever saves time.
TOML_AS_JSON = "toml-as-json"


def toml_document(data: bytes) -> dict[str, Any] | None:
    """The TOML document `data` holds, if it is one shipped with this package (its JSON twin), else None."""
    path = scenarios_dir() / TOML_AS_JSON / f"{hashlib.sha256(data).hexdigest()}.json"
    try:
        doc = msgspec.json.decode(path.read_bytes())
    except (OSError, msgspec.DecodeError):
        return None
    return doc if isinstance(doc, dict) else None


class TomlSyntaxError(ValueError):
    """TOML that does not parse: tomllib's message (with its "(at line L, column C)")."""


def read_toml(data: bytes) -> dict[str, Any]:
    """TOML bytes as their document: the shipped twin if there is one, else tomllib (TomlSyntaxError,
    UnicodeDecodeError). Only a file without a shipped twin (a player's own battle) imports tomllib."""
    doc = toml_document(data)
    if doc is not None:
        return doc
    import tomllib

    try:
        return tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise TomlSyntaxError(str(exc)) from None


def build_toml_as_json() -> list[Path]:
    """Write the JSON twin of every TOML file under scenarios/ (pinned ones too) and remove stale twins:
    the folder then holds exactly the documents shipped. A document JSON cannot hold as it is (a TOML date)
    gets no twin. Returns the twins written."""
    import tomllib  # building the package only

    top = scenarios_dir()
    folder = top / TOML_AS_JSON
    folder.mkdir(exist_ok=True)
    wanted: dict[str, bytes] = {}
    for path in sorted(top.rglob("*.toml")):
        data = path.read_bytes()
        doc = tomllib.loads(data.decode("utf-8"))
        text = msgspec.json.encode(doc)  # in file order: a table's keys are ordered (a chart's bands)
        if msgspec.json.decode(text) == doc:
            wanted[f"{hashlib.sha256(data).hexdigest()}.json"] = text + b"\n"
    for stale in folder.glob("*.json"):
        if stale.name not in wanted:
            stale.unlink()
    written = []
    for name, text in wanted.items():
        target = folder / name
        if not target.is_file() or target.read_bytes() != text:
            target.write_bytes(text)
        written.append(target)
    return written


__all__ = ["TomlSyntaxError", "pinned_data", "read_toml", "scenarios_dir", "templates_dir", "toml_document"]


if __name__ == "__main__":
    made = build_toml_as_json()
    print(f"{len(made)} TOML documents as JSON in {scenarios_dir() / TOML_AS_JSON}", file=sys.stderr)

