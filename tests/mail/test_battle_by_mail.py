"""Issue 24's acceptance: two game turns of Tauris by real mail, from an invitation sent by mail.

Real aiosmtpd and dovecot on loopback (tests/mail/conftest.py). Neither
player has a [games] entry: Bob learns of the game from the invitation
mail (`pbem mail` lists it with the command that accepts it, and that
command, run as printed, makes his folder and mails the acceptance). After
that each player only runs `pbem mail --once` and, when it says "your
decision", `pbem move` with orders from pbem.cli.demo.choose_orders: the
next `pbem mail` sends it. After every arrival the report of what arrived
is in the receiver's GAME/report/. Mails carry no HTML report: the counts
and sizes are printed (pytest -s), and every mail is at most 20 KB.
"""

from __future__ import annotations

import email
import mailbox
import random
import re
import shlex
import statistics
from email.policy import default as default_policy
from pathlib import Path

import pytest

from tests.in_process import run
from pbem.cli.demo import choose_orders
from pbem.game import statecache, store, writing
from pbem.reports.tally import tally
from pbem.signed import identity as ids
from pbem.signed.movefile import Move

from .conftest import PLAYERS, MailSystem

TURNS = 2  # play until the battle reaches its third game turn (or ends)
FILE_CAP = 400
MAX_MAIL_BYTES = 20 * 1024  # issue 24's target for a mail carrying a Tauris file


@pytest.mark.long
def test_two_turns_of_tauris_from_an_invitation_by_mail(mail_system: MailSystem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for user, password in PLAYERS.items():
        monkeypatch.setenv(f"TEST_{user.upper()}_MAIL_PASSWORD", password)
    keys = {user: tmp_path / f"{user}-keys" for user in PLAYERS}
    me = {user: ids.generate(user, keys[user]) for user in PLAYERS}
    configs = {user: mail_system.settings(user, {}, tmp_path) for user in PLAYERS}  # no [games] at all
    games = {"alice": tmp_path / "alice-tauris", "bob": tmp_path / "bob-tauris"}

    def cli(user: str, *args: str) -> str:
        return run(*args, "--keys", str(keys[user]))

    def mail(user: str) -> str:
        return cli(user, "mail", "--once", "--config", str(configs[user]))

    # Alice invites by mail; Bob's `pbem mail` offers it, and the command it prints accepts it.
    cli("alice", "new", "tauris", "--side", "caesarians", "--name", "Alice", "--out", str(games["alice"]))
    cli("alice", "send", str(games["alice"]), "--to", mail_system.address("bob"), "--config", str(configs["alice"]))
    offered = mail("bob")
    assert "invitation" in offered and "from Alice <alice@pbem.test>" in offered, offered
    (command,) = re.findall(r"accept it: (pbem accept .*)$", offered, re.M)
    argv = shlex.split(command)[1:]
    argv[argv.index("NEW-FOLDER")] = str(games["bob"])
    argv[argv.index("YOUR-NAME")] = "Bob"
    accepted = cli("bob", *argv)
    assert "mailed 000001.pbem to alice@pbem.test" in accepted, accepted
    assert "still waits" not in mail("bob")  # accepted: no longer offered

    chooser = random.Random(24)
    written_by_person = 0
    reports_checked = 0
    for _ in range(2 * FILE_CAP):
        progressed = False
        for user in PLAYERS:
            before = len(list(games[user].glob("*.pbem")))
            said = mail(user)
            progressed |= len(list(games[user].glob("*.pbem"))) != before or ": sent 0" in said
            for seq in (int(n) for n in re.findall(r"added (\d{6})\.pbem", said)):
                if seq >= 2:  # file n resolved file n-1: its report is written the moment it arrives
                    report = games[user] / "report" / f"file-{seq - 1:06d}.html"
                    assert report.is_file() and f"report: {report}" in said, said
                    reports_checked += 1
            if "your decision" in said:
                game = store.load(games[user])
                view = writing.outlook(game, me[user])
                orders = choose_orders(game.ruleset, view.resolution.state, game.player(view.role).side, chooser)
                assert orders, said
                (tmp_path / "orders.txt").write_text("\n".join(orders) + "\n")
                cli(user, "move", str(games[user]), "--orders", str(tmp_path / "orders.txt"))
                written_by_person += 1
                progressed = True
        game = store.load(games["alice"])
        state = game.resolved_state
        reached = state is not None and game.ruleset.turn(state) > TURNS
        if (reached or game.finished() or len(game.files) >= FILE_CAP) and not progressed:
            break
    else:
        pytest.fail("the game over mail did not settle")

    files = {user: sorted(games[user].glob("*.pbem")) for user in PLAYERS}
    for user in PLAYERS:  # each round of `pbem mail --once` wrote the state cache of what it added
        entry = statecache.read(games[user])
        assert entry is not None and len(entry.files) == len(files[user]), user
    assert [p.read_bytes() for p in files["alice"]] == [p.read_bytes() for p in files["bob"]]
    for user in PLAYERS:
        assert "ok: game" in run("verify", str(games[user]))
    final = store.load(games["alice"])
    assert final.finished() or final.ruleset.turn(final.resolved_state) > TURNS
    counts = tally(final)
    moves = [f.body for f in final.files if isinstance(f.body, Move)]
    assert counts.decisions == written_by_person == sum(1 for b in moves if b.decisions)
    assert counts.acknowledgements == sum(1 for b in moves if not b.decisions)
    assert len(mail_system.delivered) == len(final.files)  # one mail per file, the invitation's included

    sizes: list[int] = []
    decision_mails = 0  # mails whose account tells the receiver his decision and its legal options
    for user in PLAYERS:
        inbox = mailbox.Maildir(mail_system.maildirs[user], create=False)
        for key in inbox.keys():
            raw = inbox.get_bytes(key)
            message = email.message_from_bytes(raw, policy=default_policy)
            assert message["X-Pbem-Game"] == final.game_id
            assert not [p for p in message.iter_attachments() if p.get_content_type() == "text/html"]
            decision_mails += "Your decision now" in message.get_body(("plain",)).get_content()
            sizes.append(len(raw))
    print(f"\nissue 24, Tauris by mail to turn {TURNS + 1}: {len(sizes)} mails, {sum(sizes) / 1024:.1f} KB in all, "
          f"median {statistics.median(sizes) / 1024:.1f} KB, largest {max(sizes) / 1024:.1f} KB; "
          f"{written_by_person} files written by a person, {counts.acknowledgements} acknowledgements by pbem mail; "
          f"{reports_checked} arrivals, each with its report; {decision_mails} mails name the receiver's decision")
    assert max(sizes) <= MAX_MAIL_BYTES
    assert decision_mails > 0 and reports_checked >= len(final.files) - 3
