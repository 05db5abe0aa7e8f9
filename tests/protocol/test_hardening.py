"""Attacks around the cryptographic core (issue 10), each tried for real and refused.

Terminal injection, a rigged scenario that looks built in, framing with a
re-used game id, weak public keys, concurrent writers, unbounded input,
hostile decisions that crashed the referee, and `accept` with a bad option.
Each test failed on the code before the fix (docs/security.md, property 9).
"""

from __future__ import annotations

import base64
import os
import pty
import resource
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pbem.signed import canonical
from pbem.signed import edwards
from pbem.signed import identity as ids
from pbem.game import lock
from pbem.signed import movefile
from pbem.game import referee
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.game import ruleset as rulesets
from pbem.errors import (
    BrokenChain,
    FolderLocked,
    IllegalDecision,
    KeyProblem,
    MalformedFile,
    RulesetFailure,
    RulesetProblem,
)
from pbem.signed.movefile import author_of, file_name

from .conftest import Kit, Recorded
from .test_attacks import assert_clean_failure, equivocating_file

ESCAPES = "\x1b[?7l\x1b[999C"  # autowrap off, cursor far right: the fingerprint after it falls off the screen
OSC52 = "\x1b]52;c;cm0gLXJmIH4K\x07"  # write the clipboard
CLEAR = "\x1b[2J\x1b[H"


def _argv() -> list[str]:
    command = shutil.which("pbem")
    return [command] if command else [sys.executable, "-c", "from pbem.cli.app import main; main()"]


def _env(keys: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, PBEM_KEYS=str(keys), **extra)
    env.pop("PBEM_KEY", None)
    return env


def run_bytes(*args: str, keys: Path, stdin: Any = None, **extra: str) -> subprocess.CompletedProcess[bytes]:
    """The real command through a pipe, its output as raw bytes."""
    return subprocess.run([*_argv(), *args], capture_output=True, env=_env(keys, **extra), stdin=stdin, timeout=120)


