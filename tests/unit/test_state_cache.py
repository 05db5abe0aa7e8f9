"""The state cache beside a game (pbem.game.statecache): what it gives equals what replay gives, and a
corrupted, stale or foreign cache is detected and ignored (the command replays and answers the same)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from pbem.game import folder as folders
from pbem.game import referee
from pbem.reports import report
from pbem.game import statecache
from pbem.game import store
from pbem.game import writing
from pbem.errors import FolderProblem, PbemError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def fresh_process() -> None:
    """Forget what this process knows, as a new `pbem` process would."""
    store._to_save.clear()


def game_copy(tmp_path: Path, name: str, files: int | None = None) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for path in folders.game_files(EXAMPLES / name)[:files]:
        shutil.copyfile(path, folder / path.name)
    return folder


def replayed(folder: Path) -> referee.Game:
    fresh_process()
    return store.load(folder, use_cache=False)


def cached_load(folder: Path) -> referee.Game:
    """Load once (writing the cache as a succeeding command does), then again from the cache alone."""
    fresh_process()
    store.load(folder)
    store.save_loaded()
    fresh_process()
    return store.load(folder)


def _counting_replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lengths of every full replay from now on (monkeypatch.undo() stops the counting)."""
    replays: list[int] = []
    real = referee.replay

    def counted(raws: list[bytes], names: list[str]) -> referee.Game:
        replays.append(len(raws))
        return real(raws, names)

    monkeypatch.setattr(referee, "replay", counted)
    return replays


def same_answer(game: referee.Game, truth: referee.Game) -> None:
    ruleset = truth.ruleset
    assert len(game.files) == len(truth.files)
    assert ruleset.state_bytes(game.resolved_state) == ruleset.state_bytes(truth.resolved_state)
    assert game.resolved_state == truth.resolved_state
    assert ruleset.describe(game.resolved_state) == ruleset.describe(truth.resolved_state)
    assert game.finished() == truth.finished() and game.result() == truth.result()


