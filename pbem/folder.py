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
import tempfile
from pathlib import Path

from pbem.errors import BrokenChain, FolderProblem, MissingFile
from pbem.movefile import file_name

FILE_PATTERN = re.compile(r"^(\d{6})\.pbem$")


def game_files(folder: Path) -> list[Path]:
    """The folder's game files in order; BrokenChain naming the first gap."""
    if not folder.exists():
        raise MissingFile(f"{folder}: no such game folder")
    if not folder.is_dir():
        raise FolderProblem(f"{folder}: not a folder")
    numbered = {}
    for path in folder.iterdir():
        match = FILE_PATTERN.match(path.name)
        if match:
            numbered[int(match.group(1))] = path
    for expected in range(len(numbered)):
        if expected not in numbered:
            raise BrokenChain(f"{folder / file_name(expected)}: missing (later files exist)")
    return [numbered[seq] for seq in range(len(numbered))]


def read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise MissingFile(f"{path}: no such file") from None
    except IsADirectoryError:
        raise MissingFile(f"{path}: is a folder, not a file") from None
    except OSError as exc:
        raise FolderProblem(f"{path}: cannot read ({exc.strerror})") from None


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that it appears whole or not at all."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile(
        dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, path)
    except OSError as exc:
        Path(handle.name).unlink(missing_ok=True)
        raise FolderProblem(f"{path}: cannot write ({exc.strerror})") from None
    _sync_dir(path.parent)


def _sync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where unsupported."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
