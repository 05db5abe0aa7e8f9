"""One writer at a time per game folder: an fcntl lock for every command that writes.

Two `pbem receive` (or `move`) at once on one folder would each check the
folder as it was and both write: one file would silently replace the other
and an equivocation would go unseen. Every command that writes holds an
exclusive flock(2) on the game folder itself (a directory can be locked, so
no lock file has to stay behind) from its first read to its last write. The
kernel drops the lock when the process ends, even on a crash.

While it holds the lock, the holder writes who it is (pid, command, since
when) into `.pbem-lock` in the folder and removes it before letting go; a
second command waits a moment (PBEM_LOCK_WAIT seconds, default 5) for the
folder to be free, then fails with FolderLocked naming the holder.
`.pbem-lock` is written by a new file renamed into place and read without
following a link (pbem.game.folder, "files beside the game"); a link or any other
non-regular file planted under that name is refused before anything is
changed, so pbem never writes through it.
Read-only commands (status, verify, history) take no lock: files appear by
atomic rename, so a reader sees a whole folder, before or after a write.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from pbem.game import folder as folders
from pbem.errors import FolderLocked, FolderProblem, MissingFile

HOLDER_FILE = ".pbem-lock"
_HOLDER_LIMIT = 200  # bytes of the holder's line shown, and written
DEFAULT_WAIT = 5.0
_POLL = 0.05

# Folders this process holds already (a command that writes calls another that
# writes, e.g. receive's acknowledgement): flock is per open file, so a second
# lock from the same process on a new descriptor would wait on itself.
_held: dict[Path, int] = {}


def _wait_seconds() -> float:
    try:
        return max(0.0, float(os.environ.get("PBEM_LOCK_WAIT", DEFAULT_WAIT)))
    except ValueError:
        return DEFAULT_WAIT


def _holder(folder: Path) -> str:
    """Who holds the folder, as the holder wrote it: read without following a link, at most 200 bytes."""
    try:
        data = folders.read_beside(folder, HOLDER_FILE, _HOLDER_LIMIT) or b""
    except FolderProblem:  # planted, or too long to be pbem's: say nothing of it
        data = b""
    return data.decode("utf-8", errors="replace").strip() or "another pbem command"


@contextlib.contextmanager
def hold(folder: Path, command: str = "") -> Iterator[None]:
    """Hold the game folder's write lock for the duration of the block."""
    key = folder.resolve()
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except FileNotFoundError:
        raise MissingFile(f"{folder}: no such game folder") from None
    except NotADirectoryError:
        raise FolderProblem(f"{folder}: not a folder") from None
    except OSError as exc:
        raise FolderProblem(f"{folder}: cannot open ({exc.strerror})") from None
    try:
        deadline = time.monotonic() + _wait_seconds()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise FolderLocked(
                        f"{folder}: the game folder is in use by {_holder(folder)}; "
                        "nothing was changed: try again when it has finished"
                    ) from None
                time.sleep(_POLL)
        what = command or " ".join(Path(sys.argv[0]).name.split() + sys.argv[1:2])
        stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        # pbem only ever leaves a plain file here (after a crash); anything else was planted, and writing
        # through a link would overwrite whatever file it names: refused before anything is changed.
        if kind := folders.planted(folder, HOLDER_FILE):
            raise FolderProblem(
                f"{folder / HOLDER_FILE}: is {kind}, which pbem never makes (planted?); "
                "nothing was changed: remove it and try again"
            )
        text = f"pid {os.getpid()} ({what}) since {stamp}\n"[:_HOLDER_LIMIT].encode("utf-8", errors="replace")
        with contextlib.suppress(FolderProblem):  # who holds it is a courtesy; the flock is the lock
            folders.write_beside(folder, HOLDER_FILE, text, mode=folders.PUBLIC)  # renamed in: never through a link
        _held[key] = 1
        try:
            yield
        finally:
            del _held[key]
            folders.remove_beside(folder, HOLDER_FILE)
    finally:
        os.close(fd)  # closing the descriptor releases the lock
