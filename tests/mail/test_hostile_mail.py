"""Issue 22, items 1-4: the mail loop against hostile mail and brief faults, on the real loopback servers.

Each attack is a message delivered into Alice's real mailbox (dovecot serves
it over IMAP) before the opponent's real file, which Bob mails through the
real SMTP server. The round must refuse the attack in one line, printed
once, and add Bob's file in that same round; a second round reads neither
again. A folder locked during a round loses nothing; an address is never
learned from a message that added nothing.
"""

from __future__ import annotations

import base64
import email.message
import mailbox
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from pbem.signed import identity as ids
from pbem.exchange import mailconfig
from pbem.exchange import watch
from pbem.game import store
from tests.in_process import code_and_output as invoke, run

from .conftest import PLAYERS, MailSystem


class Game:
    """Alice hosts a Dice Duel, Bob accepted; Alice's folder still waits for Bob's acceptance (file 1)."""

    def __init__(self, mail: MailSystem, tmp: Path, alice_games: dict[Path, str] | None = None) -> None:
        self.mail = mail
        self.keys = {user: tmp / f"{user}-keys" for user in PLAYERS}
        for user in PLAYERS:
            ids.generate(user, self.keys[user])
        self.alice, self.bob = tmp / "alice-game", tmp / "bob-game"
        games = {self.alice: mail.address("bob")} if alice_games is None else alice_games
        self.alice_cfg = mail.settings("alice", games, tmp)
        self.bob_cfg = mail.settings("bob", {self.bob: mail.address("alice")}, tmp)
        run("new", "quick", "--ruleset", "duel", "--side", "Red", "--name", "Alice", "--out", str(self.alice), "--keys", str(self.keys["alice"]))
        run("accept", str(self.alice / "000000.pbem"), "--name", "Bob", "--out", str(self.bob), "--keys", str(self.keys["bob"]))
        self.game_id = store.load(self.alice).game_id

    def deliver(self, data: bytes) -> None:
        """Straight into Alice's Maildir (as an MDA would), then let dovecot give it its UID now."""
        box = mailbox.Maildir(self.mail.maildirs["alice"], create=False)
        box.add(data)
        box.close()
        self.uids()

    def uids(self) -> dict[int, set[bytes]]:
        """Alice's messages as dovecot numbers them, with their flags (a real IMAP session)."""
        import ssl

        from imapclient import IMAPClient

        client = IMAPClient("127.0.0.1", port=self.mail.imap_port, ssl=False, timeout=30)
        client.starttls(ssl.create_default_context(cafile=str(self.mail.certs.ca)))
        client.login("alice", PLAYERS["alice"])
        client.select_folder("INBOX", readonly=True)
        uids = client.search(["ALL"])
        flags = {uid: set(data[b"FLAGS"]) for uid, data in client.fetch(uids, ["FLAGS"]).items()} if uids else {}
        client.logout()
        return flags

    def bob_sends(self) -> None:
        run("send", str(self.bob), "--config", str(self.bob_cfg), "--keys", str(self.keys["bob"]))
        self.uids()

    def alice_round(self, keys: Path | None = None) -> tuple[int, str]:
        return invoke("mail", "--once", "--config", str(self.alice_cfg), "--keys", str(keys or self.keys["alice"]))

    def state(self) -> mailconfig.MailState:
        return mailconfig.MailState(mailconfig.state_path(self.alice_cfg))


