"""Games survive an upgrade (issue 22; docs/protocol.md, "Upgrades"): a game begun under one release is
finishable under the next, by data kept by hash, old versions still judged, and a rules change both sign."""

from __future__ import annotations

import hashlib
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine.datafiles import scenarios_dir
from engine.duel import ruleset as duel
from pbem.cli import demo
from pbem.signed import identity as ids
from pbem.signed import movefile
from pbem.game import referee
from pbem.game import session
from pbem.game import store
from pbem.game import writing
from pbem.game import ruleset as rulesets
from pbem.errors import BadSignature, RulesChangeRefused, RulesetProblem
from pbem.game.folder import write_atomic
from pbem.signed.identity import Identity
from pbem.signed.movefile import file_name

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "fed0c88-tauris"
CHAIN = 400


def pbem(*args: str) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).parent / "pbem"  # the installed command, as players run it
    return subprocess.run([str(command), *args], capture_output=True, text=True, timeout=300)


def keys_of(folder: Path) -> dict[str, Identity]:
    for key in folder.glob("keys-*/*.key"):
        key.chmod(0o600)
    return {role: ids.load(role, folder / f"keys-{role}") for role in ("host", "guest")}


def play_on(folder: Path, me: dict[str, Identity], seed: int, limit: int = 600) -> referee.Game:
    """Both sides by the ruleset's demo player through session.move, as players would, to the end."""
    chooser = random.Random(seed)
    while True:
        game = store.load(folder)
        if game.finished() or len(game.files) >= limit:
            return game
        role = game.next_author
        view = writing.outlook(game, me[role])
        player = game.player(role)
        assert player is not None
        mine = not view.pending.finished and view.pending.side == player.side
        lines = demo.choose_orders(game.ruleset, view.resolution.state, player.side, chooser) if mine else []
        session.move(folder, me[role], lines, "", folder.parent / f"keys-{role}")
        store.save_loaded()


# ----- a game made by commit fed0c88 of main, finished today ---------------------------------------------


def test_a_game_made_by_an_earlier_commit_finishes_with_todays_code(tmp_path: Path) -> None:
    shutil.copytree(FIXTURE, tmp_path / "old")
    folder = tmp_path / "old" / "game"
    before = {p.name: p.read_bytes() for p in folder.glob("*.pbem")}
    assert len(before) == 16
    game = play_on(folder, keys_of(tmp_path / "old"), seed=7)
    assert game.finished(), "the game made by fed0c88 did not reach its end"
    assert all((folder / name).read_bytes() == raw for name, raw in before.items())  # its files untouched
    verified = pbem("verify", str(folder))
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith("ok: game") and "finished:" in verified.stdout
    invite = movefile.parse(before[file_name(0)], "file 0").body
    assert isinstance(invite, movefile.Invite)
    assert f"rules: files 0 on: war-galley 1, rules data {invite.rules_hash[:16]}" in verified.stdout


# ----- data by hash -----------------------------------------------------------------------------------------


def _store_files() -> list[Path]:
    return sorted(p for p in scenarios_dir().glob("*/pinned/*/*") if p.is_file())


def test_the_store_files_hash_to_their_names() -> None:
    files = _store_files()
    assert len(files) >= 31
    for path in files:
        assert hashlib.sha256(path.read_bytes()).hexdigest() == path.stem, path


@pytest.mark.parametrize("name", ["war-galley", "fleets", "duel"])
def test_every_builtin_data_is_kept_by_its_hash(name: str) -> None:
    """Someone who edits a built-in data must find its old bytes kept already: today's are in the store
    (bench/pinned_store.py adds new ones), so the next edit strands no game that pins them."""
    ruleset = rulesets.find(name)
    current = ruleset.default_rules_data()
    assert ruleset.rules_data_by_hash(hashlib.sha256(current).hexdigest()) == current
    folder = getattr(ruleset, "data_folder", "")
    if folder:
        assert (scenarios_dir(folder) / "pinned" / "rules").glob(f"{hashlib.sha256(current).hexdigest()}.*")
        kept = {p.stem for p in (scenarios_dir(folder) / "pinned" / "rules").iterdir()}
        assert hashlib.sha256(current).hexdigest() in kept, f"run bench/pinned_store.py: {name}'s rules data"
    for info in ruleset.scenarios():
        data = ruleset.builtin_scenario(info.name)
        assert data is not None
        sha = hashlib.sha256(data).hexdigest()
        if folder:
            assert any((scenarios_dir(folder) / "pinned" / info.name).glob(f"{sha}.*")), \
                f"run bench/pinned_store.py: {name}'s {info.name}"
        assert ruleset.scenario_by_hash(info.name, sha) == data


