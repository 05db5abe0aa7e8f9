"""Reading a game folder's files (pbem.game.folder.read_game_files): every file, every time, as it now is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.game import folder as folders


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


def test_every_read_reads_every_file_so_a_change_at_once_shows(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing is trusted by what the file system shows of a file (its times cannot tell a write in the same
    clock tick): a file rewritten at once, with the same size, is read as it now is."""
    paths = files(tmp_path)
    assert folders.read_game_files(paths) == [b"file 0", b"file 1", b"file 2"]
    paths[1].write_bytes(b"FILE 1")
    replacement = tmp_path / "new"
    replacement.write_bytes(b"FILE 0")
    os.replace(replacement, paths[0])  # another inode in its place
    opened = counting_opens(monkeypatch)
    assert folders.read_game_files(paths) == [b"FILE 0", b"FILE 1", b"file 2"]
    assert sorted(opened) == sorted(str(path) for path in paths)


@pytest.mark.parametrize("spelling", ["absolute", "relative", "dot", "trailing slash"])
def test_game_file_names_are_the_text_of_the_listed_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          spelling: str) -> None:
    """store.load lists a long game as text (Paths cost more than the listing): the very names errors show."""
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
