"""A local cache of a game's resolved state, kept beside its files, so commands need not replay.

Replay is the truth; this is an optimisation that replay must reproduce
(`pbem verify` never reads it). The cache file `.pbem-state` in the game
folder holds, for the files it covers, the SHA-256 of each (so it is keyed by
the hash of the last, and any change to any file shows: every command reads
and hashes every file, which costs about 16 ms for 2,000), the ruleset's name
and version, the hashes of the rules data and scenario, a fingerprint of the
installed code that computed it, and the latest resolvable state in the
ruleset's own canonical encoding (`state_bytes`, loaded back with
`load_state`), with the state before it (`previous`: its hash is the one
the last resolved file signs), so that the latest file's report resolves
that one file instead of replaying the game.

An entry vouches for files: a command that takes it does not check their
signatures again. So it must be one this user's pbem wrote after checking
them, not one planted beside the game (a game folder may be shared, synced or
unpacked from someone else's zip, and a plain checksum anyone can recompute):
each entry is authenticated by HMAC-SHA256 under a secret of 32 random bytes
that only this user can read (`state-cache.key`, mode 0600, created with
O_EXCL, in $XDG_STATE_HOME/pbem, else ~/.local/state/pbem, a folder nobody
else can write). An entry whose MAC does not verify is ignored like any other
that does not match exactly: deleting it, or a corrupted, stale, foreign or
forged one, only costs a replay, which then gives the true answer or error.
It is read without following a link, only from a regular file, at most
MAX_BYTES, and written by a new file renamed into place (pbem.game.folder, files
beside the game): a planted link, FIFO or device there is ignored and then
replaced, never read or written through.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

from pbem.game import folder as folders
from pbem.errors import FolderProblem, MissingFile

CACHE_NAME = ".pbem-state"
# 2: the state before the last resolved file (`previous`); 3: what reading each file showed (`seen`);
# 4: authenticated by a MAC under the user's secret, not a checksum; 5: no file marks (`seen`): every
# file is read and hashed
FORMAT = 5
_MAGIC = b"pbem-state-cache-5\n"
_MAC = 32  # bytes of HMAC-SHA256
# Far above any game's (the 2,000-file Actium game's is 356 KiB): a bound, so that a planted
# endless file cannot fill memory. An entry larger than this is not written.
MAX_BYTES = 64 << 20
SECRET_NAME = "state-cache.key"
SECRET_BYTES = 32


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


# ----- the user's secret: what an opponent who can write the game folder cannot know -----------------


def secret_folder() -> str | None:
    """Where the secret is kept: $XDG_STATE_HOME/pbem, else ~/.local/state/pbem (None: no home to keep it in)."""
    root = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return None if root.startswith("~") else os.path.join(root, "pbem")


_secrets: dict[str, bytes] = {}  # folder -> its secret, read once per process
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _private_folder(where: str) -> int | None:
    """A descriptor of `where` if it is a real folder (not a link) of this user's that nobody else can write."""
    try:
        fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW | _CLOEXEC)
    except OSError:
        return None
    info = os.fstat(fd)
    if info.st_uid != os.getuid() or info.st_mode & 0o022:
        os.close(fd)
        return None
    return fd


def _read_secret(dir_fd: int) -> bytes | None:
    """The secret in the folder, if it is a regular file of this user's that nobody else can read."""
    try:
        fd = os.open(SECRET_NAME, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
            return None
        data = os.read(fd, SECRET_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == SECRET_BYTES else None


def secret(create: bool) -> bytes | None:
    """The user's state-cache secret; made (`create`) if there is none. None: none to be had (no home, a
    folder others can write, a read-only home), and then no cache is read or written."""
    where = secret_folder()
    if where is None:
        return None
    if where in _secrets:
        return _secrets[where]
    if create:
        try:
            os.makedirs(where, mode=0o700, exist_ok=True)
        except OSError:
            return None
    dir_fd = _private_folder(where)
    if dir_fd is None:
        return None
    try:
        value = _read_secret(dir_fd)
        if value is None and create:
            value = _make_secret(dir_fd)
    finally:
        os.close(dir_fd)
    if value is not None:
        _secrets[where] = value
    return value


def _make_secret(dir_fd: int) -> bytes | None:
    """Write a new secret whole, owner-only from its first byte (O_EXCL, mode 0600), and link it into place
    only if there is none: two processes making one at once agree on the one that was linked first."""
    temporary = f".{SECRET_NAME}.{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(SECRET_BYTES))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, SECRET_NAME, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except FileExistsError:
            pass  # another process made one first: use that one
    except OSError:
        return None
    finally:
        try:
            os.unlink(temporary, dir_fd=dir_fd)
        except OSError:
            pass
    return _read_secret(dir_fd)


def _mac(key: bytes, payload: bytes) -> bytes:
    return hmac.new(key, _MAGIC + payload, hashlib.sha256).digest()


# ----- the entry beside the game -----------------------------------------------------------------------


def read(folder: Path) -> Entry | None:
    """The cache entry beside the game, or None if there is none, it is damaged, or this user's pbem did not
    write it (its MAC does not verify), or the name holds a link or anything but a regular file."""
    key = secret(create=False)
    if key is None:
        return None
    try:
        data = folders.read_beside(folder, CACHE_NAME, MAX_BYTES)
    except FolderProblem:  # planted (a link, /dev/zero, a FIFO), too large, unreadable: only a cache, ignored
        return None
    if data is None or not data.startswith(_MAGIC) or len(data) < len(_MAGIC) + _MAC:
        return None
    mac, payload = data[len(_MAGIC) : len(_MAGIC) + _MAC], data[len(_MAGIC) + _MAC :]
    if not hmac.compare_digest(_mac(key, payload), mac):
        return None
    try:
        entry = _decoder.decode(payload)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return entry if entry.format == FORMAT else None


def write(folder: Path, entry: Entry) -> None:
    """Replace the cache atomically (a planted link at its name is replaced, not written through); a failure
    to write, or no secret to be had, only costs the next command a replay."""
    key = secret(create=True)
    if key is None:
        return
    payload = _encoder.encode(entry)
    data = _MAGIC + _mac(key, payload) + payload
    if len(data) > MAX_BYTES:
        return  # it would not be read
    try:
        folders.write_beside(folder, CACHE_NAME, data, mode=0o600)
    except (FolderProblem, MissingFile):  # a folder gone (moved, deleted) since it was loaded has no cache
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
