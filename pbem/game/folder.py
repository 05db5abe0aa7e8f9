"""A game folder: one folder per game, its files in order, written atomically.

The folder holds `000000.pbem`, `000001.pbem`, ... and nothing the protocol
needs besides. Every write goes to a temporary file in the same folder, is
flushed to disk, and is renamed into place, so a crash or a full disk leaves
either the old folder or the new one, never a half-written file. Nothing is
ever rewritten: a file, once in place, stays as it is.
"""

from __future__ import annotations

import os
import re
import secrets
import stat
import tempfile
from pathlib import Path
from collections.abc import Sequence
from typing import BinaryIO

from pbem.errors import BrokenChain, FolderProblem, MalformedFile, MissingFile
from pbem.signed.movefile import MAX_FILE_BYTES, file_name

# The most a received input (a file, an armored mail or paste, stdin) may hold:
# a raw file is at most MAX_FILE_BYTES; this leaves room for several armored
# files (4/3 larger, plus line breaks and quoting) in one message.
MAX_INCOMING_BYTES = 8 * MAX_FILE_BYTES

FILE_PATTERN = re.compile(r"^(\d{6})\.pbem$")
_UMASK = os.umask(0o022)
os.umask(_UMASK)


def game_files(folder: Path) -> list[Path]:
    """The folder's game files in order; BrokenChain naming the first gap."""
    return [Path(name) for name in game_file_names(folder)]


def game_file_names(folder: Path) -> list[str]:
    """`game_files` as text, each `str(path)`: a long game has thousands, and making Paths of them costs
    more than listing the folder."""
    if not folder.exists():
        raise MissingFile(f"{folder}: no such game folder")
    if not folder.is_dir():
        raise FolderProblem(f"{folder}: not a folder")
    numbered = {}
    for name in os.listdir(folder):  # as Path.iterdir lists it
        match = FILE_PATTERN.match(name)
        if match:
            numbered[int(match.group(1))] = name
    for expected in range(len(numbered)):
        if expected not in numbered:
            raise BrokenChain(f"{folder / file_name(expected)}: missing (later files exist)")
    base = str(folder)  # str(folder / name) is this prefix and the name
    prefix = "" if base == "." else base if base.endswith("/") else base + "/"
    return [prefix + numbered[seq] for seq in range(len(numbered))]


