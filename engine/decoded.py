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
user alone can write (mode 700 / 600, owned by the user), the same trust
jinja2's bytecode cache of the report templates (pbem.report) already needs
there. Nothing here knows any ruleset.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any

_MAGIC = b"pbem-decoded-1\n"


def folder() -> Path | None:
    """The cache folder, or None when there is none to be had (no home, PBEM_NO_DECODED_CACHE set)."""
    if os.environ.get("PBEM_NO_DECODED_CACHE"):
        return None
    try:
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except RuntimeError:  # no home folder to be found
        return None
    return root / "pbem" / "decoded"


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


def _private(path: Path, is_dir: bool) -> bool:
    """Owned by this user and writable by nobody else (else a pickle from it could be anyone's code)."""
    try:
        stat = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    kind_ok = (stat.st_mode & 0o170000) == (0o040000 if is_dir else 0o100000)
    return kind_ok and stat.st_uid == os.getuid() and not stat.st_mode & 0o022


def load(key: str) -> Any | None:
    """The value stored under `key`, or None if there is none, or it is damaged, foreign or not private."""
    where = folder()
    if where is None or not _private(where, True):
        return None
    path = where / key
    if not _private(path, False):
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + 32
    if not data.startswith(_MAGIC) or len(data) < head + 64:
        return None
    checksum, payload = data[len(_MAGIC):head], data[head:]
    if hashlib.sha256(payload).digest() != checksum or payload[:64] != key.encode("ascii"):
        return None
    try:
        return pickle.loads(payload[64:])
    except Exception:  # damaged in a way the checksum cannot see (a pickle of classes now gone): decode afresh
        return None


def store(key: str, value: Any) -> None:
    """Keep `value` under `key`, atomically; a failure (read-only home, full disk) only costs the next process time."""
    where = folder()
    if where is None:
        return
    temporary = None
    try:
        where.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _private(where, True):
            return
        payload = key.encode("ascii") + pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        handle = tempfile.NamedTemporaryFile(dir=where, prefix=f".{key[:16]}.", suffix=".tmp", delete=False)
        temporary = handle.name
        with handle:
            handle.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
        os.replace(temporary, where / key)
        temporary = None
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass  # only an optimisation: the value is decoded again next time
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
