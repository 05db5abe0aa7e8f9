"""The installed plug-ins of an entry-point group, found without importlib.metadata when nothing changed.

Importing importlib.metadata and scanning every distribution costs a process
tens of milliseconds before it can load a ruleset. What it finds depends only
on the import path (`sys.path`), the names in each of its folders (a
`*.dist-info` or `*.egg-info` folder per distribution) and each one's
`entry_points.txt`. So the answer is kept in the user's cache folder
($XDG_CACHE_HOME/pbem/plugins, else ~/.cache/pbem/plugins; owner-only, as
engine/decoded.py's) with a snapshot of all that: the path, the names in
each folder, and the mark of each `entry_points.txt` (pbem.folder's: inode,
size, times). A process takes the snapshot again (a listing per folder, a
stat per distribution) and uses the kept answer only if it is the same, and
no mark was too recent to tell a later write when it was kept (git's
racily-clean rule). Anything else asks importlib.metadata, as does a process
whose importers could find distributions elsewhere (a finder other than the
standard path finder, a zip or egg on the path): the cache never changes an
answer, deleting it only costs time. It knows no plug-in by name.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sys
import time
from importlib import import_module, machinery
from pathlib import Path
from typing import Any, NamedTuple

from pbem import folder as folders

_FORMAT = 1
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
    at = time.time_ns()  # before the snapshot: a later write shows in it
    snapshot = _snapshot()
    where = _cache_file(group)
    if snapshot is not None and where is not None:
        kept = _read(where)
        if kept is not None and kept.get("snapshot") == snapshot and kept.get("group") == group:
            return [EntryPoint(name, value) for name, value in kept["entries"]]
    from importlib.metadata import entry_points as installed

    found = [EntryPoint(entry.name, entry.value) for entry in installed(group=group)]
    if snapshot is not None and where is not None and _settled(snapshot, at):
        _write(where, {"format": _FORMAT, "group": group, "snapshot": snapshot,
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
        snapshot.append([root, [[name, folders.mark_of(Path(where, name, "entry_points.txt"))] for name in infos]])
    return json.loads(json.dumps(snapshot))  # as JSON gives it back (tuples become lists)


def _settled(snapshot: list[Any], at: int) -> bool:
    """No entry_points.txt in the snapshot was written too close to `at` to tell a later write."""
    for item in snapshot[2:]:
        for _, mark in item[1] or ():
            if mark is not None and max(mark[3], mark[4]) >= at - folders._RACY_NS:
                return False
    return True


def _cache_file(group: str) -> Path | None:
    if os.environ.get("PBEM_NO_PLUGIN_CACHE"):
        return None
    try:
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:  # no home folder to be found
        return None
    # one file per interpreter and path: several environments share the cache folder
    name = hashlib.sha256(json.dumps([group, sys.executable, sys.path]).encode()).hexdigest()[:32]
    return root / "pbem" / "plugins" / f"{name}.json"


def _private(path: Path, is_dir: bool) -> bool:
    """Owned by this user and writable by nobody else (else anyone could choose what code is loaded)."""
    try:
        stat = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    kind_ok = (stat.st_mode & 0o170000) == (0o040000 if is_dir else 0o100000)
    return kind_ok and stat.st_uid == os.getuid() and not stat.st_mode & 0o022


def _read(path: Path) -> dict[str, Any] | None:
    if not _private(path.parent, True) or not _private(path, False):
        return None
    try:
        data = path.read_bytes()
        checksum, payload = data[:64], data[64:]
        if hashlib.sha256(payload).hexdigest().encode() != checksum:
            return None
        kept = json.loads(payload)
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("format") != _FORMAT:
        return None
    entries = kept.get("entries")
    if not isinstance(entries, list) or not all(
        isinstance(e, list) and len(e) == 2 and all(isinstance(s, str) for s in e) for e in entries
    ):
        return None
    return kept


def _write(path: Path, kept: dict[str, Any]) -> None:
    """Keep the answer, atomically; a failure (read-only home, full disk) only costs the next process time."""
    import tempfile

    payload = json.dumps(kept).encode()
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _private(path.parent, True):
            return
        handle = tempfile.NamedTemporaryFile(dir=path.parent, prefix=f".{path.stem[:16]}.", suffix=".tmp",
                                             delete=False)  # mode 600
        temporary = handle.name
        with handle:
            handle.write(hashlib.sha256(payload).hexdigest().encode() + payload)
        os.replace(temporary, path)
        temporary = None
    except OSError:
        pass
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