@pytest.mark.parametrize("name", ["tauris-game", "duel-game"])
def test_cached_and_replayed_states_are_equal(tmp_path: Path, name: str) -> None:
    folder = game_copy(tmp_path, name)
    game = cached_load(folder)
    assert game.tip is not None, "the second load came from the cache"
    truth = replayed(folder)
    same_answer(game, truth)
    # Earlier files' events and dice are not in the cache: asked for, they are replayed, and equal.
    for seq in (2, len(truth.files) // 2, len(truth.files) - 2):
        assert game.resolutions[seq].rolls == truth.resolutions[seq].rolls
        assert game.resolutions[seq].events == truth.resolutions[seq].events
        assert game.resolutions[seq].state == truth.resolutions[seq].state


def test_a_cache_of_fewer_files_is_used_and_the_rest_checked(tmp_path: Path) -> None:
    folder = game_copy(tmp_path, "tauris-game", 60)
    cached_load(folder)
    for path in folders.game_files(EXAMPLES / "tauris-game")[60:]:
        shutil.copyfile(path, folder / path.name)
    fresh_process()
    game = store.load(folder)
    assert game.tip is not None and game.tip[0] == 58  # the cache stood for files 0..59
    same_answer(game, replayed(folder))


def entry_of(folder: Path) -> statecache.Entry:
    entry = statecache.read(folder)
    assert entry is not None
    return entry


def ignored(folder: Path) -> None:
    """The cache beside `folder` is not used, and loading gives replay's answer."""
    fresh_process()
    game = store.load(folder)
    assert game.tip is None, "the cache should have been ignored"
    same_answer(game, replayed(folder))


def test_a_corrupted_cache_is_ignored(tmp_path: Path) -> None:
    folder = game_copy(tmp_path, "tauris-game")
    cached_load(folder)
    path = statecache.path_of(folder)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    ignored(folder)
    path.write_bytes(b"not a cache at all")
    ignored(folder)
    path.write_bytes(path.read_bytes()[:10])
    ignored(folder)


def test_a_cache_claiming_another_state_is_ignored(tmp_path: Path) -> None:
    """Even a well-formed cache for these very files must hold the state the last file signs for."""
    folder = game_copy(tmp_path, "tauris-game")
    cached_load(folder)
    entry = entry_of(folder)
    earlier = replayed(folder).resolutions[50].state
    ruleset = store.load(folder).ruleset
    statecache.write(folder, msgspec.structs.replace(entry, state=ruleset.state_bytes(earlier)))
    ignored(folder)


def test_a_stale_cache_is_ignored(tmp_path: Path) -> None:
    folder = game_copy(tmp_path, "tauris-game")
    cached_load(folder)
    # The folder lost its last file: the cache covers a file that is not there.
    (folder / folders.game_files(folder)[-1].name).unlink()
    ignored(folder)


def test_a_cache_of_other_code_or_rules_version_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = game_copy(tmp_path, "tauris-game")
    cached_load(folder)
    entry = entry_of(folder)
    for change in ({"code": "0" * 64}, {"version": "0"}, {"rules_hash": "0" * 64}, {"format": 0}):
        statecache.write(folder, msgspec.structs.replace(entry, **change))
        ignored(folder)


def test_a_foreign_cache_is_ignored(tmp_path: Path) -> None:
    """Another game's cache copied beside this game (the files it names are not these)."""
    other = game_copy(tmp_path, "duel-game")
    cached_load(other)
    folder = game_copy(tmp_path, "tauris-game")
    shutil.copyfile(statecache.path_of(other), statecache.path_of(folder))
    ignored(folder)


def test_verify_never_reads_the_cache(tmp_path: Path) -> None:
    folder = game_copy(tmp_path, "tauris-game")
    cached_load(folder)
    fresh_process()
    assert store.load(folder, use_cache=False).tip is None


def test_the_cli_answers_the_same_with_a_damaged_cache(tmp_path: Path) -> None:
    folder = game_copy(tmp_path, "tauris-game")
    command = [sys.executable, "-c", "from pbem.cli.app import main; main()", "status", str(folder)]
    env = dict(os.environ, PBEM_KEYS=str(tmp_path / "no-keys"))

    def status() -> str:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = status()  # replays, then writes the cache
    assert statecache.read(folder) is not None
    assert status() == first  # from the cache
    path = statecache.path_of(folder)
    path.write_bytes(path.read_bytes()[:-7] + b"garbage")
    assert status() == first  # replays again


def test_a_command_run_in_process_writes_the_cache_only_when_it_succeeds(tmp_path: Path) -> None:
    """CliRunner and the board run commands in-process: the app itself writes the caches of a command
    that succeeded (not only the console script), and none for one that failed."""
    from typer.testing import CliRunner

    from pbem.cli.app import app

    folder = game_copy(tmp_path, "tauris-game")
    failed = CliRunner().invoke(app, ["move", str(folder), "--keys", str(tmp_path / "no-keys")])
    assert failed.exit_code != 0 and statecache.read(folder) is None
    done = CliRunner().invoke(app, ["status", str(folder), "--keys", str(tmp_path / "no-keys")])
    assert done.exit_code == 0, done.output
    assert statecache.read(folder) is not None


def test_a_command_writes_no_cache_for_what_was_loaded_before_it(tmp_path: Path) -> None:
    """A load outside a command (a test, a script) is not the next command's to write, even if its
    folder has since gone (a game made in a work folder, then renamed)."""
    from typer.testing import CliRunner

    from pbem.cli.app import app

    earlier, gone = game_copy(tmp_path, "tauris-game"), tmp_path / "made"
    shutil.copytree(earlier, gone)
    fresh_process()
    store.load(earlier)
    store.load(gone)
    shutil.rmtree(gone)
    result = CliRunner().invoke(app, ["keys", "--keys", str(tmp_path / "no-keys")])
    assert result.exit_code == 0, result.output
    assert statecache.read(earlier) is None


def test_the_turn_report_after_a_file_needs_no_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """move and receive write the latest turn report: from a cached game and the file just added it must
    not replay every file (asking game.resolutions for its keys did), and must be the replayed game's report."""
    from pbem.cli import report as cli_report

    every = folders.game_files(EXAMPLES / "tauris-game")
    folder = game_copy(tmp_path, "tauris-game", len(every) - 1)
    cached_load(folder)  # the cache stands beside the game; then the next file arrives
    shutil.copyfile(every[-1], folder / every[-1].name)
    truth = replayed(folder)
    fresh_process()
    replays = _counting_replays(monkeypatch)
    lines: list[str] = []
    cli_report.write_reports(folder, tmp_path / "no-keys", None, lines.append)
    assert replays == [] and len(lines) == 1, (replays, lines)
    span = report.latest_span(truth)
    written = (folder / cli_report.REPORT_FOLDER / report.report_name(span)).read_text(encoding="utf-8")
    assert written == report.render(truth, span)


def test_the_preview_report_after_a_received_file_needs_no_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """receive on your turn also writes your private preview of the file just received. Asking whether
    that file is resolved (it is not: only you can resolve it) must not replay every file either."""
    from pbem.cli import report as cli_report
    from pbem.signed import identity as ids
    from pbem.signed.movefile import author_of
    from tests.protocol.conftest import play

    keys = {"host": ids.generate("alice", tmp_path / "alice"), "guest": ids.generate("bob", tmp_path / "bob")}
    whole = tmp_path / "whole"
    play(whole, keys["host"], keys["guest"], "duel")
    every = folders.game_files(whole)
    length = len(every) - 3  # not finished: two files to go after the one received
    folder = tmp_path / "game"
    folder.mkdir()
    for path in every[:length - 1]:
        shutil.copyfile(path, folder / path.name)
    cached_load(folder)
    shutil.copyfile(every[length - 1], folder / every[length - 1].name)
    receiver = author_of(length)
    fresh_process()
    replays = _counting_replays(monkeypatch)
    lines: list[str] = []
    cli_report.write_reports(folder, tmp_path / ("alice" if receiver == "host" else "bob"), None, lines.append)
    assert replays == [] and len(lines) == 2 and "preview" in lines[1], (replays, lines)
    monkeypatch.undo()
    truth = replayed(folder)
    view = writing.outlook(truth, keys[receiver])
    span = report.latest_span(truth, (length - 1, view.resolution, view.reveal))
    written = (folder / cli_report.REPORT_FOLDER / report.report_name(span)).read_text(encoding="utf-8")
    assert written == report.render(truth, span)


def test_asking_which_files_are_resolved_replays_nothing() -> None:
    """The keys of a cached game's resolutions are those replay gives, known before any replay."""
    calls: list[int] = []

    def fill() -> dict[int, referee.Resolution]:
        calls.append(1)
        return {seq: referee.Resolution(seq, [], []) for seq in range(1, 9)}

    resolutions = store.Resolutions({9: referee.Resolution(9, [], [])}, fill, range(1, 9))
    assert 5 in resolutions and 10 not in resolutions and 0 not in resolutions
    assert max(resolutions) == 9 and len(resolutions) == 9 and resolutions.get(10) is None
    assert calls == []
    assert resolutions[4].state == 4 and calls == [1]
    assert sorted(resolutions) == list(range(1, 10))


@pytest.mark.parametrize("name", ["tauris-game", "duel-game"])
def test_the_latest_report_of_a_cached_game_needs_no_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            name: str) -> None:
    """`pbem report` of the latest file resolves that one file from the state before it, which the cache
    keeps (its hash is the one that file signs), and writes the replayed game's very report."""
    from pbem.reports import report

    folder = game_copy(tmp_path, name, 60)
    truth = replayed(folder)
    span = report.latest_span(truth)
    expected = report.render(truth, span)
    cached_load(folder)
    fresh_process()
    replays = _counting_replays(monkeypatch)
    game = store.load(folder)
    assert game.before_tip is not None
    cached_span = report.latest_span(game)
    assert report.render(game, cached_span) == expected
    assert replays == [], replays


