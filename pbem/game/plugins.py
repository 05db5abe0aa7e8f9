"""The installed plug-ins of an entry-point group, found without importlib.metadata when nothing changed.

Importing importlib.metadata and scanning every distribution costs a process
tens of milliseconds before it can load a ruleset. What it finds depends only
on the import path (`sys.path`), the names in each of its folders (a
`*.dist-info` or `*.egg-info` folder per distribution) and each one's
`entry_points.txt`. So the answer is kept in the user's cache folder
($XDG_CACHE_HOME/pbem/plugins, else ~/.cache/pbem/plugins; owner-only and
checksummed, pbem.game.usercache) with a snapshot of all that: the path, the names in
each folder, and the SHA-256 of each `entry_points.txt`. A process takes the
snapshot again (a listing per folder, a small read per distribution: the
bytes, never the file's times, which cannot tell a write within one clock
tick) and uses the kept answer only if it is the same. Anything else asks importlib.metadata, as does a process
whose importers could find distributions elsewhere (a finder other than the
standard path finder, a zip or egg on the path): the cache never changes an
answer, deleting it only costs time. It knows no plug-in by name.

What it buys (issue 23, CPU): in a process that has imported what `pbem status`
imports, importlib.metadata costs 8.3-9.0 ms to import (email.message, socket)
and 2.0-2.3 ms to scan 33 distributions, the cache 0.8-1.0 ms. Whole process,
pbem status examples/tauris-game is 1.09x slower without it (31 paired runs),
which takes it from 5.99x `python -c pass` past the 6x target.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sys
from importlib import import_module, machinery
from pathlib import Path
from typing import Any, NamedTuple

from pbem.game import usercache

_FORMAT = 2  # 2: entry_points.txt by the SHA-256 of its bytes (1: by its times)
# importlib.metadata.EntryPoint.pattern: "module", "module:attr.attr", with [extras]
_PATTERN = re.compile(r"(?P<module>[\w.]+)\s*(:\s*(?P<attr>[\w.]+)\s*)?((?P<extras>\[.*\])\s*)?$")


class EntryPoint(NamedTuple):
    name: str
    value: str

    def load(self) -> Any:
        """What the entry point names, exactly as importlib.metadata.EntryPoint.load finds it."""
        match = _PATTERN.match(self.value)
        module = import_module(match.group("module"))  # type: ignore[union-attr]
        attrs = filter(None, (match.group("attr") or "").split("."))  # type: ignore[union-attr]
        return functools.reduce(getattr, attrs, module)


def entry_points(group: str) -> list[EntryPoint]:
    """The group's entry points, in importlib.metadata's order, from the cache when it is valid."""
    snapshot = _snapshot()
    name = _cache_file(group)
    if snapshot is not None and name is not None:
        kept = _read(name)
        if kept is not None and kept.get("snapshot") == snapshot and kept.get("group") == group:
            return [EntryPoint(name, value) for name, value in kept["entries"]]
    from importlib.metadata import entry_points as installed

    found = [EntryPoint(entry.name, entry.value) for entry in installed(group=group)]
    if snapshot is not None and name is not None:
        _write(name, {"format": _FORMAT, "group": group, "snapshot": snapshot,
                       "entries": [list(entry) for entry in found]})
    return found


def _snapshot() -> list[Any] | None:
    """What importlib.metadata's answer depends on here, or None if it may depend on more."""
    finders = [f for f in sys.meta_path if getattr(f, "find_distributions", None) is not None]
    if finders != [machinery.PathFinder]:
        return None  # some other importer may find distributions: ask importlib.metadata
    snapshot: list[Any] = [sys.version, os.getcwd() if "" in sys.path else None]
    for root in sys.path:
        if not isinstance(root, str) or os.path.basename(root).lower().endswith(".egg"):
            return None
        where = root or "."
        try:
            names = os.listdir(where)
        except OSError:
            if os.path.exists(where):
                return None  # a zip file on the path, say
            snapshot.append([root, None])
            continue
        infos = sorted(n for n in names if n.lower().endswith((".dist-info", ".egg-info")))
        snapshot.append([root, [[name, _digest(Path(where, name, "entry_points.txt"))] for name in infos]])
    return json.loads(json.dumps(snapshot))  # as JSON gives it back (tuples become lists)


def _digest(path: Path) -> str | None:
    """SHA-256 of the file's bytes, None if there is none (or it cannot be read: importlib.metadata says)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _cache_file(group: str) -> str | None:
    """The entry's name (one per interpreter and path: several environments share the cache folder)."""
    if os.environ.get("PBEM_NO_PLUGIN_CACHE"):
        return None
    return hashlib.sha256(json.dumps([group, sys.executable, sys.path]).encode()).hexdigest()[:32] + ".json"


def _read(name: str) -> dict[str, Any] | None:
    where = usercache.folder("plugins")
    payload = usercache.load(where, name) if where is not None else None
    if payload is None:
        return None  # none, damaged or shared: anyone could choose what code is loaded
    try:
        kept = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(kept, dict) or kept.get("format") != _FORMAT:
        return None
    entries = kept.get("entries")
    if not isinstance(entries, list) or not all(
        isinstance(e, list) and len(e) == 2 and all(isinstance(s, str) for s in e) for e in entries
    ):
        return None
    return kept


def _write(name: str, kept: dict[str, Any]) -> None:
    """Keep the answer; a failure (read-only home, full disk) only costs the next process time."""
    where = usercache.folder("plugins")
    if where is not None:
        usercache.store(where, name, json.dumps(kept).encode())
