"""A game's files in order, each read and parsed only when a command asks for it.

A command that does not replay needs a handful of a long game's files (the
set-up, the last few), not thousands. The files the state cache vouches for
(pbem.statecache: its digest of each, and a mark the file still has,
pbem.folder.Seen) are held as a path and a digest; asked for, one is read,
its digest checked, and parsed as a file this installation checked before
(`movefile.parse_known`). Every other file is held parsed, as admitted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import overload

from pbem import folder as folders, movefile
from pbem.errors import FolderProblem
from pbem.folder import Seen
from pbem.movefile import SignedFile


class GameFiles(Sequence[SignedFile]):
    def __init__(self, files: Iterable[SignedFile] = ()) -> None:
        self._signed: list[SignedFile | None] = list(files)
        self._paths: list[str | Path | None] = [None] * len(self._signed)
        self._digests: list[bytes | None] = [None] * len(self._signed)
        self._raws: list[bytes | None] = [None] * len(self._signed)  # bytes read, not parsed yet
        # What reading each file from the folder showed (None: not read from it, or unknown), for the
        # state cache to keep (pbem.statecache) and a later load in this process to trust.
        self.seen: list[Seen | None] = [None] * len(self._signed)
        self._distrust: Callable[[], None] = lambda: None

    @classmethod
    def vouched(cls, paths: Sequence[str | Path], seen: list[Seen], raws: list[bytes | None],
                distrust: Callable[[], None]) -> GameFiles:
        """Files known by their digests (those with no bytes in `raws` read when asked for), each as
        `seen` found it; `distrust` is called if one, read, has another digest (the voucher is wrong)."""
        files = cls()
        files._distrust = distrust
        files._signed = [None] * len(paths)
        files._paths = list(paths)
        files._raws = list(raws)
        files._digests = [s.digest for s in seen]
        files.seen = list(seen)
        return files

    def __len__(self) -> int:
        return len(self._signed)

    @overload
    def __getitem__(self, index: int) -> SignedFile: ...

    @overload
    def __getitem__(self, index: slice) -> list[SignedFile]: ...

    def __getitem__(self, index: int | slice) -> SignedFile | list[SignedFile]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        signed = self._signed[index]
        return signed if signed is not None else self._read(range(len(self))[index])

    def __iter__(self) -> Iterator[SignedFile]:
        for index in range(len(self)):
            yield self[index]

    def _read(self, index: int) -> SignedFile:
        signed = self._signed[index] = movefile.parse_known(self.raw(index))
        self._raws[index] = None
        return signed

    def raw(self, index: int) -> bytes:
        """File `index`'s bytes; one held by its digest is read, and must still have that digest."""
        signed, raw = self._signed[index], self._raws[index]
        if signed is not None:
            return signed.raw
        if raw is not None:
            return raw
        path, digest = self._paths[index], self._digests[index]
        assert path is not None and digest is not None
        raw = folders.read_game_file(path)
        if hashlib.sha256(raw).digest() != digest:  # written to since this command looked at it (or a bad voucher)
            self._distrust()
            raise FolderProblem(f"{path}: changed while pbem was reading the game; run the command again")
        return raw

    def digest(self, index: int) -> bytes:
        """File `index`'s SHA-256, without reading a file held by its digest."""
        digest = self._digests[index]
        if digest is None:
            signed = self._signed[index]
            assert signed is not None
            digest = self._digests[index] = signed.hash
        return digest

    def append(self, signed: SignedFile, seen: Seen | None = None) -> None:
        self._signed.append(signed)
        self._raws.append(None)
        self._paths.append(None)
        self._digests.append(None)
        self.seen.append(seen)

    def copy(self) -> GameFiles:
        """A copy that can grow without touching this one (a file read by either is read once each)."""
        files = GameFiles()
        files._signed, files._paths, files._raws = list(self._signed), list(self._paths), list(self._raws)
        files._digests, files.seen, files._distrust = list(self._digests), list(self.seen), self._distrust
        return files
