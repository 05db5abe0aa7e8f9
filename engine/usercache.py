"""Entries kept in the user's cache folder, read only while nobody else could have written them.

The decoded rules data (engine.decoded), the installed plug-ins (pbem.plugins) and the help text
(pbem.helptext) each keep what they computed in their own folder under $XDG_CACHE_HOME/pbem (else
~/.cache/pbem). An entry is its payload behind the SHA-256 of the payload (64 hex digits), and is
read only from a folder (700) and a file (600) that this user owns and nobody else can write:
what it holds can choose code to load. Anything else (missing, damaged, cut short, shared) reads
as None, and a failed write is ignored: a cache never changes an answer, losing it only costs
time. Only the standard library's os and hashlib: `pbem --help` reads an entry before anything
else is imported.
"""

from __future__ import annotations

import contextlib
import hashlib
import os

_DIGEST = 64  # hex digits of the payload's SHA-256, in front of it


def folder(kind: str) -> str | None:
    """The folder of one kind of entry, or None when there is no home folder to keep it in."""
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return None if root.startswith("~") else os.path.join(root, "pbem", kind)  # "~": no home to be found


def private(path: str, is_dir: bool) -> bool:
    """Owned by this user and writable by nobody else."""
    try:
        stat = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    kind_ok = (stat.st_mode & 0o170000) == (0o040000 if is_dir else 0o100000)
    return kind_ok and stat.st_uid == os.getuid() and not stat.st_mode & 0o022


def load(where: str, name: str) -> bytes | None:
    """The payload kept as `name` in the folder `where`, or None if there is none, or it is damaged or shared."""
    path = os.path.join(where, name)
    if not private(where, True) or not private(path, False):
        return None
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    checksum, payload = data[:_DIGEST], data[_DIGEST:]
    return payload if hashlib.sha256(payload).hexdigest().encode() == checksum else None


def store(where: str, name: str, payload: bytes) -> None:
    """Keep `payload` as `name` in `where`, atomically, owner-only; a failure (read-only home, full disk)
    only costs the next process time."""
    import tempfile  # only when writing: it costs a reading process several milliseconds

    temporary = None
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
        if not private(where, True):
            return
        handle = tempfile.NamedTemporaryFile(dir=where, prefix=f".{name[:16]}.", suffix=".tmp", delete=False)  # 600
        temporary = handle.name
        with handle:
            handle.write(hashlib.sha256(payload).hexdigest().encode() + payload)
        os.replace(temporary, os.path.join(where, name))
        temporary = None
    except OSError:
        pass  # only an optimisation: computed again next time
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
