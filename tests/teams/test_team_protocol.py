"""Team games (issue 26; docs/protocol.md, "Team games"): authority anyone can verify, dice nobody can bend.

Four people play Tauris two a side through the real protocol (tests.teams.games); every bad file is
refused with its own error, one line naming what and why, and leaves the receiving folder as it was.
"""

from __future__ import annotations

import base64
import shutil
from msgspec.structs import replace
from pathlib import Path
from typing import Any

import msgspec
import pytest

from pbem.errors import BadSignature, Equivocation, MalformedFile, NotYourCommand, PbemError, WrongTurn
from pbem.game import referee, session, store, writing
from pbem.game import ruleset as rulesets
from pbem.signed import identity as ids
from pbem.signed import movefile
from pbem.signed.movefile import Move, Roster, Seat
from tests.teams import games

FILES = 24  # past set-up, into the first game turn's activations


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> games.TeamGame:
    game = games.start(tmp_path_factory.mktemp("team"))
    games.play(game, FILES)
    return game


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.pbem"))}


def _refused(game: games.TeamGame, person: str, raw: bytes, error: type[PbemError]) -> str:
    before = _files(game.folder(person))
    with pytest.raises(error) as caught:
        session.receive(game.folder(person), [(raw, "forged.pbem")])
    assert _files(game.folder(person)) == before  # the folder as it was
    message = str(caught.value)
    assert "\n" not in message and message.startswith("forged.pbem")
    return message


def _forged(game: games.TeamGame, person: str, seat: str, decisions: list[Any]) -> bytes:
    """The next file as `person` signs it naming `seat`, with his own side's next reveal and that reveal's
    outcome: only who signs it and what it decides are wrong (writing.make_move would refuse to write it)."""
    from pbem.signed import chain

    loaded = store.load(game.folder(person))
    me = game.me[person]
    mine = writing.my_role(loaded, me)
    player = loaded.player(mine)
    reveal = chain.reveal(writing.side_seed(loaded, me, mine), player.chain, loaded.reveals_made(mine) + 1)
    resolved = referee.resolve(loaded, loaded.next_seq - 1, reveal)
    body = Move(pbem=1, game=loaded.game_id, seq=loaded.next_seq, prev=loaded.files[-1].hash_hex,
                author=loaded.next_author, time=writing.now(), reveal=reveal.hex(), rolls=resolved.rolls,
                state=referee.state_hash(loaded.ruleset.state_bytes(resolved.state)), decisions=decisions,
                note="", seat=seat)
    return movefile.sign(body, me).raw


def test_four_folders_hold_the_same_game_and_each_verifies_from_scratch(played: games.TeamGame) -> None:
    raws = {person: _files(played.folder(person)) for person in games.PEOPLE}
    assert len(raws["alice"]) == FILES and all(r == raws["alice"] for r in raws.values())
    names = sorted(raws["alice"])
    game = referee.replay([raws["alice"][n] for n in names], names)  # every check, no cache
    seats = {f.body.seat for f in game.files[2:]}
    assert {"alice", "bob"} <= seats and seats & {"carol", "dave"}  # a squadron's seat wrote its own orders


def test_every_decision_was_signed_by_the_seat_holding_its_command(played: games.TeamGame) -> None:
    game = store.load(played.folder("dave"), use_cache=False)
    assert game.team is not None
    checked = 0
    for seq in range(2, len(game.files) - 1):
        body = game.files[seq].body
        seat = game.team.by_id[body.seat]
        state = game.state_before(seq)
        for decision in body.decisions:
            concerned = game.ruleset.commands_of(state, decision)
            assert set(concerned) <= set(seat.commands) if concerned else game.team.roster.lead[seat.side] == seat.seat
            checked += 1
            try:
                state, _ = game.ruleset.apply(state, decision, referee.SealedDice())
            except Exception:
                break
    assert checked > 5


def test_a_decision_for_a_teammates_command_is_refused_naming_both(tmp_path: Path) -> None:
    game = games.start(tmp_path)
    ruleset = rulesets.find("war-galley")
    # play on until the Caesarians' lead writes while Agricola (Carol's) may act: Alice orders his Lembi
    for _ in range(200):
        loaded = store.load(game.folder("alice"))
        person = games.whose(game)
        view = writing.outlook(store.load(game.folder(person)), game.me[person])
        state = view.resolution.state
        if person == "alice" and view.pending.side == "caesarians":
            theirs = [d for d in ruleset.legal(state) if ruleset.commands_of(state, d) == ["Agricola"]]
            if theirs:
                raw = _forged(game, "alice", "alice", [theirs[0]])
                message = _refused(game, "bob", raw, NotYourCommand)
                assert "Agricola" in message and "seat carol (Carol" in message and "seat alice (Alice" in message
                return
        games.play(game, len(loaded.files) + 1)
    raise AssertionError("the Caesarians' lead never wrote while Agricola could act")


