"""A whole game played through the `pbem` command, as two users would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "duel-game"


def pbem(*args: str, keys: Path | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if keys is not None:
        env["PBEM_KEYS"] = str(keys)
    return subprocess.run(
        [sys.executable, "-c", "from pbem.cli.app import main; main()", *args],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=120,
    )


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def fails(result: subprocess.CompletedProcess[str], code: int, text: str) -> None:
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: "), result.stderr
    assert text in lines[0]
    assert "Traceback" not in result.stdout + result.stderr


def snapshot(folder: Path) -> dict[str, bytes]:
    """The game files. Not report/ (each player's previews are his own) nor the hidden state
    cache (.pbem-state), which a successful read-only command may write; the protocol tests
    check that a failed command leaves even those alone."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith(".")}


def test_two_players_play_a_whole_game_by_files(tmp_path: Path) -> None:
    alice_keys, bob_keys = tmp_path / "ak", tmp_path / "bk"
    out = ok(pbem("keygen", "alice", keys=alice_keys))
    assert "fingerprint:" in out
    assert oct((alice_keys / "alice.key").stat().st_mode & 0o777) == "0o600"
    ok(pbem("keygen", "bob", keys=bob_keys))
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    ok(pbem("new", "quick", "--side", "Red", "--name", "Alice", "--out", str(alice), "--chain-length", "200", keys=alice_keys))
    # The invitation travels armored, quoted and re-wrapped, as in a reply email.
    armored = ok(pbem("armor", str(alice / "000000.pbem")))
    quoted = "\n".join("> " + line for line in armored.splitlines())
    (tmp_path / "mail.txt").write_text("Hi Bob, my invitation:\n" + quoted + "\n")
    accepted = ok(pbem("accept", str(tmp_path / "mail.txt"), "--name", "Bob", "--out", str(bob), "--chain-length", "200", keys=bob_keys))
    assert "compare it with the host" in accepted
    players = {"alice": (alice, alice_keys), "bob": (bob, bob_keys)}

    def deliver(sender: str, receiver: str) -> None:
        """Send the sender's newest file; if the receiver's tool acknowledged, send that back."""
        newest = sorted(players[sender][0].glob("*.pbem"))[-1]
        received = ok(pbem("receive", str(players[receiver][0]), str(newest), keys=players[receiver][1]))
        assert "added" in received
        if "wrote" in received:
            deliver(receiver, sender)

    deliver("bob", "alice")
    for _ in range(300):
        statuses = {name: ok(pbem("status", str(folder), keys=keys)) for name, (folder, keys) in players.items()}
        if all("game over" in text for text in statuses.values()):
            break
        mover = next(name for name, text in statuses.items() if "your decision" in text)
        folder, keys = players[mover]
        legal = [line.strip() for line in ok(pbem("legal", str(folder), keys=keys)).splitlines()[1:]]
        order = "lunge" if "lunge" in legal else legal[-1]
        ok(pbem("move", str(folder), order, "--note", "have at you", keys=keys))
        deliver(mover, "bob" if mover == "alice" else "alice")
    else:
        pytest.fail("the game did not end")
    verdict_a = ok(pbem("verify", str(alice)))
    verdict_b = ok(pbem("verify", str(bob)))
    assert "finished:" in verdict_a and verdict_a.split(";")[-1] == verdict_b.split(";")[-1]
    assert snapshot(alice) == snapshot(bob)
    assert sorted(alice.glob("report/file-*.html")) and sorted(bob.glob("report/file-*.html"))


def test_example_game_verifies() -> None:
    out = ok(pbem("verify", str(EXAMPLE)))
    assert out.startswith("ok: game ") and "finished" in out


def test_tampered_example_is_rejected_naming_the_file(tmp_path: Path) -> None:
    copy = tmp_path / "game"
    shutil.copytree(EXAMPLE, copy)
    target = copy / "000010.pbem"
    data = bytearray(target.read_bytes())
    data[30] ^= 0x01
    target.write_bytes(bytes(data))
    result = pbem("verify", str(copy))
    assert result.returncode != 0
    assert "000010.pbem" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "args, code, text",
    [
        (("verify", "/nonexistent/game"), 3, "no such game folder"),
        (("receive", str(EXAMPLE), "/nonexistent/file.pbem"), 3, "no such file"),
        (("keygen", "bad name!"), 2, "key name"),
        (("new", "nosuchscenario", "--side", "Red", "--out", "/tmp/x"), 2, "key"),
        (("status", str(EXAMPLE), "--key", "nobody"), 13, "no key 'nobody'"),
        (("frobnicate",), 2, "No such command"),
    ],
)
def test_bad_input_is_one_line_and_a_documented_exit_code(tmp_path: Path, args: tuple[str, ...], code: int, text: str) -> None:
    fails(pbem(*args, keys=tmp_path / "keys"), code, text)


