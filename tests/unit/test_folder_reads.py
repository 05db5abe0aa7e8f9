"""Reading a game folder's files again in one process (pbem.folder.read_game_files): a file unchanged
since, by inode, size and times, is not read again; any change, or one too recent to tell, is."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from pbem import folder as folders


def files(tmp_path: Path) -> list[Path]:
    paths = []
    for seq in range(3):
        path = tmp_path / f"{seq:06d}.pbem"
        path.write_bytes(f"file {seq}".encode())
        paths.append(path)
    return paths


def counting_opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    opened: list[str] = []
    real = os.open

    def counted(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(folders.os, "open", counted)
    return opened


def test_a_file_changed_at_once_is_read_again_though_its_size_is_the_same(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    paths = files(tmp_path)
    assert folders.read_game_files(paths) == [b"file 0", b"file 1", b"file 2"]
    paths[1].write_bytes(b"FILE 1")  # same size, within the same clock tick perhaps: too recent to trust
    opened = counting_opens(monkeypatch)
    assert folders.read_game_files(paths) == [b"file 0", b"FILE 1", b"file 2"]
    assert len(opened) == 3


def test_an_old_unchanged_file_is_not_read_again_and_a_changed_one_is(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    paths = files(tmp_path)
    time.sleep(folders._RACY_NS / 1e9 + 0.1)  # the files are now older than any clock tick
    assert folders.read_game_files(paths) == [b"file 0", b"file 1", b"file 2"]
    opened = counting_opens(monkeypatch)
    assert folders.read_game_files(paths) == [b"file 0", b"file 1", b"file 2"]
    assert opened == []
    paths[2].write_bytes(b"file 2, now longer")
    replacement = tmp_path / "new"
    replacement.write_bytes(b"FILE 0")
    os.replace(replacement, paths[0])  # another inode in its place
    assert folders.read_game_files(paths) == [b"FILE 0", b"file 1", b"file 2, now longer"]
    assert sorted(opened) == sorted([str(paths[0]), str(paths[2])])


@pytest.mark.parametrize("spelling", ["absolute", "relative", "dot", "trailing slash"])
def test_game_file_names_are_the_text_of_the_listed_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          spelling: str) -> None:
    """referee.load lists a long game as text (Paths cost more than the listing): the very names errors show."""
    game = tmp_path / "game"
    game.mkdir()
    for seq in (2, 0, 1):
        (game / f"{seq:06d}.pbem").write_bytes(b"x")
    (game / "notes.txt").write_bytes(b"x")
    monkeypatch.chdir(game if spelling == "dot" else tmp_path)
    folder = {"absolute": game, "relative": Path("game"), "dot": Path("."), "trailing slash": Path("game/")}[spelling]
    expected = [str(folder / f"{seq:06d}.pbem") for seq in range(3)]
    assert folders.game_file_names(folder) == expected
    assert folders.game_files(folder) == [folder / f"{seq:06d}.pbem" for seq in range(3)]
