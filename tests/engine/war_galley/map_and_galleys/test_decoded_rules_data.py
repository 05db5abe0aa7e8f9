"""The decoded rules data kept between processes (engine.decoded): it gives exactly what reading the
TOML gives, and a corrupted, stale, foreign or not-private entry is ignored (the data is read afresh)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine import decoded
from engine.war_galley.map_and_galleys import rulesdata


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("PBEM_NO_DECODED_CACHE", raising=False)
    rulesdata.parse.cache_clear()
    yield tmp_path / "cache" / "pbem" / "decoded"
    rulesdata.parse.cache_clear()


def bundle() -> rulesdata.RulesData:
    return rulesdata.load_rules_data(rulesdata.default_rules_data())


def read_afresh(data: rulesdata.RulesData) -> rulesdata.Parsed:
    """What reading the TOML gives, with no kept entry anywhere."""
    os.environ["PBEM_NO_DECODED_CACHE"] = "1"
    try:
        rulesdata.parse.cache_clear()
        return rulesdata.parse(data)
    finally:
        del os.environ["PBEM_NO_DECODED_CACHE"]
        rulesdata.parse.cache_clear()


def same(a: rulesdata.Parsed, b: rulesdata.Parsed) -> None:
    assert a.charts == b.charts
    assert a.manifest.items() == b.manifest.items() and a.manifest.types == b.manifest.types
    assert a.manifest.groups == b.manifest.groups and a.manifest.source == b.manifest.source
    assert a.commanders.rosters == b.commanders.rosters and a.commanders.source == b.commanders.source


def entry(cache: Path) -> Path:
    entries = [p for p in cache.iterdir() if not p.name.startswith(".")]
    assert len(entries) == 1, entries
    return entries[0]


def kept_and_used(cache: Path, data: rulesdata.RulesData) -> bool:
    """Parse in a 'new process' (the in-process cache cleared): True if the kept entry was used."""
    rulesdata.parse.cache_clear()
    key = decoded.key_of("war-galley rules data", data.to_bytes(), rulesdata._DECODERS)
    used = decoded.load(key) is not None
    parsed = rulesdata.parse(data)
    same(parsed, read_afresh(data))
    return used


def test_the_kept_rules_data_equals_the_read_one(cache: Path) -> None:
    data = bundle()
    first = rulesdata.parse(data)
    path = entry(cache)
    assert path.stat().st_mode & 0o777 == 0o600 and cache.stat().st_mode & 0o777 == 0o700
    same(first, read_afresh(data))
    assert kept_and_used(cache, data)


def test_a_corrupted_entry_is_ignored_and_replaced(cache: Path) -> None:
    data = bundle()
    rulesdata.parse(data)
    path = entry(cache)
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    path.write_bytes(bytes(raw))
    assert not kept_and_used(cache, data)
    assert kept_and_used(cache, data), "the damaged entry was written again, whole"
    for damage in (b"", b"not an entry", path.read_bytes()[:40]):
        path.write_bytes(damage)
        assert not kept_and_used(cache, data)


def test_a_valid_pickle_of_something_else_is_ignored(cache: Path) -> None:
    """A well-formed entry under the right name holding another value is not taken for the rules."""
    data = bundle()
    key = decoded.key_of("war-galley rules data", data.to_bytes(), rulesdata._DECODERS)
    decoded.store(key, {"not": "the rules"})
    rulesdata.parse.cache_clear()
    same(rulesdata.parse(data), read_afresh(data))


def test_a_foreign_or_stale_entry_is_ignored(cache: Path) -> None:
    """An entry made for other data or by other code has another name; renamed into place, it is refused."""
    data = bundle()
    rulesdata.parse(data)
    path = entry(cache)
    other_data = decoded.key_of("war-galley rules data", data.to_bytes() + b" ", rulesdata._DECODERS)
    other_code = decoded.key_of("war-galley rules data", data.to_bytes(), ("engine.errors",))
    assert len({path.name, other_data, other_code}) == 3
    path.rename(cache / other_data)
    assert decoded.load(other_data) is None  # its stored key is not its new name
    assert not kept_and_used(cache, data)


def test_an_entry_others_could_write_is_ignored(cache: Path) -> None:
    data = bundle()
    rulesdata.parse(data)
    path = entry(cache)
    path.chmod(0o666)
    assert not kept_and_used(cache, data)
    path.chmod(0o600)
    cache.chmod(0o777)
    assert not kept_and_used(cache, data)
    cache.chmod(0o700)
    assert kept_and_used(cache, data)


def test_an_unwritable_cache_only_costs_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    rulesdata.parse.cache_clear()
    data = bundle()
    same(rulesdata.parse(data), read_afresh(data))


def test_the_kept_builtin_battle_counters_and_commanders_equal_the_read_ones(cache: Path) -> None:
    from engine.war_galley.battles import scenario_files as files

    def fresh() -> None:
        for loader in (files.builtin_scenario, files.builtin_manifest, files.builtin_commanders):
            loader.cache_clear()

    fresh()
    first = (files.builtin_scenario("actium"), files.builtin_manifest(), files.builtin_commanders())
    assert len([p for p in cache.iterdir() if not p.name.startswith(".")]) == 3
    for path in cache.iterdir():  # damage every entry: each is read afresh, and equal
        path.write_bytes(path.read_bytes()[:-3] + b"bad")
    fresh()
    again = (files.builtin_scenario("actium"), files.builtin_manifest(), files.builtin_commanders())
    fresh()
    kept = (files.builtin_scenario("actium"), files.builtin_manifest(), files.builtin_commanders())
    for got in (again, kept):
        assert got[0] == first[0]
        assert got[1].items() == first[1].items() and got[1].source == first[1].source
        assert got[2].rosters == first[2].rosters and got[2].source == first[2].source
    fresh()


def test_a_games_kept_scenario_is_the_one_parsed_and_a_bad_one_is_refused_every_time(cache: Path) -> None:
    from engine.errors import RulesDataError
    from engine.war_galley.battles import scenario_files as files

    rules = rulesdata.default_rules_data()
    data = (files.BATTLES_DIR / "actium.toml").read_bytes()
    parsed = rulesdata.parse(rulesdata.load_rules_data(rules))
    truth = files.parse_scenario(data, "scenario", parsed.manifest, parsed.commanders)
    files.game_scenario.cache_clear()
    assert files.game_scenario(data, rules) == truth  # parsed, and kept
    files.game_scenario.cache_clear()
    assert files.game_scenario(data, rules) == truth  # read back from the kept entry
    bad = data.replace(b'name = "', b'name = 7 #"', 1)
    for _ in range(2):
        files.game_scenario.cache_clear()
        with pytest.raises(RulesDataError):
            files.game_scenario(bad, rules)
    files.game_scenario.cache_clear()


def test_the_map_grid_kept_between_processes_is_the_one_drawn(cache: Path) -> None:
    """A turn report's map grid (engine.war_galley.play.view_map) is kept too: loaded, it is the drawing
    itself; damaged, it is drawn again."""
    from engine.war_galley.battles.setup import new_game
    from engine.war_galley.play import view_map
    from engine.war_galley.ruleset import RULESET

    board = new_game(RULESET.builtin_scenario("actium"), RULESET.default_rules_data(), {}).board
    drawn = view_map._draw_grid(board)
    view_map.grid.cache_clear()
    assert view_map.grid(board) == drawn  # drawn, and kept
    kept = [p for p in cache.iterdir() if not p.name.startswith(".")]
    assert kept
    view_map.grid.cache_clear()
    assert view_map.grid(board) == drawn  # loaded
    for path in kept:
        path.write_bytes(path.read_bytes()[:-10] + b"0123456789")
    view_map.grid.cache_clear()
    assert view_map.grid(board) == drawn  # damaged: drawn again
    view_map.grid.cache_clear()
