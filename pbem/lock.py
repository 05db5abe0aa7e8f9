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

from pbem.errors import FolderLocked, FolderProblem, MissingFile

HOLDER_FILE = ".pbem-lock"
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
    try:
        text = (folder / HOLDER_FILE).read_text(encoding="utf-8", errors="replace")[:200].strip()
    except OSError:
        text = ""
    return text or "another pbem command"


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
        holder_path = folder / HOLDER_FILE
        with contextlib.suppress(OSError):  # who holds it is a courtesy; the flock is the lock
            holder_path.write_text(f"pid {os.getpid()} ({what}) since {stamp}\n", encoding="utf-8")
        _held[key] = 1
        try:
            yield
        finally:
            del _held[key]
            with contextlib.suppress(OSError):
                holder_path.unlink()
    finally:
        os.close(fd)  # closing the descriptor releases the lock
