"""Rebuild the store of pinned rules data and scenarios (scenarios/<ruleset>/pinned/) from main's history.

A game pins its rules data and scenario by SHA-256 in its signed invitation
(docs/protocol.md, "Data by hash"). So that a game begun under one release can
be finished under the next, every distinct version of the built-in data that a
release of main could have pinned is kept, named by its hash:

    scenarios/war_galley/pinned/rules/<sha256>.json     a rules data bundle
    scenarios/<ruleset>/pinned/<scenario>/<sha256>.toml  a built-in scenario
    scenarios/duel/pinned/<kind>/<sha256>.json          Dice Duel's rules data or scenario

The bytes are rebuilt exactly as `default_rules_data()` and `builtin_scenario()`
build them at each commit (`git show COMMIT:path`): War Galley's bundle is the
canonical JSON of charts.toml, commanders.toml and counters.toml (the form
engine/rulesdata.py has had since e4d8155, the bundle's first commit), the
fleets rules data is rules.toml as it is, Dice Duel's data its .json files as
they are (before they were files, pbem/duel.py built the very same bytes,
never changed). Only data today's rules still read
is kept (a bundle today's parser refuses could not go on anyway); the rest is
counted. Run from the repository:

    python bench/pinned_store.py [REV]      (default: main)

It only adds files; tests/test_pinned_store.py checks that every current
built-in's hash is in the store and that every stored file hashes to its name.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
BUNDLE_FIRST = "e4d8155"  # War Galley's rules data bundle, in today's canonical form
FLEETS_FIRST = "2f3afa9"  # the fleets ruleset's first commit
WG_FILES = {"charts": "charts.toml", "commanders": "commanders.toml", "counters": "counters.toml"}


def git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True).stdout


def since(first: str, rev: str) -> list[str]:
    """Every commit of `rev`'s history from `first` on (merged branches too)."""
    return git("rev-list", "--ancestry-path", f"{first}^..{rev}").decode().split() + [first]


def tree(commit: str) -> dict[str, str]:
    """path -> blob id of every file under scenarios/ at `commit`."""
    out: dict[str, str] = {}
    for line in git("ls-tree", "-r", commit, "--", "scenarios").decode().splitlines():
        meta, path = line.split("\t", 1)
        out[path] = meta.split()[2]
    return out


_blobs: dict[str, bytes] = {}


def blob(sha: str) -> bytes:
    if sha not in _blobs:
        _blobs[sha] = git("cat-file", "blob", sha)
    return _blobs[sha]