def test_a_store_lookup_never_leaves_the_store() -> None:
    ruleset = rulesets.find("war-galley")
    sha = hashlib.sha256(ruleset.builtin_scenario("tauris") or b"").hexdigest()
    for name in ("../war_galley/pinned/tauris", "tauris/../tauris", "", "rules", "Tauris"):
        assert ruleset.scenario_by_hash(name, sha) is None
    assert ruleset.rules_data_by_hash("../" + "0" * 61) is None


def _older_scenario(ruleset: Any) -> tuple[str, bytes]:
    """A built-in scenario as an earlier release shipped it (not today's bytes) that today's rules set up."""
    for path in sorted(scenarios_dir("war_galley").glob("pinned/*/*.toml")):
        name = path.parent.name
        if name == "rules" or ruleset.builtin_scenario(name) == path.read_bytes():
            continue
        try:
            ruleset.new_game(path.read_bytes(), ruleset.default_rules_data(), {})
        except ruleset.illegal_errors:
            continue
        return name, path.read_bytes()
    raise AssertionError("no older scenario in the store")


def _invite_pinning(ruleset: Any, host: Identity, name: str, data: bytes, tmp_path: Path) -> movefile.SignedFile:
    """File 0 as a release that had `data` built in wrote it: the scenario named and pinned by hash, not carried."""
    path = tmp_path / f"{name}.toml"
    path.write_bytes(data)
    carried = writing.make_invite(host, "Host", ruleset, str(path), ruleset.sides(data, ruleset.default_rules_data())[0],
                                  {}, chain_length=CHAIN)
    assert carried.body.scenario_data  # today's code carries what it has not built in
    body = msgspec.structs.replace(carried.body, scenario=name, scenario_data="")
    return movefile.sign(body, host)


@pytest.mark.long
def test_a_game_pinning_an_older_scenario_finishes(tmp_path: Path) -> None:
    ruleset = rulesets.find("war-galley")
    name, data = _older_scenario(ruleset)
    (tmp_path / "keys-host").mkdir(), (tmp_path / "keys-guest").mkdir()
    me = {"host": ids.generate("host", tmp_path / "keys-host"), "guest": ids.generate("guest", tmp_path / "keys-guest")}
    invite = _invite_pinning(ruleset, me["host"], name, data, tmp_path)
    setup = referee.check_invite(invite, "file 0")  # found by hash in the store
    assert setup.scenario_data == data != ruleset.builtin_scenario(name)
    folder = tmp_path / "game"
    folder.mkdir()
    write_atomic(folder / file_name(0), invite.raw)
    write_atomic(folder / file_name(1), writing.make_accept(store.load(folder), me["guest"], "Guest", CHAIN).raw)
    game = play_on(folder, me, seed=3, limit=80)
    assert len(game.files) >= 40 or game.finished()
    assert pbem("verify", str(folder)).returncode == 0


def test_data_neither_carried_nor_kept_is_refused_in_one_line(tmp_path: Path) -> None:
    ruleset = rulesets.find("war-galley")
    name, data = _older_scenario(ruleset)
    host = ids.generate("host", tmp_path / "k")
    invite = _invite_pinning(ruleset, host, name, data + b"\n# edited\n", tmp_path)
    with pytest.raises(RulesetProblem, match=r"is neither carried in the file nor kept by this installation"):
        referee.check_invite(invite, "file 0")


# ----- behaviour by version ---------------------------------------------------------------------------------


def _duel_game(tmp_path: Path, version: str) -> tuple[Path, dict[str, Identity]]:
    me = {"host": ids.generate("host", tmp_path / "keys-host"), "guest": ids.generate("guest", tmp_path / "keys-guest")}
    folder = tmp_path / "game"
    folder.mkdir()
    invite = writing.make_invite(me["host"], "Alice", duel.RULESET.at_version(version), "duel", "Red", {},
                                 chain_length=64)
    assert invite.body.ruleset_version == version
    write_atomic(folder / file_name(0), invite.raw)
    write_atomic(folder / file_name(1), writing.make_accept(store.load(folder), me["guest"], "Bob", 64).raw)
    return folder, me


def _move(folder: Path, me: Identity, lines: list[str], **change: Any) -> movefile.SignedFile:
    _, signed, _ = session.move(folder, me, lines, "", None, **change)
    return signed


