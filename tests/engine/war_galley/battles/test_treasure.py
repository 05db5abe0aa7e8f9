"""Actium's Treasure Ship: written down in secret at set-up (commit), opened when the rules call for it.

The engine checks an opening with the protocol's formula (engine.war_galley.battles.secrets,
re-implemented: the engine never imports pbem); end to end, the commitment
travels in a signed file made by pbem's referee from the real `commit` line,
the audit (a replay of every file) accepts it, and pbem's `open` line opens it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from msgspec.structs import replace

from engine.errors import IllegalOrder
from engine.war_galley.battles import choices, secrets
from engine.war_galley.map_and_galleys.galley import Capture, parse_galley_id
from engine.war_galley.ruleset import RULESET
from pbem.signed import commitments
from pbem.game import referee
from pbem.game import writing
from pbem.signed import identity as ids
from pbem.game import ruleset as rulesets
from pbem.game.folder import write_atomic
from pbem.signed.movefile import file_name
from tests.engine.war_galley.scenario_support import SALT, SeededDice, apply, commit, deployed, opening

CHAIN = 64


def test_the_engine_formula_is_the_protocols() -> None:
    salt = bytes(range(32))
    assert secrets.commitment_hash(salt, "treasure", "R5-55") == commitments.commitment(salt, "treasure", "R5-55")


def test_commit_is_asked_after_the_antonian_deployment() -> None:
    state = deployed("actium")
    assert choices.wanted(state) is None and state.turn >= 1  # committed by the support code
    held = state.extra.commitments[0]
    assert held.side == "antonians" and held.label == "treasure" and held.value is None


def test_no_opening_before_the_rules_call_for_it_and_a_wrong_one_is_refused() -> None:
    state = deployed("actium", secret="RT-1")  # not even a Reserve galley: only the opening can tell
    reserve = [g for g, name in state.extra.groups if name == "Reserve"]
    dice = SeededDice(random.Random(0))
    with pytest.raises(IllegalOrder, match="no secret choice"):
        RULESET.apply(state, opening("treasure", "RT-1"), dice)
    taken = state.with_galley(replace(state.galley(reserve[0]), capture=Capture.CAPTURED))
    with pytest.raises(IllegalOrder, match="Actium, The Treasury.*not what was committed"):
        RULESET.apply(taken, opening("treasure", "R5-50"), dice)
    with pytest.raises(IllegalOrder, match="Actium, The Treasury.*Reserve"):
        RULESET.apply(taken, opening("treasure", "RT-1"), dice)


def test_a_captured_reserve_galley_that_is_not_the_treasure_ship_gives_nothing_more() -> None:
    state = deployed("actium")
    reserve = [g for g, name in state.extra.groups if name == "Reserve"]
    from engine.war_galley.battles.actium import example_values
    value = example_values(state)[0]
    other = next(g for g in reserve if str(g) != value)
    taken = state.with_galley(replace(state.galley(other), capture=Capture.CAPTURED))
    done = apply(taken, opening("treasure", value))
    assert not [a for a in done.awards if a.kind == "treasure"]
    assert done.extra.commitments[0].value == value


def _play_until_committed(folder: Path, keys: Path) -> tuple[referee.Game, dict[str, ids.Identity], str]:
    host, guest = ids.generate("octavia", keys), ids.generate("antonius", keys)
    ruleset = rulesets.find("war-galley")
    folder.mkdir(parents=True)
    invite = writing.make_invite(host, "Octavia", ruleset, "actium", "octavians", {}, chain_length=CHAIN)
    write_atomic(folder / file_name(0), invite.raw)
    game = referee.replay([invite.raw], [str(folder / file_name(0))])
    accept = writing.make_accept(game, guest, "Antonius", CHAIN)
    referee.admit(game, accept, str(folder / file_name(1)))
    write_atomic(folder / file_name(1), accept.raw)
    me = {"host": host, "guest": guest}
    treasure = ""
    for _ in range(12):
        role = game.next_author
        view = writing.outlook(game, me[role])
        player = game.player(role)
        decisions: list[Any] = []
        if view.pending.side == player.side:
            state = view.resolution.state
            want = choices.wanted(state)
            if want is not None:
                reserve = [g for g, name in state.extra.groups if name == "Reserve"]
                treasure = str(reserve[3])
                line = f"commit treasure: {treasure}"
                decisions = [commitments.decision(line, me[role], game.game_id, player.nonce, keys, remember=False)]
            elif view.pending.kind == "deploy":
                decisions = [RULESET.legal(state)[0]]
            else:
                return game, me, treasure
        signed = writing.make_move(game, me[role], decisions, "")
        path = folder / file_name(signed.body.seq)
        referee.admit(game, signed, str(path))
        write_atomic(path, signed.raw)
    raise AssertionError("the game never reached turn 1")


def test_commit_and_open_end_to_end_through_pbem(tmp_path: Path) -> None:
    folder, keys = tmp_path / "game", tmp_path / "keys"
    game, me, treasure = _play_until_committed(folder, keys)
    raws = [p.read_bytes() for p in sorted(folder.glob("*.pbem"))]
    audited = referee.replay(raws, [str(p) for p in sorted(folder.glob("*.pbem"))])  # the audit
    state = audited.resolved_state
    held = state.extra.commitments[0]
    assert held.side == "antonians" and held.value is None
    taken = state.with_galley(replace(state.galley(parse_galley_id(treasure)), capture=Capture.CAPTURED))
    guest = audited.player("guest")
    right = commitments.decision(f"open treasure: {treasure}", me["guest"], audited.game_id, guest.nonce, keys,
                                 remember=False)
    done, events = RULESET.apply(taken, right, SeededDice(random.Random(0)))
    assert any(a.kind == "treasure" and a.vp == 15 for a in done.awards)
    assert RULESET.format_order(right) == f"open treasure: {treasure}"
    wrong = commitments.decision("open treasure: R5-50", me["guest"], audited.game_id, guest.nonce, keys,
                                 remember=False)
    with pytest.raises(IllegalOrder, match="Actium"):
        RULESET.apply(taken, wrong, SeededDice(random.Random(0)))
    assert commit("treasure", treasure)["hash"] != held.hash  # the salt is the player's, not the test's


def test_the_listing_shows_commit_lines_a_player_can_type_and_refuses_them_unsealed() -> None:
    state, _ = RULESET.advance(RULESET.new_game(RULESET.builtin_scenario("actium"), RULESET.default_rules_data(), {}),
                               SeededDice(random.Random(1)))
    dice = SeededDice(random.Random(2))
    while choices.wanted(state) is None:
        state = apply(state, RULESET.legal(state)[0], dice)
    listed = RULESET.legal(state)
    lines = [RULESET.format_order(d) for d in listed]
    assert lines and all(line.startswith("commit treasure: R") for line in lines)
    assert all(commitments.is_secret_line(line) for line in lines)  # pbem seals exactly these lines
    with pytest.raises(IllegalOrder, match="pbem seals it"):
        RULESET.apply(state, listed[0], dice)
    # The demo player picks one of them too.
    assert RULESET.format_order(RULESET.choose(state, "antonians", random.Random(0))) in lines


def _committed_to(state: Any, hash_: str) -> Any:
    """The state with the Antonians' treasure commitment replaced by one of the given hash (a hostile player
    writes any hash he likes into his file: only the opening is checked)."""
    from engine.war_galley.turn.extra import with_extra
    from engine.war_galley.turn.state import Commitment

    return with_extra(state, commitments=(Commitment("antonians", "treasure", hash_),))


def test_one_commitment_cannot_be_opened_two_ways() -> None:
    """Issue 22: with a salt of any length `salt || label || 0x00 || value` cuts in two places, so one hash
    opens as two values. The salt is 32 bytes in 64 lowercase hex digits (docs/protocol.md), nothing else."""
    state = deployed("actium")
    longer = SALT + b"treasure\x00"  # the longer salt swallows the shorter one's value up to the label
    two_ways = secrets.commitment_hash(longer, "treasure", "R5-55")
    assert two_ways == secrets.commitment_hash(SALT, "treasure", "treasure\x00R5-55")  # the same bytes hashed
    held = _committed_to(state, two_ways)
    with pytest.raises(IllegalOrder, match="salt is 64 lowercase hex digits"):
        secrets.open_(held, "antonians", secrets.Secret("open", "treasure", salt=longer.hex(), value="R5-55"), "X")
    # the other cut has the salt's one length, and opens (the rules then judge its value)
    opened, commitment, _ = secrets.open_(
        held, "antonians", secrets.Secret("open", "treasure", salt=SALT.hex(), value="treasure\x00R5-55"), "X")
    assert commitment.value == "treasure\x00R5-55" and opened.extra.commitments[0].value == commitment.value


@pytest.mark.parametrize("salt", [SALT[:31].hex(), SALT.hex() + "00", "", SALT.hex().upper(),
                                  " ".join(SALT.hex()[i:i + 2] for i in range(0, 64, 2)), SALT.hex()[:-1] + "g"])
def test_a_salt_of_another_length_or_spelling_is_refused(salt: str) -> None:
    """Upper case and spaces spelt the right bytes (bytes.fromhex read them): one opening, several files."""
    held = _committed_to(deployed("actium"), secrets.commitment_hash(SALT, "treasure", "R5-55"))
    with pytest.raises(IllegalOrder, match="salt is 64 lowercase hex digits"):
        secrets.open_(held, "antonians", secrets.Secret("open", "treasure", salt=salt, value="R5-55"), "X")
    right = secrets.Secret("open", "treasure", salt=SALT.hex(), value="R5-55")
    assert secrets.open_(held, "antonians", right, "X")[1].value == "R5-55"