def test_a_teammate_writing_the_leads_file_is_refused_naming_both(played: games.TeamGame, tmp_path: Path) -> None:
    loaded = store.load(played.folder("alice"))
    person = games.whose(played)
    side = games.PEOPLE[person][1]
    other = next(p for p, (_, s, _) in games.PEOPLE.items() if s == side and p != person)
    raw = _forged(played, other, other, [])
    message = _refused(played, next(p for p in games.PEOPLE if games.PEOPLE[p][1] != side), raw, WrongTurn)
    assert f"seat {person} (" in message and f"seat {other} (" in message
    assert len(loaded.files) == len(store.load(played.folder("alice")).files)


def test_a_seat_cannot_key_its_own_sides_dice(played: games.TeamGame) -> None:
    """The file that resolves a side's decisions is the other side's: a seat of the deciding side that writes
    it (as its own seat, or as an opponent's) is refused before any die is rolled."""
    person = games.whose(played)
    side = games.PEOPLE[person][1]
    teammate = next(p for p, (_, s, _) in games.PEOPLE.items() if s != side)  # of the side that decided last
    message = _refused(played, person, _forged(played, teammate, teammate, []), WrongTurn)
    assert "no seat writes the file that keys its own side's dice" in message
    opponent_seat = person
    _refused(played, "alice" if person != "alice" else "bob", _forged(played, teammate, opponent_seat, []), BadSignature)


def test_an_equivocating_seat_is_proven(played: games.TeamGame, tmp_path: Path) -> None:
    game = store.load(played.folder("alice"))
    seq = len(game.files) - 1
    existing = game.files[seq]
    body = existing.body
    assert isinstance(body, Move)
    author = body.seat
    other = movefile.sign(replace(body, note="a second thought"), played.me[author])
    with pytest.raises(Equivocation) as caught:
        session.receive(played.folder("dave" if author != "dave" else "carol"), [(other.raw, "second.pbem")])
    assert f"seat {author} (" in str(caught.value) and "EQUIVOCATION" in str(caught.value)


# ----- the roster and the seats' acceptances -------------------------------------------------------


def _keys(tmp_path: Path) -> dict[str, ids.Identity]:
    return {p: ids.generate(p, tmp_path / "k" / p) for p in games.PEOPLE}


@pytest.mark.parametrize(("change", "words"), [
    (lambda seats: [replace(seats[0], commands=["Publius Vatinius", "Drusus", "Agricola"]), *seats[1:]],
     "Agricola (caesarians) must be held by exactly one seat"),
    (lambda seats: [replace(seats[0], commands=["Publius Vatinius"]), *seats[1:]],
     "Drusus (caesarians) must be held by exactly one seat, not 0"),
    (lambda seats: [seats[0], replace(seats[1], commands=["Marcus Octavius"]), *seats[2:]],
     "holds 'Marcus Octavius', not a command of the caesarians"),
    (lambda seats: [seats[0], replace(seats[1], key=seats[3].key), *seats[2:]], "one key sits on both sides"),
])
def test_a_bad_roster_is_refused_at_file_0(tmp_path: Path, change: Any, words: str) -> None:
    keys = _keys(tmp_path)
    roster = games.roster_for(keys)
    bad = Roster(change(list(roster.seats)), roster.lead)
    with pytest.raises(MalformedFile) as caught:
        writing.make_invite(keys["alice"], "Alice", rulesets.find("war-galley"), "tauris", "caesarians", {},
                            roster=bad)
    assert words in str(caught.value)


def test_the_host_must_lead_his_side(tmp_path: Path) -> None:
    keys = _keys(tmp_path)
    roster = games.roster_for(keys)
    with pytest.raises(MalformedFile, match="the host must sit in his side's lead seat"):
        writing.make_invite(keys["carol"], "Carol", rulesets.find("war-galley"), "tauris", "caesarians", {},
                            roster=roster)


def test_the_game_begins_only_when_every_seat_has_taken_its_place(tmp_path: Path) -> None:
    keys = _keys(tmp_path)
    invite = writing.make_invite(keys["alice"], "Alice", rulesets.find("war-galley"), "tauris", "caesarians", {},
                                 roster=games.roster_for(keys))
    game = referee.replay([invite.raw], ["000000.pbem"])
    with pytest.raises(MalformedFile, match=r"seat\(s\) dave have not joined"):
        writing.make_accept(game, keys["bob"], "Bob", 100, {"carol": writing.take_seat(invite, keys["carol"], "carol")})
    forged = base64.b64encode(keys["bob"].sign(b"not dave's")).decode()
    with pytest.raises(BadSignature):
        writing.make_accept(game, keys["bob"], "Bob", 100,
                            {"carol": writing.take_seat(invite, keys["carol"], "carol"), "dave": forged})
    with pytest.raises(PbemError, match="lead seat"):
        writing.make_accept(game, keys["dave"], "Dave", 100, {})


