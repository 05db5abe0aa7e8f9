"""A game's files in order, each read and parsed only when a command asks for it.

A command that does not replay needs a handful of a long game's files (the
set-up, the last few), not thousands. The files the state cache vouches for
(pbem.game.statecache: the digest of each, which their bytes just read have) are
held as those bytes and that digest; asked for, one is parsed as a file this
installation checked before (`movefile.parse_known`). Every other file is
held parsed, as admitted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

from pbem.signed import movefile
from pbem.signed.movefile import SignedFile


class GameFiles(Sequence[SignedFile]):
    def __init__(self, files: Iterable[SignedFile] = ()) -> None:
        self._signed: list[SignedFile | None] = list(files)
        self._digests: list[bytes | None] = [None] * len(self._signed)
        self._raws: list[bytes | None] = [None] * len(self._signed)  # bytes read, not parsed yet

    @classmethod
    def vouched(cls, raws: Sequence[bytes], digests: Sequence[bytes]) -> GameFiles:
        """Files as read, each with its SHA-256, not parsed until asked for (the state cache vouches that
        this installation checked files of these digests)."""
        files = cls()
        files._signed = [None] * len(raws)
        files._raws = list(raws)
        files._digests = list(digests)
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
        """File `index`'s bytes."""
        signed, raw = self._signed[index], self._raws[index]
        if signed is not None:
            return signed.raw
        assert raw is not None
        return raw

    def digest(self, index: int) -> bytes:
        """File `index`'s SHA-256, without parsing a file held by its digest."""
        digest = self._digests[index]
        if digest is None:
            signed = self._signed[index]
            assert signed is not None
            digest = self._digests[index] = signed.hash
        return digest

    def append(self, signed: SignedFile) -> None:
        self._signed.append(signed)
        self._raws.append(None)
        self._digests.append(None)

    def copy(self) -> GameFiles:
        """A copy that can grow without touching this one (a file parsed by either is parsed once each)."""
        files = GameFiles()
        files._signed, files._raws, files._digests = list(self._signed), list(self._raws), list(self._digests)
        return files
