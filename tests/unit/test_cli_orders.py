"""`pbem legal GAME [GALLEY]`, `pbem orders`, `pbem board`, as a player uses them, and the frictions
of typed names (issue 13): a well-formed galley id not in the battle, reactions for the enemy's galley."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pbem.exchange import intake
from pbem.signed import identity as ids
from pbem.game import writing
from pbem.game import session
from pbem.game import store
from pbem.game import ruleset as rulesets
from pbem.cli.demo import choose_orders
from tests.unit.test_cli_flow import fails, ok, pbem, snapshot


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Tauris between two folders, played by the demo player up to the guest's first activation."""
    root = tmp_path_factory.mktemp("tauris")
    keys = {"host": root / "ak", "guest": root / "bk"}
    me = {"host": ids.generate("alice", keys["host"]), "guest": ids.generate("bob", keys["guest"])}
    folders = {"host": root / "alice", "guest": root / "bob"}
    ruleset = rulesets.find("war-galley")
    invite = writing.make_invite(me["host"], "Alice", ruleset, "tauris", "caesarians", {})
    session.start(folders["host"], invite)
    _, accepted = session.accept(intake.one_file(folders["host"] / "000000.pbem"), folders["guest"], me["guest"], "Bob", 500)
    session.receive(folders["host"], intake.incoming(accepted))
    rng = random.Random(5)
    for _ in range(200):
        role = store.load(folders["host"]).next_author
        played = store.load(folders[role])
        view = writing.outlook(played, me[role])
        if view.pending.kind == "activate" and view.pending.side == played.player(role).side and role == "guest":
            break
        orders = choose_orders(ruleset, view.resolution.state, played.player(role).side, rng)
        path, _, _ = session.move(folders[role], me[role], orders, "", keys[role])
        session.receive(folders["guest" if role == "host" else "host"], intake.incoming(path))
    return {"bob": (folders["guest"], keys["guest"]), "alice": (folders["host"], keys["host"])}


def test_legal_for_one_galley_lists_ratings_mp_end_positions_and_targets(game) -> None:
    folder, keys = game["bob"]
    text = ok(pbem("legal", str(folder), "R4-1", keys=keys))
    assert text.startswith("R4-1 (pompeians, type 4)")
    assert "Crew 2" in text and "movement points now:" in text and "end positions:" in text
    data = json.loads(ok(pbem("legal", str(folder), "R4-1", "--json", keys=keys)))
    assert set(data) == {"galley", "side", "type", "position", "ratings", "markers", "mp", "reaches",
                         "reaches_total", "targets"}
    assert data["reaches"][0]["mp"] == 0 and data["reaches"][0]["path"] == ""
    assert all(r["mp"] <= 8 for r in data["reaches"]) and data["reaches_total"] >= len(data["reaches"])
    # the enemy's galleys may be looked at too (their ratings are printed on the counters)
    assert json.loads(ok(pbem("legal", str(folder), "G5-86", "--json", keys=keys)))["side"] == "caesarians"


def test_legal_json_without_galley_lists_the_decisions(game) -> None:
    folder, keys = game["bob"]
    data = json.loads(ok(pbem("legal", str(folder), "--json", keys=keys)))
    assert data["pending"]["kind"] == "activate" and data["pending"]["yours"] is True
    assert data["decisions"] and all({"order", "decision"} == set(d) for d in data["decisions"])
    assert data["decisions"][0]["decision"]["kind"] == "activate"


def test_a_galley_not_in_the_battle_is_refused_by_name(game) -> None:
    folder, keys = game["bob"]
    before = snapshot(folder)
    fails(pbem("legal", str(folder), "R4-9", keys=keys), 2, "R4-9 is not a galley of this battle")
    malformed = pbem("legal", str(folder), "Z9", keys=keys)
    fails(malformed, 2, "not a galley id: 'Z9'")
    assert malformed.stderr.count("Z9") == 1, malformed.stderr  # named once, not by every layer it passed
    # refused by name at reading (engine.war_galley.turn.references) or before the rules (engine.war_galley.play.order_errors)
    for typed in (["activate Cleomacles: R4-9 cruise 2: F F"], ["reactions: R4-9: avoid=never", "activate Varus:"]):
        result = pbem("move", str(folder), *typed, keys=keys)
        fails(result, 11, "R4-9")
        assert "in this battle" in result.stderr
    fails(pbem("move", str(folder), "reactions: G5-86: avoid=never", "activate Varus:", keys=keys), 11,
          "G5-86 is the enemy's galley")
    listed = json.loads(ok(pbem("legal", str(folder), "--json", keys=keys)))["decisions"]
    order = next(d["order"] for d in listed if len(d["decision"].get("plans", ())) >= 2)
    head, plans = order.split(": ", 1)
    first, second = plans.split("; ")[:2]
    wrong = second.split(" ")[0]
    fails(pbem("move", str(folder), f"{head}: {first}; {wrong} cruise 9: F", keys=keys), 11, wrong)
    assert snapshot(folder) == before


def test_the_draft_goes_back_through_move_as_it_stands(game, tmp_path: Path) -> None:
    folder, keys = game["bob"]
    printed = ok(pbem("orders", str(folder), keys=keys))
    assert printed.splitlines()[0].startswith("# turn ") and "activate" in printed
    draft = tmp_path / "draft.txt"
    ok(pbem("orders", str(folder), "--out", str(draft), keys=keys))
    assert draft.read_text() == printed
    fails(pbem("orders", str(folder), "--out", str(draft), keys=keys), 2, "exists")
    lines = [line for line in printed.splitlines() if line and not line.startswith("#")]
    assert len(lines) == 1  # one decision line; the options are comments
    # an edited draft: the first option replaced by a commented one, uncommented
    option = next(line[2:] for line in printed.splitlines() if line.startswith("# activate") and ":" in line
                  and line.rstrip()[-1] != ":")
    edited = tmp_path / "edited.txt"
    edited.write_text(printed.replace(lines[0] + "\n", "").replace("# " + option + "\n", option + "\n"))
    before = snapshot(folder)
    written = ok(pbem("move", str(folder), "--orders", str(edited), keys=keys))
    assert "wrote" in written and "(1 decision)" in written
    signed = sorted(folder.glob("*.pbem"))[-1]
    recorded = json.loads(signed.read_bytes().split(b"\n")[0])["decisions"]
    game_ = store.load(folder)
    assert [game_.ruleset.format_order(d) for d in recorded] == [option]
    signed.unlink()  # undo: the file was never sent
    assert snapshot(folder) == before


def test_board_lists_every_galley_with_facing_and_markers(game) -> None:
    folder, keys = game["alice"]  # not Alice's turn: she sees the last resolved state
    text = ok(pbem("board", str(folder), keys=keys))
    assert text.startswith("turn 1;") and "G5-86" in text and "facing" in text and "Cruise Speed" in text
    data = json.loads(ok(pbem("board", str(folder), "--json", keys=keys)))
    assert [s["side"] for s in data["sides"]] == ["caesarians", "pompeians"]
    galley = data["sides"][0]["galleys"][0]
    assert set(galley) == {"galley", "type", "position", "facing", "markers", "commanders"}