def _to_my_decision(folder: Path, me: dict[str, Identity]) -> str:
    """Acknowledge until a side must act; the role whose decision it is."""
    while True:
        game = store.load(folder)
        view = writing.outlook(game, me[game.next_author])
        if view.pending.side == game.player(game.next_author).side:
            return game.next_author
        _move(folder, me[game.next_author], [])


def test_a_game_pinned_to_an_older_version_is_judged_by_it(tmp_path: Path) -> None:
    folder, me = _duel_game(tmp_path, "1")
    game = store.load(folder)
    assert game.ruleset.version == "1" and game.ruleset is not duel.RULESET
    assert duel.RULESET.version == "2" and duel.RULESET.versions == ("1", "2")


def test_a_version_this_installation_does_not_judge_is_refused_naming_both(tmp_path: Path) -> None:
    host = ids.generate("host", tmp_path / "k")
    invite = writing.make_invite(host, "Alice", duel.RULESET, "duel", "Red", {}, chain_length=8)
    forged = movefile.sign(msgspec.structs.replace(invite.body, ruleset_version="3"), host)
    with pytest.raises(RulesetProblem, match=r"judged by duel 3, this installation judges duel 1, 2"):
        referee.check_invite(forged, "file 0")


def _rest_heals(folder: Path, me: dict[str, Identity], role: str) -> int:
    """`role` rests (after taking a wound so that the rest shows); the hp it gained."""
    game = store.load(folder)
    state = writing.outlook(game, me[role]).resolution.state
    index = state.sides.index(game.player(role).side)
    wounded = msgspec.structs.replace(state, hp=tuple(1 if i == index else h for i, h in enumerate(state.hp)))
    after, _ = game.ruleset.apply(wounded, {"action": "rest"}, None)
    return after.hp[index] - 1


# ----- an agreed rules change ---------------------------------------------------------------------------------


def test_a_rules_change_agreed_by_both_takes_effect_and_verify_names_both(tmp_path: Path) -> None:
    folder, me = _duel_game(tmp_path, "1")
    role = _to_my_decision(folder, me)
    other = "guest" if role == "host" else "host"
    assert _rest_heals(folder, me, role) == 1  # version 1's rest
    offer = store.load(folder)
    proposal = movefile.RulesProposal("2", hashlib.sha256(duel.RULESET.default_rules_data()).hexdigest(), "")
    proposing = _move(folder, me[role], ["strike"], propose_rules=proposal)
    assert proposing.body.propose_rules == proposal
    accepting = _move(folder, me[other], [], accept_rules=True)
    assert accepting.body.accept_rules == proposing.hash_hex
    game = store.load(folder, use_cache=False)
    change = accepting.body.seq
    assert game.ruleset.version == "2"
    assert game.judged_by_text() == (f"files 0-{change - 1}: duel 1, rules data {proposal.rules_hash[:16]}; "
                                     f"files {change} on: duel 2, rules data {proposal.rules_hash[:16]}")
    acting = _to_my_decision(folder, me)
    assert _rest_heals(folder, me, acting) == 2  # version 2's rest, from the agreed file on
    final = play_on(folder, me, seed=5, limit=200)
    assert final.finished()
    verified = pbem("verify", str(folder))
    assert verified.returncode == 0, verified.stderr
    assert f"files 0-{change - 1}: duel 1" in verified.stdout and f"files {change} on: duel 2" in verified.stdout
    history = pbem("history", str(folder))
    assert "proposes rules: duel 2" in history.stdout and f"accepts the rules change of file {change - 1}" in history.stdout
    assert offer.ruleset.version == "1"


def test_a_rules_change_by_the_cli_propose_accept_and_status(tmp_path: Path) -> None:
    folder, me = _duel_game(tmp_path, "1")
    role = _to_my_decision(folder, me)
    other = "guest" if role == "host" else "host"
    keys = {r: str(tmp_path / f"keys-{r}") for r in me}
    proposed = pbem("rules-change", str(folder), "--keys", keys[role], "--to", "2", "strike")
    assert proposed.returncode == 0, proposed.stderr
    status = pbem("status", str(folder), "--keys", keys[other])
    assert "rules change proposed in" in status.stdout and "--accept" in status.stdout
    accepted = pbem("rules-change", str(folder), "--keys", keys[other], "--accept")
    assert accepted.returncode == 0, accepted.stderr
    assert "judged by duel 2" in accepted.stdout
    assert "duel 2" in pbem("status", str(folder), "--keys", keys[role]).stdout
    again = pbem("rules-change", str(folder), "--keys", keys[role], "--accept")
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and "proposes no rules change" in again.stderr
    same = pbem("rules-change", str(folder), "--keys", keys[role], "--to", "2")
    assert same.returncode == 14 and "already judged by duel 2" in same.stderr and same.stderr.count("\n") == 1
    unknown = pbem("rules-change", str(folder), "--keys", keys[role], "--to", "7")
    assert unknown.returncode == 14 and "this installation judges duel 1, 2" in unknown.stderr


