"""The game folder and the keys: property 2 at the level of whole files, and 8.

Dropping, reordering, duplicating or inserting files is caught naming the
first bad place; receiving is idempotent and all or nothing; a failed write
leaves the folder as it was; private keys stay private and out of games.
"""

from __future__ import annotations

import base64
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pbem.exchange import intake
from pbem.exchange import armor
from pbem.signed import chain
from pbem.game import folder as folders
from pbem.signed import identity as ids
from pbem.game import referee
from pbem.game import session
from pbem.game import statecache
from pbem.game import store
from pbem.game import writing
from pbem.errors import (
    BadSignature,
    BrokenChain,
    Equivocation,
    FolderProblem,
    KeyProblem,
    MalformedFile,
    UsageError,
    WrongGame,
)
from pbem.signed.movefile import author_of, file_name

from .conftest import Kit, Recorded


def middle(rec: Recorded) -> int:
    rolling = rec.rolling()
    return rolling[len(rolling) // 2]


def load_error(folder: Path, error: type[Exception], place: int) -> str:
    with pytest.raises(error) as info:
        store.load(folder)
    assert type(info.value) is error
    assert str(folder / file_name(place)) in str(info.value), info.value
    return str(info.value)


# ----- 2. whole files dropped, reordered, duplicated, inserted --------------------------------


@pytest.mark.parametrize("where", ["invite", "accept", "first move", "middle", "second last"])
def test_dropping_a_file_is_broken_chain_naming_the_gap(kit: Kit, recorded: Recorded, game_dir: Path, where: str) -> None:
    k = {"invite": 0, "accept": 1, "first move": 2, "middle": middle(recorded), "second last": len(recorded.raws) - 2}[where]
    (game_dir / file_name(k)).unlink()
    message = load_error(game_dir, BrokenChain, k)
    assert "missing" in message


def test_dropping_a_file_and_renumbering_the_rest_is_broken_chain(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    folder = kit.lay_out(tmp_path / "g", recorded.raws[:k] + recorded.raws[k + 1 :])
    load_error(folder, BrokenChain, k)


def test_dropping_the_last_file_only_rewinds_the_game(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """A limit, not a hole: without its last file a game is simply one step earlier (the
    author of the missing file is shown as the one it waits on), and the next file the
    other side already holds no longer links."""
    n = len(recorded.raws)
    folder = kit.copy(tmp_path / "g", n - 2)
    game = store.load(folder)
    assert not game.finished() and game.next_seq == n - 2 and game.next_author == author_of(n - 2)
    kit.rejects(folder, recorded.raws[n - 1], BrokenChain)
    session.receive(folder, [(recorded.raws[n - 2], "resent")])
    assert store.load(folder).next_seq == n - 1


@pytest.mark.parametrize("where", ["accept", "first move", "middle", "second last"])
def test_swapping_two_files_is_broken_chain_naming_the_first(kit: Kit, recorded: Recorded, tmp_path: Path, where: str) -> None:
    k = {"accept": 1, "first move": 2, "middle": middle(recorded), "second last": len(recorded.raws) - 2}[where]
    raws = list(recorded.raws)
    raws[k], raws[k + 1] = raws[k + 1], raws[k]
    load_error(kit.lay_out(tmp_path / "g", raws), BrokenChain, k)


def test_swapping_two_files_of_the_same_author_is_broken_chain(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    raws = list(recorded.raws)
    raws[k], raws[k + 2] = raws[k + 2], raws[k]
    load_error(kit.lay_out(tmp_path / "g", raws), BrokenChain, k)


@pytest.mark.parametrize("how", ["in place of the next", "inserted after itself", "appended at the end"])
def test_duplicating_a_file_is_broken_chain(kit: Kit, recorded: Recorded, tmp_path: Path, how: str) -> None:
    k = middle(recorded)
    raws = list(recorded.raws)
    if how == "in place of the next":
        raws[k + 1] = raws[k]
        place = k + 1
    elif how == "inserted after itself":
        raws.insert(k + 1, raws[k])
        place = k + 1
    else:  # at the end of the game so far (after the real end, GameOver would speak first)
        raws = raws[: k + 1] + [raws[k]]
        place = k + 1
    load_error(kit.lay_out(tmp_path / "g", raws), BrokenChain, place)


def test_inserting_a_validly_signed_file_is_caught_at_the_file_it_displaces(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """The author writes a second file k and slips it in before the first: file k then
    stands in place k+1, and the chain breaks there (its number and its link)."""
    k = middle(recorded)
    game = referee.replay(recorded.raws[:k], [str(i) for i in range(k)])
    alt = writing.make_move(game, recorded.identity(author_of(k)), recorded.bodies[k]["decisions"], "inserted")
    raws = recorded.raws[:k] + [alt.raw] + recorded.raws[k:]
    load_error(kit.lay_out(tmp_path / "g", raws), BrokenChain, k + 1)


def test_a_gap_after_the_last_file_is_broken_chain(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    folder = kit.copy(tmp_path / "g", k)
    (folder / file_name(k + 1)).write_bytes(recorded.raws[k + 1])
    load_error(folder, BrokenChain, k)
    kit.rejects(folder, recorded.raws[k + 2], BrokenChain)


def test_stray_files_and_crash_leftovers_are_not_part_of_the_game(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """What a crash mid-write leaves (a hidden temporary file) and other names are ignored."""
    k = middle(recorded)
    folder = kit.copy(tmp_path / "g", k)
    half = recorded.raws[k][: len(recorded.raws[k]) // 2]
    (folder / f".{file_name(k)}.abc123.tmp").write_bytes(half)
    (folder / "notes.txt").write_text("my plans")
    (folder / f"{file_name(k)}.orig").write_bytes(half)
    (folder / f"0{file_name(k)}").write_bytes(half)  # seven digits: not a game file name
    assert store.load(folder).next_seq == k
    result = session.receive(folder, [(recorded.raws[k], "incoming")])
    assert result.added == [folder / file_name(k)]
    assert (folder / file_name(k)).read_bytes() == recorded.raws[k]
    assert (folder / f".{file_name(k)}.abc123.tmp").read_bytes() == half


def test_a_folder_that_is_a_file_or_absent(tmp_path: Path) -> None:
    from pbem.errors import MissingFile

    (tmp_path / "file").write_bytes(b"x")
    with pytest.raises(FolderProblem):
        store.load(tmp_path / "file")
    with pytest.raises(MissingFile):
        store.load(tmp_path / "absent")
    (tmp_path / "empty").mkdir()
    with pytest.raises(BrokenChain):
        store.load(tmp_path / "empty")


# ----- 8. receiving: idempotent, ordered, all or nothing ------------------------------------------


def test_receiving_a_file_already_present_is_a_no_op(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    folder = kit.copy(tmp_path / "g", k + 1)
    before = kit.snapshot(folder)
    for raw in (recorded.raws[k], recorded.raws[0], recorded.raws[1]):
        result = session.receive(folder, [(raw, "again")])
        assert result.added == [] and len(result.already) == 1
        assert kit.snapshot(folder) == before


def test_receiving_the_whole_game_again_is_a_no_op(kit: Kit, recorded: Recorded, game_dir: Path) -> None:
    before = kit.snapshot(game_dir)
    result = session.receive(game_dir, [(raw, f"copy {i}") for i, raw in enumerate(recorded.raws)])
    assert result.added == [] and len(result.already) == len(recorded.raws)
    assert kit.snapshot(game_dir) == before


def test_receiving_twice_from_the_cli_is_a_no_op(kit: Kit, recorded: Recorded, tmp_path: Path, pbem,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    if "XDG_STATE_HOME" not in os.environ:  # read the cache with the secret of the commands' own home
        monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "home" / ".local" / "state"))
    k = recorded.acks()[0]  # a file whose receiver must then decide: no acknowledgement is written
    folder = kit.copy(tmp_path / "g", k)
    incoming = tmp_path / "incoming.pbem"
    incoming.write_bytes(recorded.raws[k])
    first = pbem("receive", str(folder), str(incoming), "--no-reply")
    assert first.code == 0 and "added" in first.stdout, first
    after_first = kit.snapshot(folder)
    cached_first = statecache.read(folder)
    second = pbem("receive", str(folder), str(incoming), "--no-reply")
    assert second.code == 0 and "nothing to do" in second.stdout, second
    # The state cache is not the game (docs/security.md, "Caches"): a later command may write it again
    # with the file marks that were too recent to trust the first time (racily clean), but it covers the
    # very same files and state; everything else is byte for byte as the first receive left it.
    after_second = kit.snapshot(folder)
    assert {n: b for n, b in after_second.items() if n != ".pbem-state"} == \
        {n: b for n, b in after_first.items() if n != ".pbem-state"}
    cached_second = statecache.read(folder)
    assert cached_first is not None and cached_second is not None
    assert (cached_second.files, cached_second.state) == (cached_first.files, cached_first.state)
    assert "Traceback" not in first.stderr + second.stderr


def test_a_file_two_ahead_is_broken_chain_and_changes_nothing(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    folder = kit.copy(tmp_path / "g", k)
    message = kit.rejects(folder, recorded.raws[k + 1], BrokenChain)
    assert f"needs file {k} first" in message


def test_a_batch_in_any_order_is_received_in_order(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    folder = kit.copy(tmp_path / "g", k)
    batch = [(recorded.raws[k + 2], "c"), (recorded.raws[k], "a"), (recorded.raws[k + 1], "b")]
    result = session.receive(folder, batch)
    assert result.added == [folder / file_name(k + i) for i in range(3)]
    assert kit.snapshot(folder) == kit.snapshot(kit.copy(tmp_path / "expected", k + 3))


@pytest.mark.parametrize("last", ["third key", "garbage", "other game", "equivocation", "gap"])
def test_a_batch_whose_last_file_is_bad_writes_none_of_them(kit: Kit, recorded: Recorded, tmp_path: Path, last: str) -> None:
    k = middle(recorded)
    folder = kit.copy(tmp_path / "g", k)
    if last == "third key":
        bad, error = kit.sign_bytes(recorded.raws[k + 2].split(b"\n")[0], recorded.third), BadSignature
    elif last == "garbage":
        bad, error = os.urandom(500), MalformedFile
    elif last == "other game":
        bad, error = recorded.other_raws[-1], WrongGame
    elif last == "equivocation":
        game = referee.replay(recorded.raws[: k + 1], [str(i) for i in range(k + 1)])
        alt = writing.make_move(game, recorded.identity(author_of(k + 1)), recorded.bodies[k + 1]["decisions"], "changed my mind")
        assert alt.raw != recorded.raws[k + 1]
        bad, error = alt.raw, Equivocation
    else:
        bad, error = recorded.raws[k + 3], BrokenChain
    batch = [(recorded.raws[k], "a"), (recorded.raws[k + 1], "b")]
    if last in ("third key", "garbage", "other game"):
        batch.append((recorded.raws[k + 2], "c"))
    # "equivocation": a second file k+1; "gap": file k+3 with k+2 missing
    kit_before = kit.snapshot(folder)
    with pytest.raises(error):
        session.receive(folder, batch + [(bad, "last")])
    assert kit.snapshot(folder) == kit_before


def test_an_armored_mail_with_a_damaged_last_block_writes_nothing(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k = middle(recorded)
    folder = kit.copy(tmp_path / "g", k)
    mail = "".join(armor.armor(recorded.raws[k + i]) for i in range(3))
    damaged = mail[: mail.rindex("-----END")] .rstrip("\n")[:-8] + "!!!!\n-----END PBEM FILE-----\n"
    (tmp_path / "mail.txt").write_text(damaged)
    before = kit.snapshot(folder)
    with pytest.raises(MalformedFile):
        session.receive(folder, intake.incoming(tmp_path / "mail.txt"))
    assert kit.snapshot(folder) == before
    (tmp_path / "mail.txt").write_text(mail)
    assert len(session.receive(folder, intake.incoming(tmp_path / "mail.txt")).added) == 3


def test_atomic_write_leaves_no_temporary_file_and_replaces_whole(tmp_path: Path) -> None:
    path = tmp_path / "g" / file_name(0)
    folders.write_atomic(path, b"first version\n")
    folders.write_atomic(path, b"second\n")
    assert path.read_bytes() == b"second\n"
    assert sorted(p.name for p in path.parent.iterdir()) == [file_name(0)]


FULL_DISK = r"""
import resource, signal, sys
from pathlib import Path
from pbem.game import session
from pbem.errors import PbemError
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
incoming = [(Path(p).read_bytes(), p) for p in sys.argv[3:]]
try:
    session.receive(Path(sys.argv[1]), incoming)
except PbemError as exc:
    print(type(exc).__name__)
else:
    print("written")
"""


def _receive_with_a_full_disk(folder: Path, files: list[Path], limit: int) -> str:
    done = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(folder), str(limit), *map(str, files)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout.strip()


def test_a_full_disk_leaves_the_folder_unchanged(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """No mocks: the kernel refuses the write (RLIMIT_FSIZE), as a full disk would."""
    k = middle(recorded)
    folder = kit.copy(tmp_path / "g", k)
    incoming = tmp_path / "incoming.pbem"
    incoming.write_bytes(recorded.raws[k])
    before = kit.snapshot(folder)
    assert _receive_with_a_full_disk(folder, [incoming], len(recorded.raws[k]) // 2) == "FolderProblem"
    assert kit.snapshot(folder) == before  # no half file, no temporary file
    assert _receive_with_a_full_disk(folder, [incoming], 1 << 20) == "written"
    assert (folder / file_name(k)).read_bytes() == recorded.raws[k]


def test_a_full_disk_in_the_middle_of_a_batch_writes_none_of_it(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    sizes = [(len(recorded.raws[k]), len(recorded.raws[k + 1]), k) for k in range(2, len(recorded.raws) - 1)]
    small, large, k = next(s for s in sizes if s[0] + 16 < s[1])
    folder = kit.copy(tmp_path / "g", k)
    files = []
    for i in (k, k + 1):
        files.append(tmp_path / f"{i}.pbem")
        files[-1].write_bytes(recorded.raws[i])
    before = kit.snapshot(folder)
    assert _receive_with_a_full_disk(folder, files, (small + large) // 2) == "FolderProblem"
    assert kit.snapshot(folder) == before


def test_cli_new_game_into_a_file_is_a_clean_error(recorded: Recorded, tmp_path: Path, pbem) -> None:
    target = tmp_path / "a-file"
    target.write_text("not a folder")
    """Found by this suite (was a NotADirectoryError traceback)."""
    common = ("--side", "Red", "--key", "alice", "--chain-length", "8")
    for out, error in ((target, UsageError), (target / "sub", FolderProblem)):
        run = pbem("new", "quick", "--out", str(out), *common, keys=recorded.keys)
        assert run.code == error.exit_code, run
        assert len(run.stderr.splitlines()) == 1 and run.stderr.startswith("pbem: error:") and "Traceback" not in run.stderr
    assert target.read_text() == "not a folder"


def test_accept_and_start_refuse_a_folder_in_use(kit: Kit, recorded: Recorded, game_dir: Path, tmp_path: Path) -> None:
    before = kit.snapshot(game_dir)
    invitation = tmp_path / "invite.pbem"
    invitation.write_bytes(recorded.raws[0])
    third = ids.generate("carol", tmp_path / "carol-keys")
    with pytest.raises(UsageError):
        session.accept(intake.one_file(invitation), game_dir, third, "Carol", 8)
    with pytest.raises(UsageError):
        session.start(game_dir, referee.replay(recorded.raws[:1], ["0"]).files[0])
    assert kit.snapshot(game_dir) == before


# ----- keys -------------------------------------------------------------------------------------


def test_keygen_writes_an_owner_only_private_key(tmp_path: Path, pbem) -> None:
    keys = tmp_path / "keys"
    run = pbem("keygen", "zoe", keys=keys)
    assert run.code == 0 and "fingerprint:" in run.stdout, run
    assert stat.S_IMODE((keys / "zoe.key").stat().st_mode) == 0o600
    assert stat.S_IMODE(keys.stat().st_mode) & 0o077 == 0
    assert (keys / "zoe.pub").read_text().strip() in run.stdout
    again = pbem("keygen", "zoe", keys=keys)  # never overwrite a key
    assert again.code == UsageError.exit_code and again.stderr.startswith("pbem: error:")
    assert stat.S_IMODE((keys / "zoe.key").stat().st_mode) == 0o600


def test_private_keys_never_enter_a_game_folder(tmp_path: Path, pbem) -> None:
    out = tmp_path / "demo"
    run = pbem("demo", "--out", str(out))
    assert run.code == 0, run
    secrets = []
    for name in ("alice", "bob"):
        me = ids.load(name, out / "keys" / name)
        raw = me.private_raw()
        pem = (out / "keys" / name / f"{name}.key").read_bytes()
        body = b"".join(line for line in pem.splitlines() if not line.startswith(b"-----"))
        secrets += [raw, raw.hex().encode(), base64.b64encode(raw), body]
        game_id = store.load(out / name).game_id
        game = store.load(out / name)
        player = game.player(writing.my_role(game, me))
        secrets.append(chain.seed(raw, game_id, player.nonce).hex().encode())
    for name in ("alice", "bob"):
        entries = list((out / name).iterdir())
        # game files, plus the state cache and the turn reports (which must not leak either)
        extra = {".pbem-state", "report"}
        assert entries and all(folders.FILE_PATTERN.match(p.name) or p.name in extra for p in entries), entries
        for path in (p for p in (out / name).rglob("*") if p.is_file()):
            data = path.read_bytes()
            assert not any(secret in data for secret in secrets), path
    assert store.load(out / "alice").finished()


@pytest.mark.parametrize(
    "content",
    ["empty", "truncated", "garbage", "public key", "rsa key", "x25519 key", "a folder", "header only"],
)
def test_a_corrupted_key_file_is_key_problem(tmp_path: Path, content: str) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa, x25519

    keys = tmp_path / "keys"
    good = ids.generate("zoe", keys)
    path = keys / "zoe.key"
    pem = path.read_bytes()
    path.unlink()

    def private_pem(key: object) -> bytes:
        return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())  # type: ignore[attr-defined]

    data = {
        "empty": b"",
        "truncated": pem[: len(pem) // 2],
        "garbage": os.urandom(200),
        "public key": (keys / "zoe.pub").read_bytes(),
        "rsa key": private_pem(rsa.generate_private_key(public_exponent=65537, key_size=1024)) if content == "rsa key" else b"",
        "x25519 key": private_pem(x25519.X25519PrivateKey.generate()),
        "header only": b"-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n",
        "a folder": None,
    }[content]
    if data is None:
        path.mkdir()
    else:
        path.write_bytes(data)
    with pytest.raises(KeyProblem):
        ids.load("zoe", keys)
    assert good.name == "zoe"


def test_a_key_file_of_an_unknown_algorithm_is_key_problem(tmp_path: Path) -> None:
    """Was a bug: cryptography's UnsupportedAlgorithm escaped identity.load as a traceback."""
    # PKCS#8 as for Ed25519 (OID 1.3.101.112), but with the OID's last arc changed to 119.
    der = bytes.fromhex("302e020100300506032b657704220420") + bytes(range(32))
    pem = b"-----BEGIN PRIVATE KEY-----\n" + base64.encodebytes(der) + b"-----END PRIVATE KEY-----\n"
    (tmp_path / "zoe.key").write_bytes(pem)
    with pytest.raises(KeyProblem):
        ids.load("zoe", tmp_path)


@pytest.mark.parametrize("oid", ["2b656f", "2b6571"], ids=["X448", "Ed448"])
def test_a_key_file_of_another_curves_oid_is_key_problem(tmp_path: Path, oid: str) -> None:
    # One bit of the PEM (byte 43, 'w' -> 'v') turns Ed25519's OID into X448's.
    der = bytes.fromhex("302e02010030050603" + oid + "04220420") + bytes(range(32))
    pem = b"-----BEGIN PRIVATE KEY-----\n" + base64.encodebytes(der) + b"-----END PRIVATE KEY-----\n"
    (tmp_path / "zoe.key").write_bytes(pem)
    with pytest.raises(KeyProblem):
        ids.load("zoe", tmp_path)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_damaged_key_file_loads_or_is_key_problem(tmp_path: Path, data: st.DataObject) -> None:
    """Whatever happens to the key file, the answer is a key or KeyProblem, never a crash."""
    keys = tmp_path / "keys"
    if not (keys / "zoe.key").exists():
        ids.generate("zoe", keys)
        (keys / "zoe.orig").write_bytes((keys / "zoe.key").read_bytes())
    pem = (keys / "zoe.orig").read_bytes()
    # Bytes 40..43 of the PEM carry the algorithm's OID: the most interesting ones. Byte 43
    # can turn the OID into X448's or Ed448's: test_a_key_file_of_another_curves_oid_is_key_problem.
    offset = data.draw((st.integers(0, len(pem) - 1) | st.integers(40, 42)).filter(lambda i: i != 43))
    mask = data.draw(st.integers(1, 255))
    (keys / "zoe.key").write_bytes(pem[:offset] + bytes([pem[offset] ^ mask]) + pem[offset + 1 :])
    try:
        loaded = ids.load("zoe", keys)
    except KeyProblem as exc:
        assert "zoe.key" in str(exc)
    else:  # a flip the PEM decoder shrugs off still yields a usable Ed25519 key
        assert len(loaded.public_b64) == 44 and loaded.sign(b"x")


def test_cli_with_a_corrupted_key_is_key_problem(kit: Kit, recorded: Recorded, tmp_path: Path, pbem) -> None:
    k = recorded.acks()[0]
    folder = kit.copy(tmp_path / "g", k)
    keys = tmp_path / "keys"
    shutil.copytree(recorded.keys, keys)
    name = "alice" if author_of(k) == "host" else "bob"
    (keys / f"{name}.key").write_bytes(b"-----BEGIN PRIVATE KEY-----\nbroken\n-----END PRIVATE KEY-----\n")
    before = kit.snapshot(folder)
    run = pbem("move", str(folder), "--key", name, keys=keys)
    assert run.code == KeyProblem.exit_code, run
    assert len(run.stderr.splitlines()) == 1 and run.stderr.startswith("pbem: error:") and "Traceback" not in run.stderr
    assert kit.snapshot(folder) == before


def test_reading_a_games_files_at_once_words_every_failure_as_reading_one(tmp_path: Path) -> None:
    """store.load reads a long game's files with pbem.game.folder.read_game_files: the same bytes, and the same one-line errors, as pbem.game.folder.read (a folder or an oversized file named like a game file)."""
    from pbem.game import folder as folders
    from pbem.errors import MalformedFile, MissingFile

    small, empty = tmp_path / "000000.pbem", tmp_path / "000001.pbem"
    small.write_bytes(b"x" * 5000)
    empty.write_bytes(b"")
    assert folders.read_game_files([small, empty]) == [folders.read(small), folders.read(empty)]
    assert folders.read_game_files([small], limit=5000) == [b"x" * 5000]
    with pytest.raises(MalformedFile, match="000000.pbem: more than 4999 bytes"):
        folders.read_game_files([small], limit=4999)
    folder_named_like_a_file = tmp_path / "000002.pbem"
    folder_named_like_a_file.mkdir()
    with pytest.raises(MissingFile, match="000002.pbem: is a folder, not a file"):
        folders.read_game_files([small, folder_named_like_a_file])
    with pytest.raises(MissingFile, match="000003.pbem: no such file"):
        folders.read_game_files([tmp_path / "000003.pbem"])
    # store.load names them as text: the same
    spelled = [str(small), str(empty)]
    assert folders.read_game_files(spelled) == [folders.read(small), folders.read(empty)]
    with pytest.raises(MalformedFile, match="000000.pbem: more than 4999 bytes"):
        folders.read_game_files([str(small)], limit=4999)
    with pytest.raises(MissingFile, match="000002.pbem: is a folder, not a file"):
        folders.read_game_files([str(small), str(folder_named_like_a_file)])
    with pytest.raises(MissingFile, match="000003.pbem: no such file"):
        folders.read_game_files([str(tmp_path / "000003.pbem")])


# ----- files beside the game (issue 22, items 5 and 6) --------------------------------------------
#
# A game folder may come from outside (an unpacked zip, a shared or synced folder): whatever stands in it
# beside the numbered files may have been planted. Each test plants it and runs the real CLI.

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tauris-game"


def _memory_cap() -> None:  # a command that reads /dev/zero whole then fails fast, instead of swapping
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def cli(tmp_path: Path, *args: str, state: Path | None = None, keys: Path | None = None,
        **env: str) -> subprocess.CompletedProcess[str]:
    """The real `pbem` in a subprocess with its own home; `state`: its $XDG_STATE_HOME (the state cache's
    secret: whose pbem it is)."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    environment = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
                       XDG_STATE_HOME=str(state if state is not None else home / ".local" / "state"),
                       PBEM_KEYS=str(keys if keys is not None else home / "no-keys"), **env)
    environment.pop("PBEM_KEY", None)
    argv = [sys.executable, "-c", "from pbem.cli.app import main; main()", *args]
    return subprocess.run(argv, capture_output=True, text=True, env=environment, timeout=600,  # a hang guard
                          preexec_fn=_memory_cap)


def one_line_error(done: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    assert done.returncode == code, (done.returncode, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pbem: error:") and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in lines[0], lines[0]


def tauris_copy(tmp_path: Path, files: int | None = None, name: str = "game") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for path in folders.game_files(EXAMPLE)[:files]:
        shutil.copyfile(path, folder / path.name)
    return folder


def regular(path: Path, kind: int = stat.S_IFREG) -> bool:
    """Is `path` itself (not through a link) a regular file (or of `kind`)?"""
    try:
        return stat.S_IFMT(os.lstat(path).st_mode) == kind
    except OSError:
        return False


def every_entry(folder: Path) -> dict[str, tuple[str, bytes | None]]:
    """Every name in the folder (and report/), what it is, and a regular file's bytes, links not followed."""
    out: dict[str, tuple[str, bytes | None]] = {}
    for path in sorted([*folder.iterdir(), *((folder / "report").iterdir() if regular(folder / "report", stat.S_IFDIR) else [])]):
        mode = os.lstat(path).st_mode
        kind = "link" if stat.S_ISLNK(mode) else "dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else "other"
        out[str(path.relative_to(folder))] = (kind, path.read_bytes() if kind == "file" else os.readlink(path) if kind == "link" else None)
    return out


@pytest.mark.parametrize("planted", ["link to a file outside", "FIFO"])
@pytest.mark.parametrize("command", ["receive", "move"])
def test_attack_a_planted_lock_is_refused_and_nothing_is_written_through_it(
        kit: Kit, recorded: Recorded, tmp_path: Path, command: str, planted: str) -> None:
    """`.pbem-lock` planted as a link made pbem write its holder line through it, over any file the user can
    write (and then remove the link): refused now, in one line, before anything changes."""
    from pbem.game import lock

    k = recorded.acks()[0]  # receive file k; or move: write file k, an acknowledgement needing no orders
    folder = kit.copy(tmp_path / "g", k)
    incoming = tmp_path / "in.pbem"
    incoming.write_bytes(recorded.raws[k])
    outside = tmp_path / "precious.txt"
    outside.write_bytes(b"the user's own file\n")
    holder = folder / lock.HOLDER_FILE
    if planted == "FIFO":
        os.mkfifo(holder)
    else:
        holder.symlink_to(outside)
    args = ["receive", str(folder), str(incoming), "--no-reply"] if command == "receive" else \
        ["move", str(folder), "--key", "alice" if author_of(k) == "host" else "bob"]
    before = every_entry(folder)
    done = cli(tmp_path, *args, keys=recorded.keys)
    one_line_error(done, FolderProblem.exit_code, str(holder), "pbem never makes", "nothing was changed")
    assert outside.read_bytes() == b"the user's own file\n"
    assert every_entry(folder) == before
    holder.unlink()
    done = cli(tmp_path, *args, keys=recorded.keys)
    assert done.returncode == 0, done.stderr
    assert (folder / file_name(k)).exists() and not holder.exists() and outside.read_bytes() == b"the user's own file\n"


def test_attack_a_lock_holder_planted_as_dev_zero_is_not_read(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """A second command names the holder from `.pbem-lock`: planted as a link to /dev/zero it was read whole."""
    from pbem.game import lock
    from pbem.errors import FolderLocked

    k = len(recorded.raws) - 1
    folder = kit.copy(tmp_path / "g", k)
    incoming = tmp_path / "in.pbem"
    incoming.write_bytes(recorded.raws[k])
    with lock.hold(folder, "pbem move (the test)"):
        (folder / lock.HOLDER_FILE).unlink()
        (folder / lock.HOLDER_FILE).symlink_to("/dev/zero")
        done = cli(tmp_path, "receive", str(folder), str(incoming), "--no-reply", keys=recorded.keys, PBEM_LOCK_WAIT="0")
    one_line_error(done, FolderLocked.exit_code, "in use by another pbem command")


@pytest.mark.parametrize("planted", ["link to /dev/zero", "FIFO", "link to a file outside"])
def test_attack_a_planted_state_cache_is_ignored_and_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              planted: str) -> None:
    """`.pbem-state` linked to /dev/zero made `status` fail (MemoryError, rc 70; `move` grew to 23.7 GB), a
    FIFO hung it. The cache is only a cache: such a name is ignored (the command replays), and a command
    that succeeds replaces it with its own file, never writing through a link."""
    from pbem.game import statecache
    from pbem.errors import KeyProblem

    folder = tauris_copy(tmp_path, 121)
    truth = cli(tmp_path, "status", str(tauris_copy(tmp_path, 121, "clean")))
    assert truth.returncode == 0, truth.stderr
    outside = tmp_path / "precious.txt"
    outside.write_bytes(b"the user's own file\n")
    cache = statecache.path_of(folder)
    if planted == "FIFO":
        os.mkfifo(cache)
    else:
        cache.symlink_to("/dev/zero" if "zero" in planted else outside)
    moved = cli(tmp_path, "move", str(folder))  # no key of this game here: the answer after loading it
    one_line_error(moved, KeyProblem.exit_code, "no key")
    status = cli(tmp_path, "status", str(folder))
    assert status.returncode == 0 and status.stdout == truth.stdout, status.stderr
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "home" / ".local" / "state"))  # the CLI's secret
    monkeypatch.setattr(statecache, "_secrets", {})
    assert regular(cache) and statecache.read(folder) is not None, "replaced by a cache of pbem's own"
    assert outside.read_bytes() == b"the user's own file\n"


def test_attack_a_game_file_planted_as_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    folder = tauris_copy(tmp_path, 121)
    os.mkfifo(folder / file_name(121))
    for command in ("status", "verify"):
        one_line_error(cli(tmp_path, command, str(folder)), MalformedFile.exit_code,
                       str(folder / file_name(121)), "is a FIFO, not a regular file")


def test_attack_a_planted_report_link_is_refused_and_nothing_outside_is_written(tmp_path: Path) -> None:
    """`report/` planted as a link made every turn report land where it pointed; a report's own name
    planted as a link was replaced (rename), and stays so; `pbem mail` attaches no linked report."""
    from pbem.cli import mail as cli_mail

    folder = tauris_copy(tmp_path, 121)
    incoming = tmp_path / "in.pbem"
    shutil.copyfile(EXAMPLE / file_name(121), incoming)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (folder / "report").symlink_to(elsewhere, target_is_directory=True)
    received = cli(tmp_path, "receive", str(folder), str(incoming), "--no-reply")
    assert received.returncode == 0 and (folder / file_name(121)).exists(), received.stderr  # the game file is safe
    assert "pbem: warning: no turn report written" in received.stderr and "report: is a symbolic link" in received.stderr
    one_line_error(cli(tmp_path, "report", str(folder)), FolderProblem.exit_code, str(folder / "report"),
                   "is a symbolic link")
    one_line_error(cli(tmp_path, "report", str(folder), "--turn", "2"), FolderProblem.exit_code, "is a symbolic link")
    assert list(elsewhere.iterdir()) == []
    # the report a mail attaches, planted as a link to a private file: not attached
    (elsewhere / "file-000120.html").write_text("a private file")
    assert cli_mail.report_for(folder, 121) is None
    (folder / "report").unlink()
    (folder / "report").mkdir()
    (folder / "report" / "file-000120.html").symlink_to(elsewhere / "file-000120.html")
    assert cli_mail.report_for(folder, 121) is None
    done = cli(tmp_path, "report", str(folder))  # the latest report: file-000120.html
    assert done.returncode == 0 and "file-000120.html" in done.stdout, done.stderr
    attached = cli_mail.report_for(folder, 121)
    assert regular(folder / "report" / "file-000120.html") and attached is not None
    assert attached.data == (folder / "report" / "file-000120.html").read_bytes()  # the bytes read once, then mailed
    assert (elsewhere / "file-000120.html").read_text() == "a private file"


FORGED = 61  # a move in the middle of the Tauris game


def _forge_with_a_matching_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> tuple[Path, Path]:
    """The Tauris game less its last file, file 61's signature changed, and beside it a `.pbem-state`
    made to vouch for the forged file: the attacker's own pbem wrote a cache of the genuine files, then
    he put the forged file's digest into it and sealed it again, with his own secret (`attackers mac`)
    or the plain SHA-256 the cache had before (`old checksum`). Returns the folder and the last file."""
    import hashlib

    import msgspec

    from pbem.game import statecache

    folder = tauris_copy(tmp_path, 121)
    attacker = tmp_path / "attacker-state"
    made = cli(tmp_path, "status", str(folder), state=attacker)
    assert made.returncode == 0, made.stderr
    path = folder / file_name(FORGED)
    data = bytearray(path.read_bytes())
    data[-10] = ord("A") if data[-10] != ord("A") else ord("B")  # a signature character: still base64
    path.write_bytes(bytes(data))
    monkeypatch.setenv("XDG_STATE_HOME", str(attacker))
    monkeypatch.setattr(statecache, "_secrets", {}, raising=False)  # (raising=False: the test runs on old code too)
    entry = statecache.read(folder)
    assert entry is not None
    forged = msgspec.structs.replace(
        entry, files=entry.files[:FORGED] + (hashlib.sha256(bytes(data)).digest(),) + entry.files[FORGED + 1:])
    if how == "attackers mac":
        statecache.write(folder, forged)
        # the attack is real: to the pbem whose secret sealed it, the cache vouches for the forged file
        assert cli(tmp_path, "status", str(folder), state=attacker).returncode == 0
    else:
        payload = msgspec.msgpack.encode(msgspec.structs.replace(forged, format=3))
        statecache.path_of(folder).write_bytes(b"pbem-state-cache\n" + hashlib.sha256(payload).digest() + payload)
    monkeypatch.undo()
    last = tmp_path / "last.pbem"
    shutil.copyfile(EXAMPLE / file_name(121), last)
    return folder, last


@pytest.mark.parametrize("how", ["attackers mac", "old checksum"])
@pytest.mark.parametrize("command", ["status", "board", "legal", "move", "receive", "history", "verify", "report",
                                     "archive", "orders"])
def test_attack_a_forged_file_with_a_matching_planted_cache_is_refused_by_every_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, how: str) -> None:
    """A signature changed in a Tauris file and a `.pbem-state` made to match it: `status` and `board`
    answered 0, and `move` and `receive` took the same path (a player could sign on top of files nobody
    checked). The cache is authenticated under the user's own secret now: a planted one is ignored, the
    game replayed, and the forged file refused as verify refuses it, by every command."""
    folder, last = _forge_with_a_matching_cache(tmp_path, monkeypatch, how)
    args = {"receive": [str(last), "--no-reply"], "archive": ["--out", str(tmp_path / "game.html")]}.get(command, [])
    before = every_entry(folder)
    done = cli(tmp_path, command, str(folder), *args)
    one_line_error(done, BadSignature.exit_code, str(folder / file_name(FORGED)))
    assert every_entry(folder) == before
    assert not (tmp_path / "game.html").exists()
