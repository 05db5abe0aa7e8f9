"""pbem.game.usercache: an entry is read back only whole and only from a folder and file this user alone can write."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.game import usercache
from pbem.reports import report


def test_an_entry_reads_back_whole_and_private(tmp_path: Path) -> None:
    where = str(tmp_path / "kind")
    usercache.store(where, "name", b"payload")
    assert usercache.load(where, "name") == b"payload"
    assert os.stat(where).st_mode & 0o777 == 0o700 and os.stat(Path(where, "name")).st_mode & 0o777 == 0o600
    assert [p.name for p in Path(where).iterdir()] == ["name"]  # no temporary left behind


def test_damaged_cut_or_shared_entries_read_as_none(tmp_path: Path) -> None:
    where = tmp_path / "kind"
    usercache.store(str(where), "name", b"payload")
    entry = where / "name"
    good = entry.read_bytes()
    for damage in (good[:-1], good[:10], b"", good[:64] + b"Payload"):
        entry.write_bytes(damage)
        assert usercache.load(str(where), "name") is None
    entry.write_bytes(good)
    os.chmod(entry, 0o666)
    assert usercache.load(str(where), "name") is None
    os.chmod(entry, 0o600)
    os.chmod(where, 0o777)
    assert usercache.load(str(where), "name") is None
    os.chmod(where, 0o700)
    assert usercache.load(str(where), "name") == b"payload"
    assert usercache.load(str(where), "other") is None


def test_the_folder_follows_xdg_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert usercache.folder("plugins") == str(tmp_path / "pbem" / "plugins")


def test_compiled_templates_are_kept_only_in_a_private_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert report._bytecode_cache() is not None
    os.chmod(tmp_path / "pbem" / "templates", 0o777)  # anyone could plant compiled code there
    assert report._bytecode_cache() is None


def test_a_planted_link_or_fifo_is_never_read_or_written_through(tmp_path: Path) -> None:
    """Entries can choose code to load (the plug-in list names modules to import): a link at an entry's name, or at the
    folder, is not read, and writing replaces a link at the name instead of writing through it."""
    where = tmp_path / "kind"
    usercache.store(str(where), "name", b"payload")
    outside = tmp_path / "outside"
    outside.write_bytes((where / "name").read_bytes())  # a well-formed entry, elsewhere
    (where / "name").unlink()
    (where / "name").symlink_to(outside)
    assert usercache.load(str(where), "name") is None
    usercache.store(str(where), "name", b"another")
    assert not (where / "name").is_symlink() and usercache.load(str(where), "name") == b"another"
    assert outside.read_bytes().endswith(b"payload")
    os.mkfifo(where / "fifo")
    assert usercache.load(str(where), "fifo") is None  # not waited on
    linked = tmp_path / "linked"
    linked.symlink_to(where, target_is_directory=True)
    assert usercache.load(str(linked), "name") is None
    usercache.store(str(linked), "other", b"x")
    assert not (where / "other").exists()
