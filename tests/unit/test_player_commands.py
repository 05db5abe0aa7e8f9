"""The player's commands: check, status/check --json (held to docs/cli.md), solo play, and the frictions of issue 13."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from pbem.signed import identity as ids
from pbem.game import store
from pbem.game import writing
from tests.in_process import invoke
from pbem.cli.demo import choose_orders

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def run(*args: str) -> str:
    result = invoke(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def documented(name: str) -> Any:
    """The JSON example named `name` in docs/cli.md (a ```json NAME block)."""
    match = re.search(r"```json " + re.escape(name) + r"\n(.*?)```", DOCS.read_text(), re.S)
    assert match, f"docs/cli.md has no json {name} example"
    return json.loads(match.group(1))


NULLABLE = {"side", "guest", "turn", "state", "result", "waiting_on", "you", "pending", "then", "error"}


def same_shape(real: Any, doc: Any, where: str = "$") -> None:
    """`real` has the documented keys and value types (null allowed where docs/cli.md says)."""
    if isinstance(doc, dict):
        assert isinstance(real, dict), where
        assert set(real) == set(doc), (where, set(real) ^ set(doc))
        for key in doc:
            if real[key] is None or doc[key] is None:
                assert key in NULLABLE, f"{where}.{key} is null"
                continue
            if key == "decision":  # the ruleset's own JSON decision
                assert isinstance(real[key], (dict, str, list)), where
                continue
            same_shape(real[key], doc[key], f"{where}.{key}")
    elif isinstance(doc, list):
        assert isinstance(real, list), where
        for item in real:
            same_shape(item, doc[0], f"{where}[]")
    else:
        assert type(real) is type(doc), (where, real, doc)


@pytest.fixture
def solo(tmp_path: Path) -> tuple[Path, Path]:
    """A Tauris game one person plays in one folder with both keys."""
    keys = tmp_path / "keys"
    ids.generate("alice", keys)
    ids.generate("bob", keys)
    game = tmp_path / "tauris"
    run("new", "tauris", "--side", "caesarians", "--name", "Alice", "--out", str(game), "--key", "alice", "--keys", str(keys))
    run("accept", str(game / "000000.pbem"), "--name", "Bob", "--out", str(game), "--key", "bob", "--keys", str(keys))
    return game, keys


def play_solo(game: Path, keys: Path, decisions: int, chooser: random.Random) -> list[str]:
    """Move as whichever side decides, `decisions` times or until the battle ends (the dice come from the
    keys, PBEM_TEST_SEED: a Tauris game once ended in a withdrawal, 9.2, at its 18th file), with the
    plain commands; returns the outputs."""
    outputs = []
    for _ in range(decisions):
        status = run("status", str(game), "--keys", str(keys))
        if "game over:" in status:
            break
        assert "your decision" in status, status
        g = store.load(game)
        me = next(i for i in ids.all_identities(keys) if i.public_b64 == g.player(g.next_author).key)
        view = writing.outlook(g, me)
        orders = choose_orders(g.ruleset, view.resolution.state, g.player(view.role).side, chooser)
        outputs.append(run("move", str(game), *orders, "--keys", str(keys)))
    return outputs


def test_solo_one_person_plays_both_sides_in_one_folder(solo: tuple[Path, Path]) -> None:
    game, keys = solo
    outputs = play_solo(game, keys, 12, random.Random(3))
    g = store.load(game)
    assert len(g.files) > 14
    assert any("solo: wrote" in out for out in outputs)  # the machine answered for the side with nothing to decide
    assert run("verify", str(game)).startswith("ok: game")


def test_status_says_the_state_once_when_the_latest_file_changed_nothing(solo: tuple[Path, Path]) -> None:
    """Resolving the opponent's latest file (here his deployment's acknowledgement) left the state as the
    last resolved one: status prints that state line once, then the decision."""
    game, keys = solo
    play_solo(game, keys, 1, random.Random(5))
    for _ in range(4):
        status = run("status", str(game), "--keys", str(keys))
        lines = [line.strip() for line in status.splitlines()]
        states = [line for line in lines if line.startswith("turn ")]
        assert len(states) == len(set(states)), status
        if "your decision" not in status:
            break
        play_solo(game, keys, 1, random.Random(6))


def test_status_json_matches_the_documented_shape(solo: tuple[Path, Path]) -> None:
    game, keys = solo
    play_solo(game, keys, 4, random.Random(5))
    real = json.loads(run("status", str(game), "--json", "--keys", str(keys)))
    same_shape(real, documented("status"))
    assert real["files"] == len(store.load(game).files)
    assert real["you"]["your_turn"] and real["you"]["to_decide"] and real["turn"] >= 0
    stranger = json.loads(run("status", str(game), "--json", "--keys", str(game.parent / "nobody")))
    assert stranger["you"] is None


def test_check_validates_without_writing(solo: tuple[Path, Path]) -> None:
    game, keys = solo
    play_solo(game, keys, 3, random.Random(7))
    before = sorted(p.name for p in game.iterdir())
    g = store.load(game)
    me = next(i for i in ids.all_identities(keys) if i.public_b64 == g.player(g.next_author).key)
    view = writing.outlook(g, me)
    orders = choose_orders(g.ruleset, view.resolution.state, g.player(view.role).side, random.Random(1))
    real = json.loads(run("check", str(game), *orders, "--json", "--keys", str(keys)))
    same_shape(real, documented("check"))
    assert real["ok"] and [o["line"] for o in real["orders"]] == orders
    text = run("check", str(game), *orders, "--keys", str(keys))
    assert text.startswith(f"ok: {len(orders)} order")
    bad = invoke("check", str(game), "activate Q99", "--json", "--keys", str(keys))
    assert bad.exit_code == 11
    refused = json.loads(bad.output)
    same_shape(refused, documented("check-error"))
    assert refused["error"]["code"] == 11
    assert sorted(p.name for p in game.iterdir()) == before


def test_move_without_orders_while_a_decision_is_due_is_refused(solo: tuple[Path, Path]) -> None:
    game, keys = solo
    before = sorted(p.name for p in game.iterdir())
    refused = invoke("move", str(game), "--keys", str(keys))
    assert getattr(refused.exception, "exit_code", None) == 2 and "a decision is due" in str(refused.exception) and "--pass" in str(refused.exception)
    assert sorted(p.name for p in game.iterdir()) == before
    passed = run("move", str(game), "--pass", "--keys", str(keys))
    assert "(0 decisions)" in passed


def test_wording(solo: tuple[Path, Path]) -> None:
    game, keys = solo
    help_text = run("receive", "--help")
    assert "--no-reply" in help_text and "--no-no-reply" not in help_text
    for out in play_solo(game, keys, 6, random.Random(11)):
        assert not re.search(r"\b1 decisions\b", out)


def _two_players(tmp_path: Path) -> dict[str, tuple[Path, Path]]:
    players = {}
    for name in ("alice", "bob"):
        ids.generate(name, tmp_path / f"{name}-keys")
        players[name] = (tmp_path / f"{name}-game", tmp_path / f"{name}-keys")
    run("new", "quick", "--ruleset", "duel", "--side", "Red", "--name", "Alice", "--out", str(players["alice"][0]), "--keys", str(players["alice"][1]))
    return players


def test_accepting_twice_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    players = _two_players(tmp_path)
    invitation = str(players["alice"][0] / "000000.pbem")
    run("accept", invitation, "--name", "Bob", "--out", str(players["bob"][0]), "--keys", str(players["bob"][1]))
    again = invoke("accept", invitation, "--name", "Bob", "--out", str(tmp_path / "second"), "--keys", str(players["bob"][1]))
    assert getattr(again.exception, "exit_code", None) == 2 and "accepted game" in str(again.exception) and "equivocation" in str(again.exception)
    assert not (tmp_path / "second").exists()
    run("accept", invitation, "--name", "Bob", "--out", str(tmp_path / "second"), "--again", "--keys", str(players["bob"][1]))


def test_receive_shows_results_note_and_nothing_new_for_a_duplicate(tmp_path: Path) -> None:
    players = _two_players(tmp_path)
    (alice, akeys), (bob, bkeys) = players["alice"], players["bob"]
    run("accept", str(alice / "000000.pbem"), "--name", "Bob", "--out", str(bob), "--keys", str(bkeys))
    folders = {"alice": (alice, akeys), "bob": (bob, bkeys)}
    seen = {"results": False, "note": False}

    def deliver(sender: str, receiver: str) -> None:
        newest = sorted(folders[sender][0].glob("*.pbem"))[-1]
        received = run("receive", str(folders[receiver][0]), str(newest), "--keys", str(folders[receiver][1]))
        seen["results"] |= "results of your file" in received
        if "note from" in received:
            seen["note"] = True
            assert "\x1b" not in received and "\\x1b[2J" in received
        again = run("receive", str(folders[receiver][0]), str(newest), "--keys", str(folders[receiver][1]))
        assert "nothing new" in again and "your decision" not in again and "added" not in again
        if "wrote acknowledgement" in received or "wrote the final file" in received:
            assert "-----BEGIN PBEM FILE-----" in received
            deliver(receiver, sender)

    deliver("bob", "alice")
    for _ in range(60):
        statuses = {n: run("status", str(f), "--keys", str(k)) for n, (f, k) in folders.items()}
        movers = [n for n, text in statuses.items() if "your decision" in text]
        if not movers or all(seen.values()):
            break
        folder, keys = folders[movers[0]]
        legal = [line.strip() for line in run("legal", str(folder), "--keys", str(keys)).splitlines()[1:]]
        run("move", str(folder), legal[0], "--note", f"\x1b[2J{movers[0]} says hi", "--keys", str(keys))
        deliver(movers[0], "bob" if movers[0] == "alice" else "alice")
    assert all(seen.values()), seen
