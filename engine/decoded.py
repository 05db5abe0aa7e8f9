"""Decoded data kept between processes: what a ruleset built from its data files, ready to load.

Reading the rules data (TOML text into checked, typed tables) costs every
process tens of milliseconds, though the text rarely changes. So the result
is kept in the user's cache folder ($XDG_CACHE_HOME/pbem/decoded, else
~/.cache/pbem/decoded), named by a key that covers everything it was built
from: the SHA-256 of the data's own bytes and a fingerprint of the code that
built it (the size and modification time of each module of the given
modules, the Python and msgspec versions). An entry is used only if its
checksum, its stored key and the key asked for all match exactly; anything
else (damage, another key, other code, an unreadable folder) is ignored and
the data decoded afresh: the cache never changes an answer, deleting it only
costs time.

Entries are pickles, so they are read only from a folder and files that the
user alone can write (mode 700 / 600, owned by the user: engine.usercache), the same trust
jinja2's bytecode cache of the report templates (pbem.report) already needs
there. Nothing here knows any ruleset.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path
from typing import Any

from engine import usercache

_MAGIC = b"pbem-decoded-2\n"


def folder() -> str | None:
    """The cache folder, or None when there is none to be had (no home, PBEM_NO_DECODED_CACHE set)."""
    if os.environ.get("PBEM_NO_DECODED_CACHE"):
        return None
    return usercache.folder("decoded")


def code_fingerprint(modules: tuple[str, ...]) -> str:
    """Size and modification time of the source of each module (a package: every file in its folder,
    sub-packages too), with the interpreter's and msgspec's versions: editing or reinstalling the code
    that decodes makes its entries stale. The modules must be imported already."""
    import msgspec

    digest = hashlib.sha256(f"{sys.version}\n{msgspec.__version__}\n".encode())
    for name in modules:
        where = getattr(sys.modules.get(name), "__file__", None)
        if where is None:
            digest.update(f"{name}:?\n".encode())
            continue
        path = Path(where)
        sources = sorted(path.parent.rglob("*.py")) if path.name == "__init__.py" else [path]
        for source in sources:
            try:
                stat = source.stat()
            except OSError:
                digest.update(f"{source}:?\n".encode())
                continue
            digest.update(f"{source}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def key_of(kind: str, data: bytes, modules: tuple[str, ...]) -> str:
    """The entry's name: what it is, the SHA-256 of its data, and the code that decodes it."""
    return hashlib.sha256(f"{kind}\n{hashlib.sha256(data).hexdigest()}\n{code_fingerprint(modules)}".encode()).hexdigest()


def load(key: str) -> Any | None:
    """The value stored under `key`, or None if there is none, or it is damaged, foreign or not private."""
    where = folder()
    payload = usercache.load(where, key) if where is not None else None
    head = _MAGIC + key.encode("ascii")
    if payload is None or not payload.startswith(head):
        return None  # none, damaged, shared, or another key's entry renamed into place
    try:
        return pickle.loads(payload[len(head):])
    except Exception:  # damaged in a way the checksum cannot see (a pickle of classes now gone): decode afresh
        return None


def store(key: str, value: Any) -> None:
    """Keep `value` under `key`; a failure (read-only home, full disk, a value pickle refuses) only costs time."""
    where = folder()
    if where is None:
        return
    try:
        payload = _MAGIC + key.encode("ascii") + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return  # only an optimisation: the value is decoded again next time
    usercache.store(where, key, payload)