def test_a_proposal_the_other_refuses_changes_nothing(tmp_path: Path) -> None:
    folder, me = _duel_game(tmp_path, "1")
    role = _to_my_decision(folder, me)
    other = "guest" if role == "host" else "host"
    proposal = movefile.RulesProposal("2", hashlib.sha256(duel.RULESET.default_rules_data()).hexdigest(), "")
    _move(folder, me[role], ["strike"], propose_rules=proposal)
    _move(folder, me[other], [])  # a plain move: the proposal lapses
    game = store.load(folder, use_cache=False)
    assert game.ruleset.version == "1" and game.judged_by_text().startswith("files 0 on: duel 1")
    acting = _to_my_decision(folder, me)
    assert _rest_heals(folder, me, acting) == 1
    with pytest.raises(RulesChangeRefused, match="proposes none"):  # too late to accept it now
        _move(folder, me[store.load(folder).next_author], [], accept_rules=True)


def test_one_player_alone_cannot_change_the_rules(tmp_path: Path) -> None:
    """The proposer cannot accept his own proposal (the accepting file is his opponent's by alternation),
    nor forge the opponent's acceptance: the change needs both signatures."""
    folder, me = _duel_game(tmp_path, "1")
    role = _to_my_decision(folder, me)
    other = "guest" if role == "host" else "host"
    proposal = movefile.RulesProposal("2", hashlib.sha256(duel.RULESET.default_rules_data()).hexdigest(), "")
    proposing = _move(folder, me[role], ["strike"], propose_rules=proposal)
    game = store.load(folder)
    # the opponent's honest acknowledgement, then the proposer tries to accept his own proposal two files on
    _move(folder, me[other], [])
    game = store.load(folder)
    with pytest.raises(RulesChangeRefused):
        writing.make_move(game, me[role], [], accept_rules=True)
    # an acceptance signed by the proposer's key in the opponent's place is refused for its signature
    (folder / file_name(game.next_seq - 1)).unlink()
    game = store.load(folder)
    honest = writing.make_move(game, me[other], [], accept_rules=True)
    forged = movefile.sign(honest.body, me[role])
    with pytest.raises(BadSignature):
        referee.admit(store.load(folder).copy(), movefile.parse(forged.raw, "forged"), "forged")
    # and an acceptance naming another file than the proposal
    wrong = movefile.sign(msgspec.structs.replace(honest.body, accept_rules="0" * 64), me[other])
    with pytest.raises(RulesChangeRefused, match="another file"):
        referee.admit(store.load(folder).copy(), movefile.parse(wrong.raw, "wrong"), "wrong")
    assert proposing.body.propose_rules == proposal


def test_a_change_the_ruleset_cannot_apply_mid_game_is_refused_with_its_reason(tmp_path: Path) -> None:
    ruleset = rulesets.find("fleets")
    state = ruleset.new_game(ruleset.builtin_scenario("open-sea") or b"", ruleset.default_rules_data(), {})
    with pytest.raises(ruleset.illegal_errors, match="cannot change its rules data in the middle of a game"):
        ruleset.rebind(state, ruleset.default_rules_data() + b"\n", ruleset.default_rules_data())
    assert ruleset.state_bytes(ruleset.rebind(state, ruleset.default_rules_data(), ruleset.default_rules_data())) \
        == ruleset.state_bytes(state)


# ----- old files stay byte-identical ------------------------------------------------------------------------


@pytest.mark.parametrize("example", ["duel-game", "tauris-game", "salamis-fleets-game"])
def test_files_without_a_rules_change_encode_as_before(example: str) -> None:
    from pbem.signed import canonical

    folder = HERE.parent.parent / "examples" / example
    for path in sorted(folder.glob("*.pbem"))[:60]:
        signed = movefile.parse(path.read_bytes(), path.name)
        assert canonical.encode(msgspec.to_builtins(signed.body)) == signed.body_bytes, path