@pytest.fixture
def duel(mail_system: MailSystem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Game:
    for user, password in PLAYERS.items():
        monkeypatch.setenv(f"TEST_{user.upper()}_MAIL_PASSWORD", password)
    return Game(mail_system, tmp_path)


def _mail(game_id: str, subject: str = "pbem: my move") -> email.message.EmailMessage:
    message = email.message.EmailMessage()
    message["From"] = "eve@pbem.test"
    message["To"] = "alice@pbem.test"
    message["Subject"] = subject
    message["X-Pbem-Game"] = game_id
    return message


def poison_from(game: Game) -> tuple[bytes, str]:
    """Issue 22's 100-byte message: the stdlib raises ValueError reading its From."""
    data = (b"From: =?utf-8?q?a=0D=0ABcc:_v@x?= <m@evil.example>\r\nTo: alice@pbem.test\r\n"
            b"X-Pbem-Game: " + game.game_id.encode() + b"\r\nSubject: hi\r\n\r\nhello\r\n")
    return data, "its From header cannot be read (ValueError"


def nested_1000(game: Game) -> tuple[bytes, str]:
    """multipart/mixed inside multipart/mixed, 1,000 deep (64 KB): the stdlib parser recursed out of its stack."""
    head = b"From: eve@pbem.test\r\nTo: alice@pbem.test\r\nSubject: deep\r\nMIME-Version: 1.0\r\n"
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(1000))
    closing = b"".join(b"--b%d--\r\n" % i for i in reversed(range(1000)))
    return head + opening + b"Content-Type: text/plain\r\n\r\nhello\r\n" + closing, "more than 64 MIME parts"


def over_32_mib(game: Game) -> tuple[bytes, str]:
    """A message of 33 MiB: it blocked every round with rc 4; now refused by its RFC822.SIZE, never downloaded."""
    message = _mail(game.game_id)
    message.set_content("x" * 100)
    message.add_attachment(b"\0" * (33 * 2**20), maintype="application", subtype="octet-stream", filename="big.bin")
    return bytes(message), "a pbem message can be; not downloaded"


