"""The rules data bundle: charts, counters and commanders as one pinned byte string.

A game pins its rules data by hash in its first file (docs/protocol.md), so
the three data files travel as one canonical JSON object
`{"charts": text, "commanders": text, "counters": text}` (sorted keys, no
whitespace, UTF-8). Players who own the printed cards can build their own
bundle from a folder holding the three TOML files:

    python -m engine.war_galley.map_and_galleys.rulesdata DIR > my-rules.json
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from pathlib import Path

import msgspec

from engine.datafiles import scenarios_dir
from engine.errors import RulesDataError
from engine.war_galley.map_and_galleys.charts import Charts, load_charts
from engine.war_galley.map_and_galleys.manifest import Commanders, Manifest, load_commanders, load_manifest

FILES = {"charts": "charts.toml", "commanders": "commanders.toml", "counters": "counters.toml"}


class RulesData(msgspec.Struct, frozen=True):
    """The three rules data texts, exactly as pinned."""

    charts: str
    commanders: str
    counters: str

    def to_bytes(self) -> bytes:
        return _bytes_of(self)

    @property
    def sha256(self) -> str:
        """Asked for by every state's encoding (turn.state), so computed once per bundle."""
        return _sha256_of(self)


@functools.lru_cache(maxsize=8)
def _bytes_of(data: RulesData) -> bytes:
    value = {"charts": data.charts, "commanders": data.commanders, "counters": data.counters}
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@functools.lru_cache(maxsize=8)
def _sha256_of(data: RulesData) -> str:
    return hashlib.sha256(_bytes_of(data)).hexdigest()


class Parsed(msgspec.Struct, frozen=True):
    """The bundle read into the rules' typed shapes."""

    charts: Charts
    manifest: Manifest
    commanders: Commanders


def bundle_from_folder(folder: Path) -> RulesData:
    texts = {}
    for key, name in FILES.items():
        path = folder / name
        try:
            texts[key] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RulesDataError(f"{path}: cannot read: {exc}") from None
    data = RulesData(**texts)
    parse(data)  # refuse a broken bundle at build time, not in the middle of a game
    return data


@functools.lru_cache(maxsize=1)
def default_rules_data() -> bytes:
    return bundle_from_folder(scenarios_dir("war_galley")).to_bytes()


def load_rules_data(data: bytes) -> RulesData:
    """Read and check a bundle; it must be in the canonical form it is pinned in."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RulesDataError(f"rules data: not JSON: {exc}") from None
    if not isinstance(value, dict) or set(value) != set(FILES) or not all(isinstance(v, str) for v in value.values()):
        raise RulesDataError(f"rules data: expected an object with text fields {sorted(FILES)}")
    bundle = RulesData(**value)
    if bundle.to_bytes() != data:
        raise RulesDataError("rules data: not in canonical form (sorted keys, no whitespace, UTF-8)")
    parse(bundle)
    return bundle


@functools.lru_cache(maxsize=8)
def parse(data: RulesData) -> Parsed:
    """The typed rules of a bundle; cached, since every state of a game shares one. The shipped texts
    are read from their JSON twins (engine.datafiles.read_toml), then checked as any other."""
    return Parsed(
        load_charts(data.charts.encode()),
        load_manifest(data.counters.encode(), "counters.toml"),
        load_commanders(data.commanders.encode(), "commanders.toml"),
    )


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m engine.war_galley.map_and_galleys.rulesdata DIR  (a folder with charts.toml, commanders.toml, counters.toml)",
              file=sys.stderr)
        return 2
    try:
        bundle = bundle_from_folder(Path(argv[0]))
    except RulesDataError as exc:
        print(exc, file=sys.stderr)
        return 1
    sys.stdout.buffer.write(bundle.to_bytes())
    print(f"sha256 {bundle.sha256}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
