"""Entries kept in the user's cache folder, read only while nobody else could have written them.

The installed plug-ins (pbem.game.plugins) keep what they computed in their own folder under $XDG_CACHE_HOME/pbem (else
~/.cache/pbem). An entry is its payload behind the SHA-256 of the payload (64 hex digits), and is
read only from a folder (700) and a file (600) that this user owns and nobody else can write,
each opened without following a link and checked as opened (fstat), and read up to MAX_BYTES:
what it holds can choose code to load (the plug-in list names modules to import). Anything else (missing, damaged, cut short, shared) reads
as None, and a failed write is ignored: a cache never changes an answer, losing it only costs
time. Only the standard library's os and hashlib.
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


MAX_BYTES = 256 << 20  # far above any entry (a help text or plug-in list is a few kB): a bound, not a size
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _private_mode(info: os.stat_result, is_dir: bool) -> bool:
    kind_ok = (info.st_mode & 0o170000) == (0o040000 if is_dir else 0o100000)
    return kind_ok and info.st_uid == os.getuid() and not info.st_mode & 0o022


def private(path: str, is_dir: bool) -> bool:
    """Owned by this user and writable by nobody else (the name itself: a link is not private)."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    return _private_mode(info, is_dir)


def _open_private_folder(where: str) -> int | None:
    """A descriptor of `where`, if it is itself (not a link) a folder of this user's nobody else can write.
    What is checked is the folder opened, so it cannot be swapped between the check and the use."""
    try:
        fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW | _CLOEXEC)
    except OSError:
        return None
    if not _private_mode(os.fstat(fd), True):
        os.close(fd)
        return None
    return fd


def load(where: str, name: str) -> bytes | None:
    """The payload kept as `name` in the folder `where`, or None if there is none, or it is damaged or shared.

    The folder and the file are opened without following a link, the file without waiting (a FIFO), and
    both are checked as opened (fstat: regular, this user's, writable by nobody else), then read bounded."""
    dir_fd = _open_private_folder(where)
    if dir_fd is None:
        return None
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    finally:
        os.close(dir_fd)
    try:
        if not _private_mode(os.fstat(fd), False):
            return None
        chunks, size = [], 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, min(MAX_BYTES + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        return None
    data = b"".join(chunks)
    checksum, payload = data[:_DIGEST], data[_DIGEST:]
    return payload if hashlib.sha256(payload).hexdigest().encode() == checksum else None


def store(where: str, name: str, payload: bytes) -> None:
    """Keep `payload` as `name` in `where`, atomically, owner-only; a failure (read-only home, full disk)
    only costs the next process time. Written in the private folder as opened (a new file, O_EXCL, 0600,
    renamed over `name`: a link there is replaced, never written through)."""
    import secrets  # only when writing

    data = hashlib.sha256(payload).hexdigest().encode() + payload
    if len(data) > MAX_BYTES:
        return  # it would not be read
    try:
        os.makedirs(where, mode=0o700, exist_ok=True)
    except OSError:
        return
    dir_fd = _open_private_folder(where)
    if dir_fd is None:
        return
    temporary = f".{name[:16]}.{secrets.token_hex(8)}.tmp"
    made = False
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=dir_fd)
        made = True
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        made = False
    except OSError:
        pass  # only an optimisation: computed again next time
    finally:
        if made:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=dir_fd)
        os.close(dir_fd)
