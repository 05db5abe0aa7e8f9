"""Team games for the tests, played through the real protocol: four people, four key folders, four game
folders, every file received by every seat (docs/protocol.md, "Team games").

Tauris (47 B.C.) by two players a side: the Caesarians' Alice (Publius Vatinius, the Admiral, and
Drusus) and Carol (Agricola's Lembi); the Pompeians' Bob (Marcus Octavius, the Admiral, and Varus) and
Dave (Cleomacles).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import OtherSeat
from pbem.cli.demo import choose_seat_orders
from pbem.exchange import intake
from pbem.game import session, store, writing
from pbem.game import ruleset as rulesets
from pbem.signed import identity as ids
from pbem.signed.movefile import Roster, Seat

PEOPLE = {  # key name: (name, side, commands); the first of a side leads it
    "alice": ("Alice", "caesarians", ["Publius Vatinius", "Drusus"]),
    "carol": ("Carol", "caesarians", ["Agricola"]),
    "bob": ("Bob", "pompeians", ["Marcus Octavius", "Varus"]),
    "dave": ("Dave", "pompeians", ["Cleomacles"]),
}


@dataclass
class TeamGame:
    root: Path
    me: dict[str, ids.Identity] = field(default_factory=dict)

    def keys(self, person: str) -> Path:
        return self.root / "keys" / person

    def folder(self, person: str) -> Path:
        return self.root / person


def roster_for(me: dict[str, ids.Identity], addresses: dict[str, str] | None = None) -> Roster:
    seats = [Seat(person, name, side, me[person].public_b64, commands, (addresses or {}).get(person, ""))
             for person, (name, side, commands) in PEOPLE.items()]
    return Roster(seats, {"caesarians": "alice", "pompeians": "bob"})


def start(root: Path) -> TeamGame:
    """Keys, the invitation, every seat's acceptance, file 1: every folder holds files 0 and 1."""
    game = TeamGame(root)
    game.me = {person: ids.generate(person, game.keys(person)) for person in PEOPLE}
    ruleset = rulesets.find("war-galley")
    invite = writing.make_invite(game.me["alice"], "Alice", ruleset, "tauris", "caesarians", {},
                                 roster=roster_for(game.me))
    invite_path = session.start(game.folder("alice"), invite)
    joined = {person: writing.take_seat(invite, game.me[person], person) for person in ("carol", "dave")}
    _, accept_path = session.accept(intake.one_file(invite_path), game.folder("bob"), game.me["bob"], "Bob",
                                    10_000, joined)
    for person in ("carol", "dave"):
        session.start(game.folder(person), invite)
    deliver(game, "bob", accept_path)
    return game


def deliver(game: TeamGame, author: str, path: Path) -> None:
    for person in PEOPLE:
        if person != author:
            session.receive(game.folder(person), intake.incoming(path))


def whose(game: TeamGame) -> str:
    """The person whose file comes next: the seat the rules and the roster give it to."""
    loaded = store.load(game.folder("alice"))
    side_of = {"host": "caesarians", "guest": "pompeians"}[loaded.next_author]
    for person, (_, side, _) in PEOPLE.items():
        if side != side_of:
            continue
        try:
            writing.outlook(store.load(game.folder(person)), game.me[person])
        except OtherSeat:
            continue
        return person
    raise AssertionError("no seat writes the next file")


def play(game: TeamGame, files: int, seed: int = 1) -> None:
    """Play on to `files` files (or the end), each seat choosing only for its own commands."""
    chooser = random.Random(seed)
    ruleset = rulesets.find("war-galley")
    while True:
        loaded = store.load(game.folder("alice"))
        if loaded.finished() or len(loaded.files) >= files:
            return
        person = whose(game)
        mine = store.load(game.folder(person))
        view = writing.outlook(mine, game.me[person])
        assert mine.team is not None and view.seat is not None
        orders, hand = choose_seat_orders(ruleset, view.resolution.state, mine.team, view.seat, chooser)
        path, _, _ = session.move(game.folder(person), game.me[person], orders, "", game.keys(person), hand=hand)
        deliver(game, person, path)