def test_a_cache_whose_earlier_state_is_not_the_signed_one_is_not_used_for_it(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The state before the last resolved file must hash to what that file signs; another one is ignored
    and the report replays, with the same answer."""
    from pbem.reports import report

    folder = game_copy(tmp_path, "tauris-game", 60)
    truth = replayed(folder)
    expected = report.render(truth, report.latest_span(truth))
    cached_load(folder)
    entry = statecache.read(folder)
    assert entry is not None and entry.previous
    other = truth.ruleset.state_bytes(truth.resolutions[30].state)
    statecache.write(folder, msgspec.structs.replace(entry, previous=other))
    fresh_process()
    replays = _counting_replays(monkeypatch)
    game = store.load(folder)
    assert game.before_tip is None
    assert report.render(game, report.latest_span(game)) == expected
    assert replays == [60], replays


# ----- every file read and hashed, few parsed: nothing trusted by a file's times, no waiting --------------


def counting_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game files read from now on, by whichever path reads them."""
    reads: list[str] = []
    one, whole = folders._read_one, folders.read

    def read_one(path: Path, limit: int) -> bytes:
        reads.append(Path(path).name)
        return one(path, limit)

    def read(path: Path, limit: int = folders.MAX_FILE_BYTES) -> bytes:
        reads.append(Path(path).name)
        return whole(path, limit)

    monkeypatch.setattr(folders, "_read_one", read_one)
    monkeypatch.setattr(folders, "read", read)
    return reads


def counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many files are parsed from now on, checked (movefile.parse) or known (parse_known)."""
    from pbem.game import gamefiles
    from pbem.signed import movefile

    parses: list[int] = []
    parse, known = movefile.parse, movefile.parse_known

    def parsed(raw: bytes, what: str) -> movefile.SignedFile:
        parses.append(1)
        return parse(raw, what)

    def parsed_known(raw: bytes) -> movefile.SignedFile:
        parses.append(1)
        return known(raw)

    monkeypatch.setattr(movefile, "parse", parsed)
    monkeypatch.setattr(movefile, "parse_known", parsed_known)
    monkeypatch.setattr(gamefiles.movefile, "parse_known", parsed_known)
    return parses


def cached_game(tmp_path: Path, name: str, files: int | None = None) -> Path:
    """A game copied and loaded once, so that its cache covers every file (no waiting: nothing is trusted
    by a file's times)."""
    folder = game_copy(tmp_path, name, files)
    cached_load(folder)
    return folder


def status_like(folder: Path) -> referee.Game:
    """What `pbem status` asks of a loaded game."""
    game = store.load(folder)
    game.ruleset.describe(game.resolved_state)
    game.finished()
    game.last_time
    game.last_chain_value("host"), game.last_chain_value("guest")
    game.reveals_made("host")
    return game


def same_error(folder: Path) -> str:
    """Loading from the cache fails exactly as replay does (which it then is)."""
    fresh_process()
    with pytest.raises(PbemError) as truth:
        store.load(folder, use_cache=False)
    fresh_process()
    with pytest.raises(PbemError) as cached:
        status_like(folder)
    assert str(cached.value) == str(truth.value) and type(cached.value) is type(truth.value)
    return str(truth.value)


@pytest.mark.parametrize("name", ["tauris-game", "duel-game"])
def test_a_command_that_does_not_replay_reads_every_file_once_and_parses_a_few(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch,
                                                                             name: str) -> None:
    folder = cached_game(tmp_path, name)
    count = len(folders.game_files(folder))
    fresh_process()
    reads, parses = counting_reads(monkeypatch), counting_parses(monkeypatch)
    game = status_like(folder)
    assert game.tip is not None
    assert sorted(reads) == sorted(path.name for path in folders.game_files(folder)) and len(reads) == count
    assert len(parses) <= 4, parses  # the set-up files and the last two
    same_answer(game, replayed(folder))


def test_a_file_changed_at_once_after_the_cache_was_written_is_noticed(tmp_path: Path) -> None:
    """Within the same clock tick as the cache was written, same size, same inode: the file is read and
    hashed like every other, so the answer is replay's (its error), with no wait for the times to settle."""
    folder = cached_game(tmp_path, "tauris-game")
    path = folders.game_files(folder)[40]
    data = bytearray(path.read_bytes())
    data[-10] = ord("A") if data[-10] != ord("A") else ord("B")  # a signature byte: still base64
    with path.open("r+b") as handle:  # in place: the same inode
        handle.write(bytes(data))
    assert "000040.pbem" in same_error(folder)


@pytest.mark.parametrize("keep_times", [False, True])
def test_a_file_rewritten_in_place_with_the_same_size_is_noticed(tmp_path: Path, keep_times: bool) -> None:
    """Same size, same inode, and (keep_times) even its old modification time put back: every file is read
    and hashed, so the answer is replay's (here its error)."""
    folder = cached_game(tmp_path, "tauris-game")
    path = folders.game_files(folder)[40]
    stat = path.stat()
    data = bytearray(path.read_bytes())
    data[-10] = ord("A") if data[-10] != ord("A") else ord("B")  # a signature byte: still base64
    with path.open("r+b") as handle:  # in place: the same inode
        handle.write(bytes(data))
    if keep_times:
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_ino == stat.st_ino and path.stat().st_size == stat.st_size
    assert "000040.pbem" in same_error(folder)


def test_a_file_replaced_by_the_same_bytes_leaves_the_cache_standing(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = cached_game(tmp_path, "tauris-game")
    path = folders.game_files(folder)[40]
    copy = tmp_path / "copy"
    shutil.copyfile(path, copy)
    os.replace(copy, path)  # another inode, the same bytes
    fresh_process()
    replays = _counting_replays(monkeypatch)
    game = status_like(folder)
    assert game.tip is not None and replays == []
    monkeypatch.undo()
    same_answer(game, replayed(folder))


def test_a_file_replaced_by_another_games_file_is_noticed(tmp_path: Path) -> None:
    folder = cached_game(tmp_path, "tauris-game")
    other = folders.game_files(EXAMPLES / "duel-game")[40]
    shutil.copyfile(other, folders.game_files(folder)[40])
    same_error(folder)


def test_files_removed_or_added_are_noticed(tmp_path: Path) -> None:
    folder = cached_game(tmp_path, "tauris-game", 60)
    (folder / "000030.pbem").unlink()  # a gap
    assert "000030.pbem: missing" in same_error(folder)
    shutil.copyfile(EXAMPLES / "tauris-game" / "000030.pbem", folder / "000030.pbem")
    shutil.copyfile(EXAMPLES / "duel-game" / "000060.pbem", folder / "000060.pbem")  # another game's next file
    same_error(folder)
    (folder / "000060.pbem").unlink()
    (folder / "000059.pbem").unlink()  # the last file the cache covers is gone
    ignored(folder)


def test_a_file_changed_while_a_command_runs_does_not_mix_two_games(tmp_path: Path) -> None:
    """The bytes a command read at load are the ones it goes on with: a file changed in the folder after
    that does not slip into this command's game (its next load reads it, and answers as replay does)."""
    folder = cached_game(tmp_path, "tauris-game")
    fresh_process()
    game = store.load(folder)
    held = folders.read(folders.game_files(folder)[40])
    shutil.copyfile(EXAMPLES / "duel-game" / "000040.pbem", folder / "000040.pbem")
    assert game.files[40].raw == held
    same_error(folder)
    shutil.copyfile(EXAMPLES / "tauris-game" / "000040.pbem", folder / "000040.pbem")
    fresh_process()
    same_answer(store.load(folder), replayed(folder))


def test_a_second_load_in_one_process_notices_a_changed_file(tmp_path: Path) -> None:
    folder = cached_game(tmp_path, "tauris-game")
    fresh_process()
    store.load(folder)
    shutil.copyfile(EXAMPLES / "duel-game" / "000040.pbem", folder / "000040.pbem")
    with pytest.raises(PbemError) as truth:
        store.load(folder, use_cache=False)
    with pytest.raises(PbemError) as again:
        store.load(folder)
    assert str(again.value) == str(truth.value)


def test_a_cache_whose_records_do_not_fit_its_files_is_ignored(tmp_path: Path) -> None:
    folder = cached_game(tmp_path, "tauris-game")
    entry = entry_of(folder)
    # the wrong digest for the last file it covers (whose signed state hash the cache's state must match)
    statecache.write(folder, msgspec.structs.replace(entry, files=entry.files[:-1] + (b"\0" * 32,)))
    ignored(folder)
    statecache.write(folder, msgspec.structs.replace(entry, resolved=entry.resolved - 1))
    ignored(folder)


def test_the_code_fingerprint_covers_every_source_file(tmp_path: Path) -> None:
    """Every .py file under the package, at any depth, by size and modification time (not compiled files)."""
    import pbem

    root = Path(pbem.__file__).parent
    listed = {line.rsplit(":", 2)[0] for line in statecache._sources(str(root))}
    assert listed == {str(path.relative_to(root)) for path in root.rglob("*.py")}
    package = tmp_path / "pkg"
    (package / "deep" / "__pycache__").mkdir(parents=True)
    (package / "deep" / "rules.py").write_text("X = 1\n")
    (package / "deep" / "__pycache__" / "rules.cpython-311.pyc").write_bytes(b"compiled")
    before = statecache._sources(str(package))
    assert [line.rsplit(":", 2)[0] for line in before] == [os.path.join("deep", "rules.py")]
    (package / "deep" / "rules.py").write_text("X = 2\n")  # same size: its modification time shows
    os.utime(package / "deep" / "rules.py", ns=(0, 1))
    assert statecache._sources(str(package)) != before


def test_the_cli_notices_a_file_tampered_after_the_cache_recorded_it(tmp_path: Path) -> None:
    """End to end: status resumes from the cache, and a file changed in place after it was written (same
    size, at once) still gives replay's one-line error and leaves the folder as it was."""
    folder = game_copy(tmp_path, "tauris-game")
    env = dict(os.environ, PBEM_KEYS=str(tmp_path / "no-keys"))

    def pbem(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", "from pbem.cli.app import main; main()", *args, str(folder)],
                              capture_output=True, text=True, env=env, timeout=300)

    first = pbem("status")
    assert first.returncode == 0, first.stderr
    assert pbem("status").stdout == first.stdout  # from the cache
    path = folders.game_files(folder)[61]
    data = bytearray(path.read_bytes())
    data[-10] = ord("A") if data[-10] != ord("A") else ord("B")
    with path.open("r+b") as handle:
        handle.write(bytes(data))
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    status, verify = pbem("status"), pbem("verify")
    assert status.returncode == verify.returncode != 0
    assert status.stderr == verify.stderr and len(status.stderr.splitlines()) == 1 and "000061.pbem" in status.stderr
    assert "Traceback" not in status.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before


# ----- the secret that authenticates each entry (issue 22: a planted cache vouched for a forged file) -----


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh $XDG_STATE_HOME, as for another user, for this test only."""
    home = tmp_path / "state"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    monkeypatch.setattr(statecache, "_secrets", {})
    return home


def test_the_secret_is_owner_only_made_once_and_kept(state_home: Path) -> None:
    assert statecache.secret(create=False) is None  # none yet, and reading makes none
    assert not state_home.exists()
    made = statecache.secret(create=True)
    assert made is not None and len(made) == statecache.SECRET_BYTES
    path = state_home / "pbem" / statecache.SECRET_NAME
    assert path.stat().st_mode & 0o777 == 0o600 and (state_home / "pbem").stat().st_mode & 0o777 == 0o700
    assert sorted(p.name for p in path.parent.iterdir()) == [statecache.SECRET_NAME]  # no temporary left
    statecache._secrets.clear()
    assert statecache.secret(create=True) == made == path.read_bytes()


def test_processes_making_the_secret_at_once_agree_on_one(state_home: Path) -> None:
    code = "from pbem.game import statecache; print(statecache.secret(create=True).hex())"
    env = dict(os.environ, XDG_STATE_HOME=str(state_home))
    runs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env) for _ in range(6)]
    answers = {run.communicate(timeout=120)[0].strip() for run in runs}
    assert answers == {(state_home / "pbem" / statecache.SECRET_NAME).read_bytes().hex()}


@pytest.mark.parametrize("how", ["readable by others", "a link", "folder writable by others", "wrong length"])
def test_a_secret_others_could_know_or_change_is_not_used(tmp_path: Path, state_home: Path, how: str) -> None:
    """Then no cache is read or written (every command replays), rather than one others could forge."""
    folder = game_copy(tmp_path, "tauris-game", 40)
    assert statecache.secret(create=True) is not None
    path = state_home / "pbem" / statecache.SECRET_NAME
    if how == "readable by others":
        os.chmod(path, 0o644)
    elif how == "a link":
        os.replace(path, tmp_path / "elsewhere.key")
        path.symlink_to(tmp_path / "elsewhere.key")
    elif how == "folder writable by others":
        os.chmod(path.parent, 0o777)
    else:
        path.write_bytes(path.read_bytes()[:-1])
    statecache._secrets.clear()
    assert statecache.secret(create=True) is None
    cached_load(folder)
    assert not statecache.path_of(folder).exists()


def test_a_cache_sealed_under_another_users_secret_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              state_home: Path) -> None:
    """Copied from a shared folder, or planted: well formed, for these very files, but not this user's."""
    folder = game_copy(tmp_path, "tauris-game")
    cached_load(folder)
    assert entry_of(folder) is not None
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "another-user"))
    statecache._secrets.clear()
    assert statecache.read(folder) is None
    ignored(folder)


def test_with_no_secret_to_be_had_commands_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocked))  # no folder can be made there
    monkeypatch.setattr(statecache, "_secrets", {})
    folder = game_copy(tmp_path, "tauris-game", 40)
    game = cached_load(folder)
    assert game.tip is None and not statecache.path_of(folder).exists()
    same_answer(game, replayed(folder))
