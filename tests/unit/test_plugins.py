"""pbem/plugins.py finds the entry points importlib.metadata finds, without importing it."""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from pbem import plugins


@pytest.mark.parametrize("group", ["pbem.rulesets", "console_scripts", "pytest11", "no.such.group"])
def test_same_as_importlib_metadata(group: str) -> None:
    ours = sorted((e.name, e.value) for e in plugins.entry_points(group))
    theirs = sorted((e.name, e.value) for e in entry_points(group=group))
    assert ours == theirs


def test_first_distribution_on_the_path_wins_and_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for where, target in (("a", "json:dumps"), ("b", "json:loads")):
        info = tmp_path / where / "Toy_Plugin-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "entry_points.txt").write_text(f"# a comment\n[other]\nx = os:sep\n\n[toy.group]\ntoy = {target}\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path / "a"), str(tmp_path / "b"), *sys.path])
    found = plugins.entry_points("toy.group")
    assert [(e.name, e.value) for e in found] == [("toy", "json:dumps")]
    import json

    assert found[0].load() is json.dumps
    assert sorted((e.name, e.value) for e in found) == sorted((e.name, e.value) for e in entry_points(group="toy.group"))
