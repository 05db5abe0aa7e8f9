"""Issue 13's acceptance: a real battle (Tauris) played over loopback SMTP and IMAP.

The two players share nothing but the mail system: each has his own key
folder, game folder and mail settings. The invitation and the acceptance
go by mail; after that each player's only commands are `pbem mail --once`
(his cron job) and, when it says "your decision", `pbem move` with orders
(chosen by the engine's demo player, standing in for a person) and `pbem
send`. Every acknowledgement is written and sent by `pbem mail` alone: the
test never writes a file without orders. The game ends with both folders
byte-identical and verified.
"""

from __future__ import annotations

import email
import mailbox
import random
from email.policy import default as default_policy
from pathlib import Path

import pytest

from pbem.signed import identity as ids
from pbem.game import store
from pbem.game import writing
from tests.in_process import run
from pbem.cli.demo import choose_orders
from pbem.signed.movefile import Move
from pbem.reports.tally import tally

from .conftest import PLAYERS, MailSystem

# The opening of the battle with [games] entries and `pbem send`: play stops, once no mail is in
# flight, past FILES files and at least one acknowledgement written by `pbem mail`.
# test_battle_by_mail plays two whole game turns from an invitation by mail; this one keeps its
# other path (mail settings naming the games, a saved invitation .eml) short: a whole turn here
# cost the suite two minutes and proved nothing the other does not.
FILES = 16
FILE_CAP = 400


@pytest.mark.long
def test_tauris_between_two_players_linked_only_by_mail(mail_system: MailSystem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for user, password in PLAYERS.items():
        monkeypatch.setenv(f"TEST_{user.upper()}_MAIL_PASSWORD", password)
    keys = {user: tmp_path / f"{user}-keys" for user in PLAYERS}
    me = {user: ids.generate(user, keys[user]) for user in PLAYERS}
    games = {user: tmp_path / f"{user}-tauris" for user in PLAYERS}
    configs = {
        "alice": mail_system.settings("alice", {games["alice"]: mail_system.address("bob")}, tmp_path),
        "bob": mail_system.settings("bob", {games["bob"]: mail_system.address("alice")}, tmp_path),
    }

    def cli(user: str, *args: str) -> str:
        return run(*args, "--keys", str(keys[user]))

    cli("alice", "new", "tauris", "--side", "caesarians", "--name", "Alice", "--out", str(games["alice"]))
    cli("alice", "send", str(games["alice"]), "--config", str(configs["alice"]))
    box = mailbox.Maildir(mail_system.maildirs["bob"], create=False)
    (invitation,) = box.keys()
    (tmp_path / "invitation.eml").write_bytes(box.get_bytes(invitation))
    cli("bob", "accept", str(tmp_path / "invitation.eml"), "--name", "Bob", "--out", str(games["bob"]))
    cli("bob", "send", str(games["bob"]), "--config", str(configs["bob"]))

    chooser = random.Random(13)
    written_by_person = 0
    quiet_rounds = 0
    for _ in range(2 * FILE_CAP):
        progressed = False
        for user in PLAYERS:
            before = len(list(games[user].glob("*.pbem")))
            report = cli(user, "mail", "--once", "--config", str(configs[user]))
            progressed |= len(list(games[user].glob("*.pbem"))) != before
            if "your decision" in report:
                game = store.load(games[user])
                view = writing.outlook(game, me[user])
                orders = choose_orders(game.ruleset, view.resolution.state, game.player(view.role).side, chooser)
                assert orders, report
                (tmp_path / "orders.txt").write_text("\n".join(orders) + "\n")
                cli(user, "move", str(games[user]), "--orders", str(tmp_path / "orders.txt"))
                cli(user, "send", str(games[user]), "--config", str(configs[user]))
                written_by_person += 1
                progressed = True
        game = store.load(games["alice"])
        acknowledged = any(isinstance(f.body, Move) and not f.body.decisions for f in game.files)
        reached = len(game.files) >= FILES and acknowledged
        if (reached or game.finished() or len(game.files) >= FILE_CAP) and not progressed:
            quiet_rounds += 1
            if quiet_rounds >= 1:
                break
        else:
            quiet_rounds = 0
    else:
        pytest.fail("the game over mail did not settle")

    files = {user: sorted(games[user].glob("*.pbem")) for user in PLAYERS}
    assert [p.name for p in files["alice"]] == [p.name for p in files["bob"]]
    assert [p.read_bytes() for p in files["alice"]] == [p.read_bytes() for p in files["bob"]]
    for user in PLAYERS:
        assert "ok: game" in run("verify", str(games[user]))
    final = store.load(games["alice"])
    assert final.finished() or len(final.files) >= FILES
    counts = tally(final)
    moves = [f.body for f in final.files if isinstance(f.body, Move)]
    # Every file with decisions came from a person's `pbem move`; every other one from `pbem mail`.
    assert counts.decisions == written_by_person == sum(1 for b in moves if b.decisions)
    # How many acknowledgements a game needs depends on its dice (the keys come
    # from PBEM_TEST_SEED), so the test asks only that there were some, all by the tool.
    assert counts.acknowledgements == sum(1 for b in moves if not b.decisions) > 0
    # And each of them went through the mail system: one message per file after the set-up.
    delivered = len(mail_system.delivered)
    assert delivered == len(final.files)
    for user in PLAYERS:
        inbox = mailbox.Maildir(mail_system.maildirs[user], create=False)
        headers = [email.message_from_bytes(inbox.get_bytes(k), policy=default_policy)["X-Pbem-Game"] for k in inbox.keys()]
        assert headers and set(headers) == {final.game_id}
