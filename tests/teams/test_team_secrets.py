"""A side's secret choices (10.0) are known to its own seats only (issue 26): Actium by two a side, the
Antonians' lead commits to his Treasure Ship, his teammate reads it, the Octavians cannot."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pbem.cli.demo import choose_seat_orders
from pbem.errors import KeyProblem, OtherSeat
from pbem.exchange import intake
from pbem.game import ruleset as rulesets
from pbem.game import session, store, writing
from pbem.signed import identity as ids
from pbem.signed import seals
from pbem.signed.movefile import Roster, Seat

PEOPLE = {"octa": ("octavians", ["Agrippa", "Octavian", "Aruntius"]),
          "octb": ("octavians", ["Lurius", "Agricola", "Drusus"]),
          "anta": ("antonians", ["Antony", "Cleopatra", "Publicola", "Insteius"]),
          "antb": ("antonians", ["M. Octavius", "Sosius", "Cleomacles", "Acco"])}


def test_a_sides_committed_value_is_read_by_its_seats_and_by_no_opponent(tmp_path: Path) -> None:
    ruleset = rulesets.find("war-galley")
    me = {p: ids.generate(p, tmp_path / "keys" / p) for p in PEOPLE}
    roster = Roster([Seat(p, p.title(), side, me[p].public_b64, commands) for p, (side, commands) in PEOPLE.items()],
                    {"octavians": "octa", "antonians": "anta"})
    invite = writing.make_invite(me["octa"], "Octa", ruleset, "actium", "octavians", {}, roster=roster)
    invite_path = session.start(tmp_path / "octa", invite)
    joined = {p: writing.take_seat(invite, me[p], p) for p in ("octb", "antb")}
    _, accept_path = session.accept(intake.one_file(invite_path), tmp_path / "anta", me["anta"], "Anta", 1000, joined)
    for p in ("octb", "antb"):
        session.start(tmp_path / p, invite)
    for p in PEOPLE:
        if p != "anta":
            session.receive(tmp_path / p, intake.incoming(accept_path))
    chooser = random.Random(1)
    sealed_in = None
    for _ in range(6):  # the set-up: each side deploys, the Antonians commit to the Treasure Ship
        game = store.load(tmp_path / "octa")
        side = game.player(game.next_author).side
        for person in (p for p, (s, _) in PEOPLE.items() if s == side):
            try:
                view = writing.outlook(store.load(tmp_path / person), me[person])
            except OtherSeat:
                continue
            break
        mine = store.load(tmp_path / person)
        orders, hand = choose_seat_orders(ruleset, view.resolution.state, mine.team, view.seat, chooser)
        path, signed, _ = session.move(tmp_path / person, me[person], orders, "", tmp_path / "keys" / person, hand=hand)
        if signed.body.sealed:
            sealed_in = signed.body.seq
            assert any(o.startswith("commit treasure:") for o in orders) and b"R5-" not in signed.raw.split(b'"sealed"')[1][:10]
        for other in PEOPLE:
            if other != person:
                session.receive(tmp_path / other, intake.incoming(path))
    assert sealed_in is not None
    committed = writing.side_secrets(store.load(tmp_path / "anta"), me["anta"])
    assert list(committed) == ["treasure"]
    assert writing.side_secrets(store.load(tmp_path / "antb"), me["antb"]) == committed  # the teammate knows it
    assert writing.side_secrets(store.load(tmp_path / "octb"), me["octb"]) == {}  # his own side's: none
    game = store.load(tmp_path / "octb")
    with pytest.raises(KeyProblem):  # the Octavians' chain does not open the Antonians' box
        seals.open_for_side(writing.side_seed(game, me["octb"], "host"), writing.secrets_context(game.game_id, sealed_in),
                            game.files[sealed_in].body.sealed, "file")