def war_galley(commit: str, files: dict[str, str]) -> tuple[bytes | None, dict[str, bytes]]:
    """(the rules data bundle, {scenario: bytes}) as War Galley built them at `commit`."""
    bundle = None
    for base in ("scenarios/war_galley", "scenarios"):
        paths = {key: f"{base}/{name}" for key, name in WG_FILES.items()}
        if all(p in files for p in paths.values()):
            texts = {key: blob(files[p]).decode("utf-8") for key, p in paths.items()}
            bundle = json.dumps(texts, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
            break
    scenarios: dict[str, bytes] = {}
    for path, sha in files.items():
        for battles in ("scenarios/war_galley/battles/", "scenarios/battles/"):
            if path.startswith(battles) and path.endswith(".toml") and "/" not in path[len(battles):]:
                scenarios[path[len(battles):-5]] = blob(sha)
        if path in ("scenarios/war_galley/tournament.toml", "scenarios/tournament.toml"):
            scenarios["tournament"] = blob(sha)
    return bundle, scenarios


def fleets(files: dict[str, str]) -> tuple[bytes | None, dict[str, bytes]]:
    rules = files.get("scenarios/fleets/rules.toml")
    scenarios = {path[len("scenarios/fleets/"):-5]: blob(sha) for path, sha in files.items()
                 if path.startswith("scenarios/fleets/") and path.endswith(".toml")
                 and "/" not in path[len("scenarios/fleets/"):] and not path.endswith("/rules.toml")}
    return (blob(rules) if rules else None), scenarios


def duel(files: dict[str, str]) -> dict[str, bytes]:
    """{kind: bytes} of Dice Duel's data files ("rules" and one per scenario) at a commit."""
    top = "scenarios/duel/"
    return {path[len(top):-5]: blob(sha) for path, sha in files.items()
            if path.startswith(top) and path.endswith(".json") and "/" not in path[len(top):]}


def main(rev: str = "main") -> None:
    sys.path.insert(0, str(ROOT))
    from engine.duel.ruleset import RULESET as DUEL
    from engine.fleets import scenario as fleet_scenario
    from engine.fleets.ruleset import RULESET as FLEETS
    from engine.war_galley.map_and_galleys import rulesdata
    from engine.war_galley.ruleset import RULESET as WAR_GALLEY

    def wg_rules_ok(data: bytes) -> bool:
        try:
            rulesdata.load_rules_data(data)
        except Exception:  # today's rules cannot read it: a game pinning it could not go on
            return False
        return True

    def wg_scenario_ok(data: bytes) -> bool:
        try:
            WAR_GALLEY.sides(data, WAR_GALLEY.default_rules_data())
        except Exception:
            return False
        return True

    def fleets_rules_ok(data: bytes) -> bool:
        try:
            FLEETS.new_game(FLEETS.builtin_scenario("open-sea") or b"", data, {})
        except Exception:
            return False
        return True

    def fleets_scenario_ok(data: bytes) -> bool:
        try:
            fleet_scenario.parse(data)
        except Exception:
            return False
        return True

    def duel_ok(kind: str) -> Callable[[bytes], bool]:
        def ok(data: bytes) -> bool:
            try:
                if kind == "rules":
                    DUEL.new_game(DUEL.builtin_scenario("duel") or b"", data, {})
                else:
                    DUEL.new_game(data, DUEL.default_rules_data(), {})
            except Exception:
                return False
            return True
        return ok

    found: dict[tuple[str, str, str], bytes] = {}  # (ruleset folder, kind, sha) -> bytes
    refused: set[tuple[str, str]] = set()
    for commit in since(BUNDLE_FIRST, rev):
        files = tree(commit)
        bundle, scenarios = war_galley(commit, files)
        wanted = [("war_galley", "rules", bundle, wg_rules_ok)] if bundle else []
        wanted += [("war_galley", name, data, wg_scenario_ok) for name, data in scenarios.items()]
        if subprocess.run(["git", "-C", str(ROOT), "merge-base", "--is-ancestor", FLEETS_FIRST, commit]).returncode == 0:
            rules, fleet_scenarios = fleets(files)
            wanted += [("fleets", "rules", rules, fleets_rules_ok)] if rules else []
            wanted += [("fleets", name, data, fleets_scenario_ok) for name, data in fleet_scenarios.items()]
        wanted += [("duel", kind, data, duel_ok(kind)) for kind, data in duel(files).items()]
        for folder, kind, data, ok in wanted:
            sha = hashlib.sha256(data).hexdigest()
            if (folder, kind, sha) in found or (kind, sha) in refused:
                continue
            if ok(data):
                found[(folder, kind, sha)] = data
            else:
                refused.add((kind, sha))
    added = 0
    for (folder, kind, sha), data in sorted(found.items()):
        suffix = ".json" if (folder, kind) == ("war_galley", "rules") or folder == "duel" else ".toml"
        path = ROOT / "scenarios" / folder / "pinned" / kind / f"{sha}{suffix}"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            added += 1
    kinds: dict[str, int] = {}
    for folder, kind, _ in found:
        kinds[f"{folder}/{kind}"] = kinds.get(f"{folder}/{kind}", 0) + 1
    print(f"{len(found)} distinct pinnable versions ({added} new):",
          ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"{len(refused)} versions today's rules refuse (not kept)")


if __name__ == "__main__":
    main(*sys.argv[1:])