def test_a_two_player_file_naming_a_seat_is_refused(tmp_path: Path) -> None:
    from tests.reports.games import play

    host = play(tmp_path, "war-galley", "tauris", 3)
    raw = (host / "000002.pbem").read_bytes()
    body = msgspec.json.decode(raw.split(b"\n")[0])
    assert "seat" not in body and "hand" not in body  # two-player files as they always were
    guest = tmp_path / "guest"
    game = store.load(guest)
    signed = game.files[2]
    assert isinstance(signed.body, Move)
    host_key = ids.load("host", tmp_path / "keys" / "host")
    other = movefile.sign(replace(signed.body, seat="alice", note="x"), host_key)
    with pytest.raises(MalformedFile, match="played by two players, not teams"):
        referee.admit(referee.replay([game.files[0].raw, game.files[1].raw], ["0", "1"]), other, "x.pbem")


def test_roster_form_round_trips_and_two_player_invitations_carry_none(tmp_path: Path) -> None:
    keys = _keys(tmp_path)
    invite = writing.make_invite(keys["alice"], "Alice", rulesets.find("war-galley"), "tauris", "caesarians", {},
                                 roster=games.roster_for(keys, {"carol": "carol@example.org"}))
    again = movefile.parse(invite.raw, "0")
    assert again.body == invite.body and again.raw == invite.raw
    assert isinstance(again.body.roster, Roster) and isinstance(again.body.roster.seats[1], Seat)
    assert b'"address":""' not in invite.raw and b'"address":"carol@example.org"' in invite.raw
    plain = writing.make_invite(keys["alice"], "Alice", rulesets.find("war-galley"), "tauris", "caesarians", {})
    assert b"roster" not in plain.raw and b"seals" not in plain.raw


# ----- a seat changes hands ----------------------------------------------------------------------


@pytest.mark.long
def test_a_seat_changes_hands_by_files_both_sides_sign(tmp_path: Path) -> None:
    """Carol drops out: Alice's side proposes Erin for seat carol, the Pompeians' next file accepts it; from
    then on Erin's key writes seat carol's files and Carol's is refused; every folder verifies."""
    game = games.start(tmp_path)
    games.play(game, 8)
    erin = ids.generate("erin", tmp_path / "keys" / "erin")
    while games.PEOPLE[games.whose(game)][1] != "caesarians":
        games.play(game, len(store.load(game.folder("alice")).files) + 1)
    person = games.whose(game)
    path, signed, _ = session.move(game.folder(person), game.me[person], [], "", game.keys(person),
                                   seat_change=("carol", "Erin", erin.public_b64, "erin@example.org"))
    assert signed.body.seat_change is not None
    games.deliver(game, person, path)
    accepter = games.whose(game)
    assert games.PEOPLE[accepter][1] == "pompeians"
    path, signed, _ = session.move(game.folder(accepter), game.me[accepter], [], "", game.keys(accepter),
                                   accept_seat=True)
    games.deliver(game, accepter, path)
    loaded = store.load(game.folder("dave"))
    assert loaded.team is not None and loaded.team.by_id["carol"].key == erin.public_b64
    assert loaded.team.by_id["carol"].name == "Erin" and loaded.seat_changes == [len(loaded.files) - 1]
    # the side's chain, sealed to Erin in the proposing file, opens with her key to the lead's own seed
    assert writing.side_seed(loaded, erin, "host") == writing.side_seed(loaded, game.me["alice"], "host")
    # Erin follows the game in her own folder and writes seat carol's files from now on
    shutil.copytree(game.folder("carol"), tmp_path / "erin", ignore=shutil.ignore_patterns(".pbem-*", "report"))
    game.me["carol"] = erin
    (tmp_path / "keys" / "carol").rename(tmp_path / "keys" / "carol-old")
    shutil.copytree(tmp_path / "keys" / "erin", tmp_path / "keys" / "carol")
    shutil.rmtree(game.folder("carol"))
    (tmp_path / "erin").rename(game.folder("carol"))
    start = len(loaded.files)
    games.play(game, start + 30)
    replayed = store.load(game.folder("alice"), use_cache=False)  # every check, the roster's change included
    later = [f.body for f in replayed.files[start:] if f.body.seat == "carol"]
    if later:  # whenever seat carol wrote again, Erin's key signed it
        assert all(ids.same_key(replayed.team.by_id["carol"].key, erin.public_b64) for _ in later)
    old = ids.load("carol", tmp_path / "keys" / "carol-old")
    assert not any(ids.same_key(seat.key, old.public_b64) for seat in replayed.team.roster.seats)


def test_an_unanswered_seat_change_lapses_and_a_stray_acceptance_is_refused(played: games.TeamGame,
                                                                               tmp_path: Path) -> None:
    loaded = store.load(played.folder("alice"))
    person = games.whose(played)
    raw = _forged(played, person, person, [])
    body = movefile.parse(raw, "x").body
    stray = movefile.sign(replace(body, accept_seat="ab" * 32), played.me[person]).raw
    _refused(played, next(p for p in games.PEOPLE if p != person), stray, MalformedFile)
    assert len(store.load(played.folder("alice")).files) == len(loaded.files)