def br_flood(game: Game) -> tuple[bytes, str]:
    """1 MiB of '<br' in an HTML part: the regular expressions took about an hour on it."""
    message = _mail(game.game_id)
    message.set_content("<html><body>" + "<br" * (2**20 // 3) + "</body></html>", subtype="html")
    return bytes(message), "holds no pbem file"


@pytest.mark.parametrize("attack", [poison_from, nested_1000, over_32_mib, br_flood])
def test_a_hostile_message_is_refused_in_one_line_and_the_file_behind_it_is_added(
    duel: Game, attack: Callable[[Game], tuple[bytes, str]]
) -> None:
    data, reason = attack(duel)
    duel.deliver(data)
    duel.bob_sends()
    (hostile, real) = sorted(duel.uids())  # the attack first, as the mailbox orders them
    code, output = duel.alice_round()
    refusals = [line for line in output.splitlines() if "refused" in line]
    assert len(refusals) == 1 and reason in refusals[0] and f"message {hostile}" in refusals[0], output
    assert "Traceback" not in output and code == 4, output
    assert f"added 000001.pbem (message {real} from bob@pbem.test)" in output
    assert (duel.alice / "000001.pbem").read_bytes() == (duel.bob / "000001.pbem").read_bytes()
    # Recorded with its reason, printed once: the next round reads neither message again.
    assert any(reason in why for why in duel.state().data["refused"].values())
    code, output = duel.alice_round()
    assert code == 0 and "refused" not in output and "added" not in output, output
    flags = duel.uids()
    assert b"\\Seen" in flags[real] and b"\\Seen" not in flags[hostile]  # the player's to look at, if he likes


def test_a_folder_locked_during_a_round_loses_nothing(duel: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob's file arrives while another pbem command holds Alice's folder: it is added the next round."""
    monkeypatch.setenv("PBEM_LOCK_WAIT", "0")
    duel.bob_sends()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pbem.game import lock\n"
         f"with lock.hold(__import__('pathlib').Path({str(duel.alice)!r}), 'pbem move'):\n"
         "    print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        code, output = duel.alice_round()
        assert code == 16 and "left for the next round" in output and "pbem move" in output, output
        assert not (duel.alice / "000001.pbem").exists()
        (uid,) = duel.uids()
        assert b"\\Seen" not in duel.uids()[uid]
        assert duel.state().data["imap"][next(iter(duel.state().data["imap"]))]["pending"] == [uid]
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    code, output = duel.alice_round()
    assert code == 0 and "added 000001.pbem" in output, output
    assert (duel.alice / "000001.pbem").read_bytes() == (duel.bob / "000001.pbem").read_bytes()
    assert b"\\Seen" in duel.uids()[uid]


def test_a_file_waiting_on_an_earlier_one_is_kept_and_a_forged_one_is_not(duel: Game, tmp_path: Path) -> None:
    """Alice plays on a second machine too: her mail folder gets Bob's file 3 before files 1 and 2.

    File 3, validly signed by Bob, waits (left for the next round, not marked
    read); a copy with a forged signature is refused for good (else anyone
    could make every round fetch it again); once a message brings 1 and 2,
    3 goes in the same round.
    """
    import shutil

    run("receive", str(duel.alice), str(duel.bob / "000001.pbem"), "--no-reply", "--keys", str(duel.keys["alice"]))
    laptop = tmp_path / "alice-laptop"
    shutil.copytree(duel.alice, laptop)
    orders = tmp_path / "orders.txt"
    orders.write_text("strike\n")

    def hand_on(source: Path, folder: Path, user: str, seq: int) -> None:
        """Receive file seq-1 into `folder`; file seq is then written, by receive itself or by a move."""
        if not (folder / f"{seq - 1:06d}.pbem").exists():
            run("receive", str(folder), str(source / f"{seq - 1:06d}.pbem"), "--keys", str(duel.keys[user]))
        watch.acknowledge(folder, duel.keys[user], None)  # nothing to decide: the file without orders
        if not (folder / f"{seq:06d}.pbem").exists():
            run("move", str(folder), "--orders", str(orders), "--keys", str(duel.keys[user]))

    hand_on(duel.bob, laptop, "alice", 2)
    hand_on(laptop, duel.bob, "bob", 3)
    third = (duel.bob / "000003.pbem").read_bytes()
    body, line, _ = third.split(b"\n")
    signature = bytearray(base64.b64decode(line))
    signature[0] ^= 1
    forged = body + b"\n" + base64.b64encode(bytes(signature)) + b"\n"

    def carrying(*raws: bytes) -> bytes:
        message = _mail(duel.game_id)
        message.replace_header("From", "bob@pbem.test")
        message.set_content("my move")
        for raw in raws:
            message.add_attachment(raw, maintype="application", subtype="x-pbem", filename="file.pbem")
        return bytes(message)

    duel.deliver(carrying(third))
    duel.deliver(carrying(forged))
    # No key of Alice's in this round: were file 2 hers to acknowledge, her mail folder would write its own.
    no_keys = tmp_path / "no-keys"
    no_keys.mkdir()
    code, output = duel.alice_round(no_keys)
    assert "file 3 waits for file 2, not yet received; left for the next round" in output, output
    assert output.count("refused") == 1 and "signature" in output, output
    assert not (duel.alice / "000002.pbem").exists()
    waiting, forged_uid = sorted(duel.uids())
    assert duel.state().data["imap"][next(iter(duel.state().data["imap"]))]["pending"] == [waiting]
    duel.deliver(carrying(laptop.joinpath("000002.pbem").read_bytes()))
    code, output = duel.alice_round(no_keys)
    for name in ("000002.pbem", "000003.pbem"):
        assert f"added {name}" in output, output
        assert (duel.alice / name).read_bytes() == (duel.bob / name).read_bytes()
    assert duel.state().data["imap"][next(iter(duel.state().data["imap"]))]["pending"] == []
    assert b"\\Seen" in duel.uids()[waiting] and b"\\Seen" in duel.uids()[forged_uid]  # both dealt with now


def test_no_address_is_learned_from_a_message_that_added_nothing(mail_system: MailSystem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22's attack: with no [games] entry, Eve mails the public file 0; the acknowledgement must not go to her."""
    for user, password in PLAYERS.items():
        monkeypatch.setenv(f"TEST_{user.upper()}_MAIL_PASSWORD", password)
    duel = Game(mail_system, tmp_path, alice_games={})
    public = _mail(duel.game_id, "pbem: the invitation")
    public.set_content("look")
    public.add_attachment((duel.alice / "000000.pbem").read_bytes(), maintype="application", subtype="x-pbem", filename="000000.pbem")
    duel.deliver(bytes(public))
    code, output = invoke("mail", "--once", str(duel.alice), "--config", str(duel.alice_cfg), "--keys", str(duel.keys["alice"]))
    assert "holds nothing new" in output and "eve" not in output.split("holds nothing new")[1], output
    assert duel.state().learned(duel.game_id) is None
    # Bob's acceptance, mailed by Bob: a new file he signed, so his address is learned (and said).
    run("send", str(duel.bob), "--to", mail_system.address("alice"), "--config", str(duel.bob_cfg), "--keys", str(duel.keys["bob"]))
    code, output = invoke("mail", "--once", str(duel.alice), "--config", str(duel.alice_cfg), "--keys", str(duel.keys["alice"]))
    assert "added 000001.pbem" in output and "your opponent's address is now bob@pbem.test" in output, output
    # Eve mails Bob's file again, from her address: it adds nothing, and the address stays Bob's.
    duel.deliver(bytes(_forwarded(duel, (duel.bob / "000001.pbem").read_bytes())))
    invoke("mail", "--once", str(duel.alice), "--config", str(duel.alice_cfg), "--keys", str(duel.keys["alice"]))
    assert duel.state().learned(duel.game_id) == "bob@pbem.test"


def _forwarded(game: Game, raw: bytes) -> email.message.EmailMessage:
    message = _mail(game.game_id, "Fwd: pbem")
    message.set_content("fwd")
    message.add_attachment(raw, maintype="application", subtype="x-pbem", filename="000001.pbem")
    return message


def test_a_learned_address_is_kept_and_a_different_one_only_shown(tmp_path: Path) -> None:
    state = mailconfig.MailState(tmp_path / "state.json")
    assert "is now bob@x.org" in (state.learn_from("g", "bob@x.org", 1, None) or "")
    shown = state.learn_from("g", "eve@y.org", 3, None)
    assert shown is not None and "came from eve@y.org, but pbem sends to bob@x.org" in shown
    assert state.learn_from("g", "eve@y.org", 5, None) is None  # said once
    assert state.learned("g") == "bob@x.org"
    assert state.learn_from("g", "bob@x.org", 7, None) is None
    configured = state.learn_from("h", "eve@y.org", 3, "carol@z.org")
    assert configured is not None and "([games])" in configured and state.learned("h") is None
    assert state.learn_from("i", "not an address", 3, None) is None and state.learned("i") is None
    state.set_address("g", "bob@new.org")  # pbem send --to: the player decides
    assert state.learned("g") == "bob@new.org"


def test_a_maildir_round_refuses_the_hostile_and_moves_only_the_real_message_to_cur(duel: Game) -> None:
    """The same loop over a Maildir: hostile messages stay in new/ unread, handled in the state; Bob's goes to cur/."""
    text = duel.alice_cfg.read_text()
    imap = text[text.index("[imap]") : text.index("[games]")]
    duel.alice_cfg.write_text(text.replace(imap, f'[maildir]\npath = "{duel.mail.maildirs["alice"]}"\n'))
    for attack in (poison_from, nested_1000):
        duel.deliver(attack(duel)[0])
    duel.bob_sends()
    code, output = duel.alice_round()
    assert code == 4 and output.count("refused (never read again)") == 2, output
    assert "added 000001.pbem" in output
    new = list((duel.mail.maildirs["alice"] / "new").iterdir())
    cur = list((duel.mail.maildirs["alice"] / "cur").iterdir())
    assert len(new) == 2 and len(cur) == 1 and cur[0].name.endswith(":2,S")
    code, output = duel.alice_round()
    assert code == 0 and "refused" not in output and "added" not in output, output