def test_move_when_it_is_not_your_turn_changes_nothing(tmp_path: Path) -> None:
    keys = tmp_path / "k"
    ok(pbem("keygen", "alice", keys=keys))
    folder = tmp_path / "g"
    ok(pbem("new", "duel", "--side", "Blue", "--out", str(folder), keys=keys))
    before = snapshot(folder)
    fails(pbem("move", str(folder), "strike", keys=keys), 9, "not your turn")
    assert snapshot(folder) == before


def test_history_tells_every_file_and_its_dice(tmp_path: Path) -> None:
    game = tmp_path / "duel"
    shutil.copytree(EXAMPLE, game)
    ok(pbem("status", str(game)))  # writes the state cache: history must replay all the same (it keeps no events)
    assert (game / ".pbem-state").exists()
    text = ok(pbem("history", str(game)))
    files = len(list(EXAMPLE.glob("*.pbem")))
    assert text.count("\nfile ") + text.startswith("file ") == files
    assert "dice (keyed by file 2's reveal)" in text
    assert text.rstrip().splitlines()[-1].startswith("game over: ")


def test_new_finds_the_ruleset_from_the_scenario(tmp_path: Path) -> None:
    keys = tmp_path / "k"
    ok(pbem("keygen", "alice", keys=keys))
    made = ok(pbem("new", "tauris", "--side", "caesarians", "--out", str(tmp_path / "wg"), keys=keys))
    assert "war-galley tauris" in made
    made = ok(pbem("new", "quick", "--side", "Red", "--out", str(tmp_path / "duel"), keys=keys))
    assert "duel quick" in made
    fails(pbem("new", "no-such-battle", "--side", "x", "--out", str(tmp_path / "x"), keys=keys), 14, "no installed ruleset")
    assert not (tmp_path / "x").exists()


def test_a_scenario_file_no_ruleset_reads_says_why_each_refused_it(tmp_path: Path) -> None:
    keys = tmp_path / "k"
    ok(pbem("keygen", "alice", keys=keys))
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nname = "x"\n')
    found = pbem("new", str(bad), "--side", "x", "--out", str(tmp_path / "x"), keys=keys)
    fails(found, 14, "no installed ruleset reads this scenario file")
    assert "war-galley: " in found.stderr and "unknown field `scenario`" in found.stderr
    named = pbem("new", str(bad), "--ruleset", "war-galley", "--side", "x", "--out", str(tmp_path / "x"), keys=keys)
    fails(named, 2, "unknown field `scenario`")
    assert named.stderr.count(str(bad)) == 1, named.stderr  # the file is named once
    assert not (tmp_path / "x").exists()


def test_own_rules_data_is_pinned_and_shown_to_both_players(tmp_path: Path) -> None:
    own = tmp_path / "house-rules"
    own.mkdir()
    for name in ("charts.toml", "counters.toml", "commanders.toml"):
        text = (Path(__file__).resolve().parents[2] / "scenarios" / "war_galley" / name).read_text()
        (own / name).write_text("# our house copy\n" + text if name == "charts.toml" else text)
    bundle = subprocess.run([sys.executable, "-m", "engine.war_galley.map_and_galleys.rulesdata", str(own)], capture_output=True, check=True).stdout
    (tmp_path / "house.json").write_bytes(bundle)
    ak, bk = tmp_path / "ak", tmp_path / "bk"
    ok(pbem("keygen", "alice", keys=ak))
    ok(pbem("keygen", "bob", keys=bk))
    host = ok(pbem("new", "tauris", "--side", "caesarians", "--rules-data", str(tmp_path / "house.json"), "--out", str(tmp_path / "a"), keys=ak))
    guest = ok(pbem("accept", str(tmp_path / "a" / "000000.pbem"), "--out", str(tmp_path / "b"), keys=bk))
    for said in (host, guest):
        assert "THIS GAME'S OWN, not the built-in" in said
    assert ok(pbem("verify", str(tmp_path / "b"))).startswith("ok: game")
