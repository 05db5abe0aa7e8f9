"""Issue 26's acceptance: a team game by real mail, four homes (aiosmtpd and dovecot on loopback).

Tauris two a side: Alice (Caesarians' lead: Publius Vatinius, Drusus) and Carol (Agricola); Bob
(Pompeians' lead: Marcus Octavius, Varus) and Dave (Cleomacles). Alice writes the roster and mails the
invitation to every seat; Carol and Dave take their seats with the command `pbem mail` prints (`pbem
join ID --seat ...`), which mails each acceptance to Bob; Bob's `pbem mail` collects them and his `pbem
accept ID` carries them in file 1, mailed to all. From then on each person only runs `pbem mail --once`
and, when it says "your decision", `pbem move` with the demo seat's orders (each for his own commands):
every file goes to every seat, acknowledgements are written by pbem mail itself. Once both leads and a
squadron's own seat have ordered, nobody decides again and the mail in flight is read until none is left: the four
folders then hold the same files and each verifies.
"""

from __future__ import annotations

import random
import re
import shlex
from pathlib import Path

import pytest

from tests.in_process import run
from pbem.cli.demo import choose_seat_orders
from pbem.game import store, writing
from pbem.signed import identity as ids
from pbem.signed.movefile import Move

from .conftest import USERS, MailSystem

FILES = 10  # past the set-up; then on until both leads and a squadron commander's own seat have given orders
SEATS = {  # person: (side, commands)
    "alice": ("caesarians", ["Publius Vatinius", "Drusus"]),
    "carol": ("caesarians", ["Agricola"]),
    "bob": ("pompeians", ["Marcus Octavius", "Varus"]),
    "dave": ("pompeians", ["Cleomacles"]),
}


def _seats_that_ordered(folder: Path) -> set[str]:
    game = store.load(folder)
    return {f.body.seat for f in game.files[2:] if isinstance(f.body, Move) and f.body.decisions}


def _far_enough(folder: Path) -> bool:
    """Both leads have ordered and so has a squadron commander's own seat."""
    seats = _seats_that_ordered(folder)
    return {"alice", "bob"} <= seats and bool(seats & {"carol", "dave"})


def test_four_homes_play_a_team_game_by_mail(mail_system: MailSystem, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    for user, password in USERS.items():
        monkeypatch.setenv(f"TEST_{user.upper()}_MAIL_PASSWORD", password)
    keys = {user: tmp_path / f"{user}-keys" for user in SEATS}
    me = {user: ids.generate(user, keys[user]) for user in SEATS}
    configs = {user: mail_system.settings(user, {}, tmp_path) for user in SEATS}
    games = {user: tmp_path / f"{user}-tauris" for user in SEATS}

    def cli(user: str, *args: str) -> str:
        return run(*args, "--keys", str(keys[user]))

    def mail(user: str) -> str:
        return cli(user, "mail", "--once", "--config", str(configs[user]))

    roster = tmp_path / "roster.toml"
    roster.write_text("".join(
        f'[[seat]]\nseat = "{u}"\nname = "{u.title()}"\nside = "{side}"\nkey = "{me[u].public_b64}"\n'
        f'commands = [{", ".join(repr(c).replace(chr(39), chr(34)) for c in commands)}]\n'
        f'address = "{mail_system.address(u)}"\n' for u, (side, commands) in SEATS.items()))
    cli("alice", "new", "tauris", "--side", "caesarians", "--name", "Alice", "--out", str(games["alice"]),
        "--roster", str(roster))
    sent = cli("alice", "send", str(games["alice"]), "--config", str(configs["alice"]))
    assert all(mail_system.address(u) in sent for u in ("bob", "carol", "dave")), sent

    for user in ("carol", "dave"):  # each takes his seat with the command pbem mail prints
        offered = mail(user)
        (command,) = re.findall(r"not your side's lead: (pbem join \S+ --seat SEAT --out NEW-FOLDER)", offered)
        argv = shlex.split(command)[1:]
        argv[argv.index("SEAT")] = user
        argv[argv.index("NEW-FOLDER")] = str(games[user])
        joined = cli(user, *argv, "--config", str(configs[user]))
        assert f"mailed your acceptance to {mail_system.address('bob')}" in joined, joined
    offered = mail("bob")
    assert "seat carol has taken its place" in offered and "seats joined: carol, dave" in offered, offered
    (command,) = re.findall(r"once every seat has joined: (pbem accept .*)$", offered, re.M)
    argv = shlex.split(command)[1:]
    argv[argv.index("NEW-FOLDER")] = str(games["bob"])
    argv[argv.index("YOUR-NAME")] = "Bob"
    accepted = cli("bob", *argv)
    assert "mailed 000001.pbem to" in accepted and mail_system.address("dave") in accepted, accepted

    chooser = random.Random(26)
    settling = False  # once far enough, nobody decides again: the mail in flight is read until none is left
    for _ in range(400):
        progressed = False
        for user in SEATS:
            before = len(list(games[user].glob("*.pbem")))
            said = mail(user)
            progressed |= len(list(games[user].glob("*.pbem"))) != before or bool(re.search(r"sent \d{6}\.pbem", said))
            if "your decision" in said and not settling:
                game = store.load(games[user])
                view = writing.outlook(game, me[user])
                assert game.team is not None and view.seat is not None and view.seat.seat == user
                orders, hand = choose_seat_orders(game.ruleset, view.resolution.state, game.team, view.seat, chooser)
                assert orders or hand, said
                cli(user, "move", str(games[user]), *orders, *(["--hand", hand] if hand else []))
                progressed = True
        if settling and not progressed:
            break
        settling = settling or (len(list(games["alice"].glob("*.pbem"))) >= FILES and _far_enough(games["alice"]))
    else:
        pytest.fail("the team game over mail did not settle")

    files = {user: [p.read_bytes() for p in sorted(games[user].glob("*.pbem"))] for user in SEATS}
    assert len(files["alice"]) >= FILES and all(f == files["alice"] for f in files.values()), {
        user: len(f) for user, f in files.items()}
    for user in SEATS:
        assert "ok: game" in run("verify", str(games[user]))
    assert _far_enough(games["dave"]), _seats_that_ordered(games["dave"])  # a squadron's own seat ordered it
