"""Plug-ins found without importlib.metadata when nothing changed (pbem.game.plugins): the same answer as
importlib.metadata's, and any change to the path, a distribution or its entry points is noticed."""

from __future__ import annotations

import importlib.metadata
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from pbem.game import plugins
from pbem.game import ruleset as rulesets

GROUP = "pbem.rulesets"


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv("PBEM_NO_PLUGIN_CACHE", raising=False)
    return home


def truth() -> list[plugins.EntryPoint]:
    return [plugins.EntryPoint(e.name, e.value) for e in importlib.metadata.entry_points(group=GROUP)]


def asks_importlib(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = importlib.metadata.entry_points

    def counted(**kwargs: Any) -> Any:
        calls.append(1)
        return real(**kwargs)

    monkeypatch.setattr(importlib.metadata, "entry_points", counted)
    return calls


def distribution(root: Path, name: str, entries: str) -> Path:
    info = root / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entries}\n")
    return info


def test_the_kept_answer_is_importlib_metadatas_and_spares_asking_it(cache_home: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    expected = truth()
    assert {e.name for e in expected} >= {"duel", "war-galley"}
    assert plugins.entry_points(GROUP) == expected  # asks importlib.metadata, keeps the answer
    kept = list((cache_home / "pbem" / "plugins").iterdir())
    assert len(kept) == 1 and kept[0].stat().st_mode & 0o777 == 0o600
    assert (cache_home / "pbem" / "plugins").stat().st_mode & 0o777 == 0o700
    calls = asks_importlib(monkeypatch)
    assert plugins.entry_points(GROUP) == expected and calls == []
    real = {e.name: e.load() for e in importlib.metadata.entry_points(group=GROUP)}
    assert {e.name: e.load() for e in plugins.entry_points(GROUP)} == real


def test_a_distribution_added_changed_or_removed_is_noticed(tmp_path: Path, cache_home: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    assert plugins.entry_points(GROUP) == truth()  # kept
    info = distribution(site, "toyrules", "toy = engine.duel.ruleset:RULESET")
    assert plugins.EntryPoint("toy", "engine.duel.ruleset:RULESET") in plugins.entry_points(GROUP)
    assert rulesets.entry_points(GROUP) == truth()
    # the same file rewritten in place at once (same inode, same size, maybe the same clock tick): its bytes show it
    (info / "entry_points.txt").write_text(f"[{GROUP}]\ntoy = engine.duel.ruleset:RULESEX\n")
    assert plugins.entry_points(GROUP) == truth()
    assert plugins.EntryPoint("toy", "engine.duel.ruleset:RULESEX") in plugins.entry_points(GROUP)
    (info / "entry_points.txt").unlink()
    assert plugins.entry_points(GROUP) == truth() and "toy" not in {e.name for e in truth()}
    (info / "entry_points.txt").write_text(f"[{GROUP}]\ntoy = engine.duel.ruleset:RULESET\n")
    assert plugins.entry_points(GROUP) == truth()
    for path in info.iterdir():
        path.unlink()
    info.rmdir()
    assert plugins.entry_points(GROUP) == truth() and "toy" not in {e.name for e in truth()}


def test_an_answer_is_kept_at_once_and_a_rewrite_within_the_tick_is_seen(tmp_path: Path, cache_home: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    info = distribution(site, "toyrules", "toy = engine.duel.ruleset:RULESET")
    monkeypatch.syspath_prepend(str(site))
    assert plugins.entry_points(GROUP) == truth()  # asks importlib.metadata and keeps the answer
    calls = asks_importlib(monkeypatch)
    assert plugins.entry_points(GROUP) == truth() and len(calls) == 1  # only truth() asked
    times = os.stat(info / "entry_points.txt")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\ntoy = engine.duel.ruleset:RULESEX\n")
    os.utime(info / "entry_points.txt", ns=(times.st_atime_ns, times.st_mtime_ns))  # a write the times hide
    calls.clear()
    assert plugins.EntryPoint("toy", "engine.duel.ruleset:RULESEX") in plugins.entry_points(GROUP)
    assert len(calls) == 1  # the bytes changed: importlib.metadata was asked


def test_a_damaged_or_shared_cache_is_not_used(cache_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plugins.entry_points(GROUP)
    (kept,) = (cache_home / "pbem" / "plugins").iterdir()
    good = kept.read_bytes()
    calls = asks_importlib(monkeypatch)
    for damage in (good[:-5], good[:70] + b"X" + good[71:], b"", b"0" * 64 + b"{}"):
        kept.write_bytes(damage)
        assert plugins.entry_points(GROUP) == truth()
    assert len(calls) == 8
    kept.write_bytes(good)
    os.chmod(kept, 0o666)  # anyone could choose what code pbem loads
    calls.clear()
    assert plugins.entry_points(GROUP) == truth() and len(calls) == 2
    monkeypatch.setenv("PBEM_NO_PLUGIN_CACHE", "1")
    os.chmod(kept, 0o600)
    calls.clear()
    assert plugins.entry_points(GROUP) == truth() and len(calls) == 2


def test_another_finder_of_distributions_means_asking_importlib(cache_home: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    class Finder:
        @staticmethod
        def find_spec(*args: Any) -> None:
            return None

        @staticmethod
        def find_distributions(*args: Any, **kwargs: Any) -> list[Any]:
            return []

    plugins.entry_points(GROUP)
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder])
    calls = asks_importlib(monkeypatch)
    assert plugins.entry_points(GROUP) == truth() and len(calls) == 2


def test_a_broken_entry_point_fails_to_load_as_importlib_says(cache_home: Path) -> None:
    for value in ("no_such_module_here:thing", "engine.duel.ruleset:NO_SUCH", "???"):
        mine, theirs = plugins.EntryPoint("x", value), importlib.metadata.EntryPoint("x", value, GROUP)
        with pytest.raises(Exception) as got:
            mine.load()
        with pytest.raises(Exception) as expected:
            theirs.load()
        assert type(got.value) is type(expected.value) and str(got.value) == str(expected.value)