def read(path: Path | str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes, reading at most `limit` + 1 of them: a longer input (a huge
    file, /dev/zero, a pipe that never ends) is refused before it fills memory."""
    try:
        with open(path, "rb") as handle:
            return read_stream(handle, str(path), limit)
    except FileNotFoundError:
        raise MissingFile(f"{path}: no such file") from None
    except IsADirectoryError:
        raise MissingFile(f"{path}: is a folder, not a file") from None
    except OSError as exc:
        raise FolderProblem(f"{path}: cannot read ({exc.strerror})") from None


def read_game_files(paths: Sequence[Path | str], limit: int = MAX_FILE_BYTES) -> list[bytes]:
    """Every file's bytes, as `read` gives them, with one system call to open, read and close each
    (a long game has thousands: Python's buffered file objects cost more than the reading). Every file
    is read every time: reading and hashing 2,000 files costs about 16 ms, and trusting a file by what
    the file system shows of it (its times) cannot tell a write within the same clock tick."""
    return [_read_one(path, limit) for path in paths]


def read_game_file(path: Path | str, limit: int = MAX_FILE_BYTES) -> bytes:
    """A game file's bytes: `read`, but only from a regular file (`_read_one`)."""
    return _read_one(path, limit)


def _read_one(path: Path | str, limit: int) -> bytes:
    """The file's bytes as `read` gives them, opened, read and closed in a few system calls.

    Only a regular file is read: a game file planted as a FIFO would block the open (O_NONBLOCK
    keeps it from waiting for a writer) and a link to a terminal the read; either is refused in one
    line. A link to a regular file is followed: its bytes are bounded and checked like any other's,
    and nothing is ever written through it (writes rename a new file into place)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return read(path, limit)  # the error, as `read` words it
    data = b""
    try:
        kind = os.fstat(fd).st_mode
        if not stat.S_ISREG(kind):
            if stat.S_ISDIR(kind):
                raise MissingFile(f"{path}: is a folder, not a file")
            raise MalformedFile(f"{path}: is {_kind(kind)}, not a regular file: a game file is a plain file")
        # Each read asks for the size the file has now, plus one byte, not limit + 1 bytes: os.read
        # allocates what it is asked for, and a 1 MiB buffer per file cost more than the reading.
        want = os.fstat(fd).st_size + 1
        while len(data) <= limit:  # reading at most limit + 1 bytes, as `read` does
            chunk = os.read(fd, min(limit + 1 - len(data), max(want - len(data), 1 << 16)))
            if not chunk:
                break
            data += chunk
    except OSError:  # the error as `read` words it
        return read(path, limit)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise MalformedFile(f"{path}: more than {limit} bytes, larger than any pbem input can be")
    return data


def read_stream(stream: BinaryIO, what: str, limit: int) -> bytes:
    """At most `limit` bytes from `stream`; MalformedFile naming `what` if it holds more."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise MalformedFile(f"{what}: more than {limit} bytes, larger than any pbem input can be")
    return data


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that it appears whole or not at all."""
    write_all_atomic([(path, data)])


def write_all_atomic(items: list[tuple[Path, bytes]]) -> None:
    """Write several files all or nothing: every one is staged and flushed before any is renamed.

    A full disk or any other write error shows while staging, and then no
    file appears. (A rename within one folder does not need new space.)
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in items:
            if path.parent.exists() and not path.parent.is_dir():
                raise FolderProblem(f"{path.parent}: is a file, not a game folder")
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = tempfile.NamedTemporaryFile(
                dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
            )
            staged.append((handle.name, path))
            os.chmod(handle.name, 0o666 & ~_UMASK)  # a game file is no secret: as any new file, not 0600
            with handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        for temporary, path in staged:
            os.replace(temporary, path)
    except OSError as exc:
        for temporary, _ in staged:
            Path(temporary).unlink(missing_ok=True)
        where = staged[-1][1] if staged else items[0][0]
        raise FolderProblem(f"{where}: cannot write ({exc.strerror or exc})") from None
    for folder in {path.parent for path, _ in items}:
        _sync_dir(folder)


def _sync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where unsupported."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot fsync a directory; the rename itself has already happened
    finally:
        os.close(fd)


# ----- files beside the game: the lock's holder, the state cache, the reports -----------------------
#
# A game folder may come from outside (an unpacked zip, a shared or synced folder), so whatever stands in
# it beside the numbered files may have been planted: a link to any file the user can write, a FIFO, a
# device. These files are opened relative to the game folder's descriptor, never following a link at
# their own name or at the folder below it (`report/`), only if fstat says they are regular, read up to a
# bound, and written by a new file (O_EXCL) renamed over the name, which replaces a planted link and never
# writes through it. The game folder itself is the one the user named: a link there is his own.

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
PUBLIC = 0o666 & ~_UMASK  # a file anyone may read (a report, the lock's holder): as any new file
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class NotPlain(FolderProblem):
    """A file or folder beside the game is a link, a FIFO, a device, or larger than it can be."""


def _kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    for test, word in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return word
    return "not a regular file"


def _open_folder(folder: Path, sub: str | None, create: bool) -> int:
    """A descriptor of the game folder, or of its subfolder `sub` (made if `create`), not followed if a link."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    except FileNotFoundError:
        raise MissingFile(f"{folder}: no such game folder") from None
    except NotADirectoryError:
        raise FolderProblem(f"{folder}: not a folder") from None
    except OSError as exc:
        raise FolderProblem(f"{folder}: cannot open ({exc.strerror})") from None
    if sub is None:
        return fd
    try:
        if create:
            try:
                os.mkdir(sub, 0o777, dir_fd=fd)  # as any new folder (the umask applies): reports are no secret
            except FileExistsError:
                pass
        try:
            return os.open(sub, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
        except OSError as exc:
            try:
                mode = os.stat(sub, dir_fd=fd, follow_symlinks=False).st_mode
            except OSError:
                raise FolderProblem(f"{folder / sub}: cannot open ({exc.strerror})") from None
            raise NotPlain(f"{folder / sub}: is {_kind(mode)}, not a folder pbem made (planted?); "
                           "pbem writes nothing through it: remove it") from None
    finally:
        os.close(fd)


def read_beside(folder: Path, name: str, limit: int, sub: str | None = None) -> bytes | None:
    """The bytes of the file `name` beside the game (in `sub` below it), None if there is none.

    NotPlain (a FolderProblem) if it, or `sub`, is a link or not a regular file, or holds more than
    `limit` bytes; FolderProblem if it cannot be read."""
    where = folder / sub / name if sub else folder / name
    try:
        dir_fd = _open_folder(folder, sub, create=False)
    except MissingFile:
        return None
    try:
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC, dir_fd=dir_fd)
        except FileNotFoundError:
            return None
        except OSError as exc:
            try:
                mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
            except OSError:
                mode = 0
            if stat.S_ISLNK(mode):
                raise NotPlain(f"{where}: is a symbolic link, which pbem never makes (planted?)") from None
            raise FolderProblem(f"{where}: cannot read ({exc.strerror})") from None
    finally:
        os.close(dir_fd)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # a FIFO (opened without waiting for a writer), a device, a folder
            raise NotPlain(f"{where}: is {_kind(mode)}, not a regular file (planted?)")
        data = b""
        while len(data) <= limit:
            chunk = os.read(fd, limit + 1 - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as exc:
        raise FolderProblem(f"{where}: cannot read ({exc.strerror})") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise NotPlain(f"{where}: more than {limit} bytes, more than pbem ever writes there")
    return data


def write_beside(folder: Path, name: str, data: bytes, mode: int = 0o600, sub: str | None = None,
                 sync: bool = False) -> Path:
    """Replace the file `name` beside the game (in `sub`, made if missing) with `data`, atomically.

    A new file (O_EXCL, a random name, in the same folder) is written and renamed over `name`: a
    planted link there is replaced, never written through, and `sub` must be a real folder (NotPlain).
    `mode` applies from the first byte. FolderProblem if it cannot be written (nothing is left behind)."""
    where = folder / sub / name if sub else folder / name
    dir_fd = _open_folder(folder, sub, create=sub is not None)
    temporary = None
    try:
        for _ in range(8):  # a name taken (by chance, or planted): draw another
            candidate = f".{name[:32]}.{secrets.token_hex(8)}.tmp"
            try:
                fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, mode,
                             dir_fd=dir_fd)
            except FileExistsError:
                continue
            temporary = candidate
            break
        else:
            raise FolderProblem(f"{where}: cannot write (no free temporary name)")
        try:
            os.fchmod(fd, mode)  # exactly `mode`, whatever the umask
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if sync:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        temporary = None
        if sync:
            try:
                os.fsync(dir_fd)
            except OSError:
                pass  # some file systems cannot fsync a directory; the rename has happened
    except OSError as exc:
        raise FolderProblem(f"{where}: cannot write ({exc.strerror or exc})") from None
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary, dir_fd=dir_fd)
            except OSError:
                pass
        os.close(dir_fd)
    return where


def remove_beside(folder: Path, name: str) -> None:
    """Remove the name `name` beside the game (a link is removed, never its target); a failure is ignored."""
    try:
        dir_fd = _open_folder(folder, None, create=False)
    except FolderProblem:
        return
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def planted(folder: Path, name: str) -> str | None:
    """What stands at `name` beside the game if it is not a regular file ("a symbolic link", ...); None if
    nothing does or a regular file does."""
    try:
        mode = os.stat(folder / name, follow_symlinks=False).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else _kind(mode)


def is_real(path: Path, folder: bool = False) -> bool:
    """Is `path` itself (not through a link) a regular file, or (`folder`) a folder?"""
    try:
        mode = os.stat(path, follow_symlinks=False).st_mode
    except OSError:
        return False
    return stat.S_ISDIR(mode) if folder else stat.S_ISREG(mode)
