"""The JSON twins of the shipped TOML files (engine.datafiles, scenarios/toml-as-json/): one for every
shipped TOML document, each exactly what tomllib reads from it, and none for anything else."""

from __future__ import annotations

import hashlib
import tomllib

import msgspec

from engine import datafiles


def _shipped() -> dict[str, bytes]:
    """Each shipped TOML document as JSON, keys in file order (a chart's bands are read in that order)."""
    return {hashlib.sha256(p.read_bytes()).hexdigest(): msgspec.json.encode(tomllib.loads(p.read_text("utf-8"))) + b"\n"
            for p in datafiles.scenarios_dir().rglob("*.toml")}


def test_every_shipped_toml_file_has_its_twin_and_no_twin_is_stale() -> None:
    """Fails after a data file changes until `python -m engine.datafiles` is run (the twin is only a speed-up)."""
    twins = {p.stem: p.read_bytes()
             for p in (datafiles.scenarios_dir() / datafiles.TOML_AS_JSON).glob("*.json")}
    assert twins == _shipped()


def test_the_twin_is_read_for_shipped_bytes_and_the_toml_for_any_other() -> None:
    counters = (datafiles.scenarios_dir("war_galley") / "counters.toml").read_bytes()
    charts = (datafiles.scenarios_dir("war_galley") / "charts.toml").read_bytes()
    twin, toml = datafiles.toml_document(charts), tomllib.loads(charts.decode())
    assert twin == toml and list(twin["boarding"]["rows"]) == list(toml["boarding"]["rows"])
    edited = counters + b"\n# a player's own copy\n"
    assert datafiles.toml_document(edited) is None
    assert datafiles.read_toml(edited) == tomllib.loads(edited.decode())