def run_on_terminal(*args: str, keys: Path) -> tuple[int, bytes]:
    """The real command on a pseudo-terminal (stdout and stderr both), its raw bytes."""
    main, secondary = pty.openpty()
    process = subprocess.Popen([*_argv(), *args], stdout=secondary, stderr=secondary, stdin=subprocess.DEVNULL, env=_env(keys))
    os.close(secondary)
    chunks = []
    while True:
        ready, _, _ = select.select([main], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(main, 65536)
        except OSError:  # EIO: the terminal's other end is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    return process.wait(timeout=60), b"".join(chunks)


# ----- terminal injection ---------------------------------------------------------------


@pytest.mark.parametrize("bad", [ESCAPES, "\x07", "\x7f", "\x9b2J", "\u202eevil", "\u2066x\u2069", "two\nlines", "a\u2028b", " "])
def test_a_player_name_with_controls_or_bidi_overrides_is_malformed(kit: Kit, recorded: Recorded, tmp_path: Path, bad: str) -> None:
    for k, role in ((0, "host"), (1, "guest")):
        body = dict(recorded.bodies[k])
        body[role] = dict(body[role], name="Mallory" + bad if bad.strip() else bad)
        raw = kit.resign(body, recorded.identity(role))
        message = kit.attack(tmp_path / f"{role}", k, raw, MalformedFile)
        assert "\x1b" not in message and "visible text" in message


def _escaped_invitation(kit: Kit, recorded: Recorded, tmp_path: Path) -> tuple[Path, Path]:
    """A host-signed invitation whose host name carries ANSI escapes, and a guest key folder."""
    body = dict(recorded.bodies[0])
    body["host"] = dict(body["host"], name="Mallory" + ESCAPES)
    invitation = tmp_path / "invite.pbem"
    invitation.write_bytes(kit.resign(body, recorded.host))
    keys = tmp_path / "guest-keys"
    ids.generate("guest", keys)
    return invitation, keys


def test_accept_of_a_host_name_with_escapes_shows_them_and_the_real_fingerprint(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    invitation, keys = _escaped_invitation(kit, recorded, tmp_path)
    real = ids.fingerprint(recorded.host.public_b64).encode()
    piped = run_bytes("accept", str(invitation), "--out", str(tmp_path / "piped"), keys=keys)
    code, shown = run_on_terminal("accept", str(invitation), "--out", str(tmp_path / "tty"), keys=keys)
    for rc, output in ((piped.returncode, piped.stdout + piped.stderr), (code, shown)):
        assert rc == MalformedFile.exit_code, output
        assert b"\x1b" not in output  # not one ESC byte reaches the screen
        assert b"Mallory\\x1b[?7l\\x1b[999C" in output  # the escapes, as visible text
        assert real in output  # and the real fingerprint, on the same line
    assert not (tmp_path / "piped").exists() and not (tmp_path / "tty").exists()


def test_history_of_a_note_with_escapes_prints_no_esc_byte(kit: Kit, recorded: Recorded, game_dir: Path) -> None:
    last = len(recorded.raws) - 1
    note = f"{CLEAR}game over: you lost{OSC52}\x9b2J\u202e.gnp\nfake line"
    (game_dir / file_name(last)).write_bytes(kit.changed(last, note=note))
    piped = run_bytes("history", str(game_dir), keys=recorded.keys)
    code, shown = run_on_terminal("history", str(game_dir), keys=recorded.keys)
    for rc, output in ((piped.returncode, piped.stdout), (code, shown)):
        assert rc == 0, output
        assert b"\x1b" not in output and b"\x07" not in output and "\x9b".encode() not in output
        assert "\u202e".encode() not in output
        assert b"note: \\x1b[2J\\x1b[Hgame over: you lost\\x1b]52;c;cm0gLXJmIH4K\\x07\\x9b2J\\u202e.gnp\\x0afake line" in output
    assert not any(line.startswith(b"fake line") for line in piped.stdout.splitlines())


def test_new_and_accept_refuse_a_name_that_is_not_one_visible_line(tmp_path: Path, pbem) -> None:
    keys = tmp_path / "keys"
    ids.generate("alice", keys)
    run = pbem("new", "duel", "--side", "Red", "--out", str(tmp_path / "g"), "--name", "Al\x1b[2Jice", keys=keys)
    assert_clean_failure(run, type("Usage", (), {"exit_code": 2}))  # type: ignore[arg-type]
    assert "\\x1b" in run.stderr and "\x1b" not in run.stderr
    assert not (tmp_path / "g").exists()


# ----- a rigged scenario ------------------------------------------------------------------


def test_accept_and_status_name_a_modified_builtin_scenario_and_what_differs(tmp_path: Path, pbem) -> None:
    war_galley = rulesets.find("war-galley")
    real = war_galley.builtin_scenario("tauris")
    assert real is not None and b'side = "caesarians", vp = 35' in real
    rigged = tmp_path / "tauris.toml"
    rigged.write_bytes(real.replace(b'side = "caesarians", vp = 35', b'side = "caesarians", vp = 5'))
    ak, bk = tmp_path / "ak", tmp_path / "bk"
    ids.generate("alice", ak)
    ids.generate("bob", bk)
    host = pbem("new", str(rigged), "--side", "caesarians", "--out", str(tmp_path / "a"), keys=ak)
    guest = pbem("accept", str(tmp_path / "a" / file_name(0)), "--out", str(tmp_path / "b"), keys=bk)
    status = pbem("status", str(tmp_path / "b"), keys=bk)
    for run in (host, guest, status):
        assert run.code == 0, run
        assert "scenario tauris: MODIFIED, NOT the built-in tauris" in run.stdout
        assert '-sides = [{ side = "pompeians", vp = 30 }, { side = "caesarians", vp = 35 }]' in run.stdout
        assert '+sides = [{ side = "pompeians", vp = 30 }, { side = "caesarians", vp = 5 }]' in run.stdout
        assert "game options: none" in run.stdout and "reveal chains: host 100000 files" in run.stdout
    for run in (guest, status):
        assert "war-galley tauris (MODIFIED" in run.stdout
    # The genuine battle says so too, and shows no diff.
    plain = pbem("new", "tauris", "--side", "caesarians", "--out", str(tmp_path / "c"), keys=ak)
    assert "scenario tauris: built in" in plain.stdout and "MODIFIED" not in plain.stdout


def test_a_long_difference_is_bounded(tmp_path: Path) -> None:
    from pbem.reports import provenance

    builtin = "".join(f"line {i}\n" for i in range(500)).encode()
    changed = "".join(f"LINE {i}\x1b\n" for i in range(500)).encode()
    lines = provenance.data_lines("scenario", "x", changed, builtin)
    assert len(lines) <= provenance.MAX_DIFF_LINES + 2 and "more diff lines" in lines[-1]
    assert not any("\x1b" in line for line in lines)


# ----- framing with a re-used game id -----------------------------------------------------


def test_a_reused_game_id_cannot_frame_the_guest(kit: Kit, recorded: Recorded, game_dir: Path, tmp_path: Path, pbem) -> None:
    """The host invites the guest again under the old game's id; the guest's honest file 1 of
    the new game is not a second file 1 of the old one."""
    duel = rulesets.find("duel")
    invite = writing.make_invite(recorded.host, "Alice", duel, "duel", "Red", {}, chain_length=16, game_id=recorded.game_id)
    new_game = referee.replay([invite.raw], ["new invite"])
    acceptance = writing.make_accept(new_game, recorded.guest, "Bob", 16)
    assert acceptance.body.game == recorded.game_id and acceptance.body.seq == 1
    old = store.load(game_dir)
    proven, why = referee.equivocation(old, acceptance, "new file 1")
    assert not proven and "same history" in why
    against = tmp_path / "file1.pbem"
    against.write_bytes(acceptance.raw)
    run = pbem("verify", str(game_dir), "--against", str(against))
    assert run.code == 0 and "equivocation not proven" in run.stdout and "EQUIVOCATION" not in run.stdout, run
    kit.rejects(game_dir, acceptance.raw, BrokenChain)
    # A later file of the new game is no proof either, nor is a second invitation.
    assert not referee.equivocation(old, invite, "new invite")[0]
    # A real equivocation (same game, seq and prev) still is one.
    k = recorded.rolling()[3]
    proven, proof = referee.equivocation(old, equivocating_file(recorded, k), "second")
    assert proven and f"both following file {k - 1}" in proof


# ----- weak public keys -------------------------------------------------------------------

IDENTITY_KEY = "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
FORGED_SIGNATURE = bytes([1]) + bytes(31) + bytes(32)  # R = the identity point, S = 0


def _small_order_keys() -> list[str]:
    hexes = [
        "0100000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000000",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    ]
    return [base64.b64encode(bytes.fromhex(h)).decode() for h in hexes]


def test_a_small_order_key_is_refused_at_set_up(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """With the identity as his key, 'his' signature R = identity, S = 0 verifies over any bytes:
    anyone could write his files. The acceptance is refused, forged signature and all."""
    body = dict(recorded.bodies[1])
    body["guest"] = dict(body["guest"], key=IDENTITY_KEY)
    body_bytes = canonical.encode(body)
    forged = body_bytes + b"\n" + base64.b64encode(FORGED_SIGNATURE) + b"\n"
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    Ed25519PublicKey.from_public_bytes(base64.b64decode(IDENTITY_KEY)).verify(FORGED_SIGNATURE, b"any bytes at all")
    kit.attack(tmp_path / "guest", 1, forged, KeyProblem)
    host = dict(recorded.bodies[0])
    host["host"] = dict(host["host"], key=IDENTITY_KEY)
    forged0 = canonical.encode(host) + b"\n" + base64.b64encode(FORGED_SIGNATURE) + b"\n"
    kit.attack(tmp_path / "host", 0, forged0, KeyProblem)


@pytest.mark.parametrize("key", _small_order_keys())
def test_every_small_order_key_is_refused(key: str) -> None:
    with pytest.raises(KeyProblem, match="small order"):
        ids.check_public(key, "key")


def test_a_non_canonical_base64_spelling_of_a_real_key_is_refused(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """One key, two strings: 'a different key' to string comparisons, the same key to the signature check."""
    real = recorded.guest.public_b64
    raw = base64.b64decode(real)
    last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".index(real[-2])
    respelled = real[:-2] + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[last ^ 1] + "="
    assert respelled != real and base64.b64decode(respelled) == raw
    body = dict(recorded.bodies[1])
    body["guest"] = dict(body["guest"], key=respelled)
    kit.attack(tmp_path, 1, kit.resign(body, recorded.guest), KeyProblem)


def test_non_canonical_and_mixed_order_points_are_refused() -> None:
    p_plus_1 = bytes.fromhex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")  # y = p + 1 spells y = 1
    with pytest.raises(KeyProblem, match="canonical"):
        ids.check_public(base64.b64encode(p_plus_1).decode(), "key")
    strong = edwards.decode(base64.b64decode(ids.generate("x", Path(os.environ.get("TMPDIR", "/tmp")) / f"k{os.getpid()}-{time.time_ns()}").public_b64))
    torsion = edwards.decode(bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"))
    assert strong is not None and torsion is not None
    x, y, z, _ = edwards._add(strong, torsion)
    inverse = pow(z, -1, edwards.P)
    x, y = x * inverse % edwards.P, y * inverse % edwards.P
    mixed = (y | ((x & 1) << 255)).to_bytes(32, "little")
    with pytest.raises(KeyProblem, match="prime-order"):
        ids.check_public(base64.b64encode(mixed).decode(), "key")


def test_generated_keys_are_strong(tmp_path: Path) -> None:
    for n in range(20):
        ids.check_public(ids.generate(f"k{n}", tmp_path).public_b64, "key")


# ----- concurrent commands ----------------------------------------------------------------


def test_a_receive_while_another_command_holds_the_folder_is_refused_naming_it(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = len(recorded.raws) - 1
    folder = kit.copy(tmp_path / "game", k)
    incoming = tmp_path / "in.pbem"
    incoming.write_bytes(recorded.raws[k])
    before = kit.snapshot(folder)
    with lock.hold(folder, "pbem move (the test)"):
        run = run_bytes("receive", str(folder), str(incoming), "--no-reply", keys=recorded.keys, PBEM_LOCK_WAIT="0")
    assert run.returncode == FolderLocked.exit_code, run
    assert f"pid {os.getpid()} (pbem move (the test))".encode() in run.stderr and len(run.stderr.splitlines()) == 1
    assert kit.snapshot(folder) == before
    done = run_bytes("receive", str(folder), str(incoming), "--no-reply", keys=recorded.keys)
    assert done.returncode == 0 and (folder / file_name(k)).read_bytes() == recorded.raws[k]
    assert not (folder / lock.HOLDER_FILE).exists()


@pytest.mark.parametrize("round_", range(3))
def test_two_concurrent_receives_of_two_versions_never_both_succeed(kit: Kit, recorded: Recorded, tmp_path: Path, round_: int) -> None:
    k = recorded.rolling()[3]
    folder = kit.copy(tmp_path / "game", k)
    first, second = tmp_path / "first.pbem", tmp_path / "second.pbem"
    first.write_bytes(recorded.raws[k])
    second.write_bytes(equivocating_file(recorded, k).raw)
    runs = [
        subprocess.Popen([*_argv(), "receive", str(folder), str(path), "--no-reply"], env=_env(recorded.keys),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for path in (first, second)
    ]
    codes = [r.wait(timeout=120) for r in runs]
    assert sorted(codes) in ([0, 10], [0, 16]), [(r.stdout.read(), r.stderr.read()) for r in runs]  # type: ignore[union-attr]
    winner = (first, second)[codes.index(0)]
    assert (folder / file_name(k)).read_bytes() == winner.read_bytes()
    # the game's files and nothing else, but the local state cache a successful command leaves (pbem.game.statecache)
    # besides the game files: the state cache and the turn reports, which the protocol never reads
    assert sorted(p.name for p in folder.iterdir() if p.name not in (".pbem-state", "report")) == [
        file_name(i) for i in range(k + 1)
    ]


# ----- unbounded input --------------------------------------------------------------------


def _memory_cap() -> None:  # so that the old code's MemoryError comes fast, not after swapping
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


@pytest.mark.parametrize("how", ["path", "stdin"])
def test_receive_of_dev_zero_is_a_one_line_error_at_once(game_dir: Path, recorded: Recorded, how: str) -> None:
    before = Kit.snapshot(game_dir)
    args = [*_argv(), "receive", str(game_dir), "/dev/zero" if how == "path" else "-"]
    started = time.monotonic()
    with open("/dev/zero", "rb") as zero:
        run = subprocess.run(args, capture_output=True, env=_env(recorded.keys), timeout=60, preexec_fn=_memory_cap,
                             stdin=zero if how == "stdin" else subprocess.DEVNULL)
    elapsed = time.monotonic() - started
    assert run.returncode == MalformedFile.exit_code, run
    lines = run.stderr.decode().splitlines()
    assert len(lines) == 1 and "more than" in lines[0] and "bytes" in lines[0]
    assert elapsed < 10, elapsed  # about half a second, most of it Python starting; the old code ran out of memory
    assert Kit.snapshot(game_dir) == before


def test_a_game_file_replaced_by_an_endless_device_is_malformed(recorded: Recorded, game_dir: Path) -> None:
    last = game_dir / file_name(len(recorded.raws) - 1)
    last.unlink()
    last.symlink_to("/dev/zero")
    with pytest.raises(MalformedFile, match="is a device, not a regular file"):  # refused before any read
        store.load(game_dir)


# ----- hostile decisions ------------------------------------------------------------------


def _war_galley_game(tmp_path: Path) -> tuple[Path, Path, Any, Any]:
    """A Tauris game just accepted, in a folder; the host plays the side that decides first."""
    keys = tmp_path / "keys"
    host, guest = ids.generate("alice", keys), ids.generate("bob", keys)
    war_galley = rulesets.find("war-galley")
    for side in war_galley.sides(war_galley.builtin_scenario("tauris") or b"", war_galley.default_rules_data()):
        folder = tmp_path / f"game-{side}"
        invite = writing.make_invite(host, "Alice", war_galley, "tauris", side, {}, chain_length=64)
        game = referee.replay([invite.raw], [str(folder / file_name(0))])
        accept = writing.make_accept(game, guest, "Bob", 64)
        referee.admit(game, accept, str(folder / file_name(1)))
        view = writing.outlook(game, host)
        if view.pending.side == side:
            Kit.lay_out(folder, [invite.raw, accept.raw])
            return folder, keys, game, host
    raise AssertionError("neither side decides first")


def _signed_move(game: Any, me: Any, decisions: list[Any]) -> bytes:
    """The next file with these decisions, signed, with the true reveal, dice and state: only the decisions lie."""
    view = writing.outlook(game, me)
    body = movefile.Move(
        pbem=movefile.FORMAT_VERSION, game=game.game_id, seq=game.next_seq, prev=game.files[-1].hash_hex,
        author=view.role, time=writing.now(), reveal=view.reveal.hex(), rolls=view.resolution.rolls,
        state=referee.sha256_hex(game.ruleset.state_bytes(view.resolution.state)), decisions=decisions, note="",
    )
    return movefile.sign(body, me).raw


def _unknown_galley(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"colour", "type", "number"}:
        return dict(value, number=99)
    if isinstance(value, dict):
        return {k: _unknown_galley(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unknown_galley(v) for v in value]
    return value


def test_a_signed_decision_for_a_galley_not_in_the_battle_is_illegal_not_a_crash(tmp_path: Path) -> None:
    folder, keys, game, host = _war_galley_game(tmp_path)
    view = writing.outlook(game, host)
    legal = game.ruleset.legal(view.resolution.state)
    hostile = next(_unknown_galley(d) for d in legal if _unknown_galley(d) != d)
    raw = _signed_move(game, host, [hostile])
    path = folder / file_name(2)
    path.write_bytes(raw)
    run = run_bytes("verify", str(folder), keys=tmp_path / "nobody")  # a third party's audit
    assert run.returncode == IllegalDecision.exit_code, run
    assert str(path).encode() in run.stderr and b"no galley" in run.stderr and b"99 in this battle" in run.stderr
    path.unlink()
    incoming = tmp_path / "in.pbem"
    incoming.write_bytes(raw)
    run = run_bytes("receive", str(folder), str(incoming), keys=tmp_path / "nobody")
    assert run.returncode == IllegalDecision.exit_code and b"in.pbem" in run.stderr, run
    assert not path.exists()


class _Buggy:
    """The duel ruleset with a bug: a 'crash' decision raises a plain KeyError."""

    def __init__(self) -> None:
        self._duel = rulesets.find("duel")
        self.name, self.version = "buggy-duel", self._duel.version
        self.illegal_errors = self._duel.illegal_errors

    def __getattr__(self, name: str) -> Any:
        return getattr(self._duel, name)

    def apply(self, state: Any, decision: Any, dice: Any) -> Any:
        if decision == {"action": "crash"}:
            raise KeyError("the bug")
        return self._duel.apply(state, decision, dice)


def test_any_other_exception_from_a_ruleset_is_a_named_ruleset_failure(recorded: Recorded, tmp_path: Path) -> None:
    buggy = _Buggy()
    rulesets.register(buggy)  # type: ignore[arg-type]
    invite = writing.make_invite(recorded.host, "Alice", buggy, "duel", "Red", {}, chain_length=16)  # type: ignore[arg-type]
    game = referee.replay([invite.raw], ["0"])
    accept = writing.make_accept(game, recorded.guest, "Bob", 16)
    referee.admit(game, accept, "1")
    raws = [invite.raw, accept.raw]
    # File 2 is the host's whoever moves first (the dice decide that); when the
    # guest's side is pending, the host's file 2 carries no decision and the
    # guest's file 3 carries the crash.
    me = recorded.host
    if writing.outlook(game, recorded.host).pending.side != "Red":
        passing = writing.make_move(game, recorded.host, [])
        referee.admit(game, passing, "2")
        raws.append(passing.raw)
        me = recorded.guest
    folder = Kit.lay_out(tmp_path / "game", raws)
    crash = folder / file_name(len(raws))
    crash.write_bytes(_signed_move(game, me, [{"action": "crash"}]))
    with pytest.raises(RulesetFailure) as info:
        store.load(folder)
    message = str(info.value)
    assert str(crash) in message and "KeyError" in message and "bug in the ruleset" in message
    assert RulesetFailure.exit_code == 14 and isinstance(info.value, RulesetProblem)


# ----- accept with a bad option ---------------------------------------------------------------


def test_accept_of_an_invitation_with_a_bad_option_writes_nothing(tmp_path: Path, pbem) -> None:
    keys = tmp_path / "keys"
    host, guest = ids.generate("alice", keys), ids.generate("bob", tmp_path / "bk")
    war_galley = rulesets.find("war-galley")
    good = writing.make_invite(host, "Alice", war_galley, "tauris", "caesarians", {})
    body = canonical.decode(good.body_bytes, "invite")
    body["options"] = {"no-such-option": 1}
    bad = Kit.sign_bytes(canonical.encode(body), host)
    invitation = tmp_path / "invite.pbem"
    invitation.write_bytes(bad)
    run = pbem("accept", str(invitation), "--out", str(tmp_path / "b"), keys=tmp_path / "bk")
    assert_clean_failure(run, RulesetProblem)
    assert "no-such-option" in run.stderr
    assert not (tmp_path / "b").exists() or not any((tmp_path / "b").iterdir())
    with pytest.raises(RulesetProblem):  # and the invitation alone already fails verify
        referee.replay([bad], ["invite"])
    new = pbem("new", "tauris", "--side", "caesarians", "--option", "no-such-option=1", "--out", str(tmp_path / "c"), keys=keys)
    assert new.code == 2 and not (tmp_path / "c").exists(), new
