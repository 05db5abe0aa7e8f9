"""A local cache of a game's resolved state, kept beside its files, so commands need not replay.

Replay is the truth; this is an optimisation that replay must reproduce
(`pbem verify` never reads it). The cache file `.pbem-state` in the game
folder holds, for the files it covers, the SHA-256 of each (so it is keyed by
the hash of the last, and any change to any file shows) and what reading it
showed the file system keep of it (its mark: inode, size, times; pbem.folder.Seen:
a file whose mark is the same, and was not too recent to tell, is not read
again, and any other is read and hashed), the ruleset's name
and version, the hashes of the rules data and scenario, a fingerprint of the
installed code that computed it, and the latest resolvable state in the
ruleset's own canonical encoding (`state_bytes`, loaded back with
`load_state`), with the state before it (`previous`: its hash is the one
the last resolved file signs), so that the latest file's report resolves
that one file instead of replaying the game. A checksum over all of it catches damage. Anything that does
not match exactly makes the cache ignored: deleting it, or a corrupted,
stale or foreign one, only costs a replay. It is written atomically (a
temporary file renamed into place) and is nobody's secret: the files it
derives from are the game's own.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

CACHE_NAME = ".pbem-state"
FORMAT = 3  # 2: the state before the last resolved file (`previous`); 3: what reading each file showed (`seen`)
_MAGIC = b"pbem-state-cache\n"


class Entry(msgspec.Struct, frozen=True, array_like=True):
    format: int
    ruleset: str
    version: str
    code: str  # fingerprint of the installed ruleset and pbem code
    rules_hash: str
    scenario_hash: str
    files: tuple[bytes, ...]  # SHA-256 of each file covered, in order
    resolved: int  # the file whose resolution `state` is (the last but one)
    state: bytes  # ruleset.state_bytes(that state)
    previous: bytes = b""  # the state before file `resolved` (b"": not kept), for the latest report
    # per file covered, what reading it showed (pbem.folder.Seen: st_dev, st_ino, st_size, st_mtime_ns,
    # st_ctime_ns, and when it was read), so that a later command reads again only the files whose
    # mark changed or was too recent to tell; zeros: never read from the folder, read it again
    seen: tuple[tuple[int, int, int, int, int, int], ...] = ()


_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Entry)


@lru_cache(maxsize=4)
def code_fingerprint(module_name: str) -> str:
    """Size and modification time of every source file of the ruleset's package and of pbem.

    Cheap (a stat per file) and enough for a local cache: reinstalling or
    editing either package makes every cache beside every game stale.
    """
    digest = hashlib.sha256()
    for package in sorted({module_name.split(".")[0], __name__.split(".")[0]}):
        module = sys.modules.get(package)
        where = getattr(module, "__file__", None)
        if where is None:
            digest.update(f"{package}:?".encode())
            continue
        for line in sorted(_sources(os.path.dirname(where))):
            digest.update(line.encode())
    return digest.hexdigest()


def _sources(root: str) -> list[str]:
    """'relative path:size:mtime_ns' of every .py file under `root` (os.scandir: a quarter of rglob's cost)."""
    found, folders = [], [""]
    while folders:
        relative = folders.pop()
        with os.scandir(os.path.join(root, relative)) as entries:
            for entry in entries:
                if entry.is_dir():
                    if entry.name != "__pycache__":  # compiled files only
                        folders.append(os.path.join(relative, entry.name))
                elif entry.name.endswith(".py"):
                    stat = entry.stat()
                    found.append(f"{os.path.join(relative, entry.name)}:{stat.st_size}:{stat.st_mtime_ns}\n")
    return found


def path_of(folder: Path) -> Path:
    return folder / CACHE_NAME


def read(folder: Path) -> Entry | None:
    """The cache entry beside the game, or None if there is none or it is damaged."""
    try:
        data = path_of(folder).read_bytes()
    except OSError:
        return None
    if not data.startswith(_MAGIC) or len(data) < len(_MAGIC) + 32:
        return None
    checksum, payload = data[len(_MAGIC) : len(_MAGIC) + 32], data[len(_MAGIC) + 32 :]
    if hashlib.sha256(payload).digest() != checksum:
        return None
    try:
        entry = _decoder.decode(payload)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return entry if entry.format == FORMAT else None


def write(folder: Path, entry: Entry) -> None:
    """Replace the cache atomically; a failure to write only costs the next command a replay."""
    payload = _encoder.encode(entry)
    data = _MAGIC + hashlib.sha256(payload).digest() + payload
    temporary = None
    try:
        handle = tempfile.NamedTemporaryFile(dir=folder, prefix=f"{CACHE_NAME}.", suffix=".tmp", delete=False)
        temporary = handle.name
        with handle:
            handle.write(data)
        os.replace(temporary, path_of(folder))
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)


def discard(folder: Path) -> None:
    """Remove the cache (found wrong), so that the next command replays; a failure only costs nothing."""
    try:
        path_of(folder).unlink(missing_ok=True)
    except OSError:
        pass


def key_matches(entry: Entry, ruleset: Any, rules_hash: str, scenario_hash: str) -> bool:
    """Whether the entry was made by this ruleset, version, code and data."""
    return (
        entry.ruleset == ruleset.name
        and entry.version == ruleset.version
        and entry.rules_hash == rules_hash
        and entry.scenario_hash == scenario_hash
        and entry.code == code_fingerprint(type(ruleset).__module__)
    )
