"""Issue 24, item 1 and its adversaries: invitations that arrive by mail, hostile ones among them.

Bob reads a real Maildir (the messages are written into it as an MDA
would). A good invitation is offered with the command that accepts it; a
hostile one (malformed, forged, naming a game he plays, from no address,
huge, one too many) is one line, refused once, and changes nothing: no
folder, no invitation kept, the game he plays as it was.
"""

from __future__ import annotations

import email.message
import json
import mailbox
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.in_process import code_and_output as invoke, run
from pbem.exchange import invitations
from pbem.signed import identity as ids


class Bob:
    """Bob, with a key, a Maildir and mail settings that list no game."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.keys = tmp / "bob-keys"
        ids.generate("bob", self.keys)
        self.maildir = tmp / "Maildir"
        mailbox.Maildir(self.maildir, create=True).close()
        self.config = tmp / "bob-mail.toml"
        self.config.write_text(f'address = "bob@pbem.test"\n[maildir]\npath = "{self.maildir}"\n')
        self.alice_keys = tmp / "alice-keys"
        ids.generate("alice", self.alice_keys)

    def invitation(self, name: str = "inv", host: str = "Alice") -> Path:
        folder = self.tmp / name
        run("new", "quick", "--ruleset", "duel", "--side", "Red", "--name", host, "--out", str(folder),
            "--chain-length", "20", "--keys", str(self.alice_keys))
        return folder / "000000.pbem"

    def deliver(self, raw: bytes | None = None, sender: str = "alice@pbem.test", body: str = "", size: int = 0) -> None:
        message = email.message.EmailMessage()
        message["From"] = sender
        message["To"] = "bob@pbem.test"
        message["Subject"] = "pbem invitation"
        message.set_content(body or "an invitation")
        if raw is not None:
            message.add_attachment(raw, maintype="application", subtype="x-pbem", filename="000000.pbem")
        if size:
            message.add_attachment(b"\0" * size, maintype="application", subtype="octet-stream", filename="big.bin")
        box = mailbox.Maildir(self.maildir, create=False)
        box.add(message.as_bytes())
        box.close()

    def mail(self) -> tuple[int, str]:
        return invoke("mail", "--once", "--config", str(self.config), "--keys", str(self.keys))

    def state(self) -> dict:
        return json.loads((self.tmp / "bob-mail-state.json").read_text())


@pytest.fixture
def bob(tmp_path: Path) -> Bob:
    return Bob(tmp_path)


def test_an_invitation_by_mail_is_offered_with_the_command_that_accepts_it(bob: Bob) -> None:
    raw = bob.invitation().read_bytes()
    bob.deliver(raw)
    code, said = bob.mail()
    assert code == 0, said
    (line,) = [line for line in said.splitlines() if line.startswith("invitation ")]
    game_id = next(iter(bob.state()["invitations"]))
    assert line.startswith(f"invitation {game_id[:8]} from Alice <alice@pbem.test>: duel quick, the host plays Red")
    assert line.endswith(f"accept it: pbem accept {game_id[:8]} --out NEW-FOLDER --name YOUR-NAME --config {bob.config}")
    code, again = bob.mail()  # still offered, once per round, until accepted
    assert code == 0 and f"invitation {game_id[:8]} from Alice still waits" in again


def test_accept_by_an_unknown_id_is_one_line_and_makes_no_folder(bob: Bob) -> None:
    before = sorted(os.listdir(bob.tmp))
    done = subprocess.run(
        [sys.executable, "-c", "from pbem.cli.entry import main; main()", "accept", "0123abcd", "--out",
         str(bob.tmp / "game"), "--config", str(bob.config), "--keys", str(bob.keys)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr == ("pbem: error: 0123abcd: no invitation by that id came by mail "
                           "(waiting: none; pbem mail fetches new ones)\n")
    assert sorted(os.listdir(bob.tmp)) == before


def _refused_once(bob: Bob, why: str) -> None:
    """The round refuses the message in one line, with a usage-free error code; the next one is silent."""
    before = sorted(os.listdir(bob.tmp))
    code, said = bob.mail()
    assert code not in (0, 70), said
    assert [line for line in said.splitlines() if "refused" in line] == [said.strip()], said
    assert why in said, said
    assert "Traceback" not in said
    assert bob.state()["invitations"] == {}
    assert set(os.listdir(bob.tmp)) - {"bob-mail-state.json"} == set(before) - {"bob-mail-state.json"}
    assert bob.mail() == (0, "")


def test_a_malformed_invitation_is_refused(bob: Bob) -> None:
    raw = bob.invitation().read_bytes()
    bob.deliver(raw[: len(raw) // 2])  # cut short: not a pbem file
    _refused_once(bob, "a pbem file is exactly two lines")


def test_a_forged_invitation_is_refused(bob: Bob) -> None:
    raw = bob.invitation().read_bytes()
    bob.deliver(raw.replace(b'"name":"Alice"', b'"name":"Alicf"'))  # the signature no longer fits
    _refused_once(bob, "signature")


def test_an_invitation_from_no_usable_address_is_refused(bob: Bob) -> None:
    bob.deliver(bob.invitation().read_bytes(), sender="not an address")
    _refused_once(bob, "no usable address")


def test_a_huge_invitation_is_refused_unread(bob: Bob) -> None:
    bob.deliver(bob.invitation().read_bytes(), size=33 * 2**20)
    _refused_once(bob, "more than")


def test_an_invitation_naming_a_game_bob_plays_changes_nothing(bob: Bob) -> None:
    """A second file 0 for Bob's own game id is that game's, not an invitation: refused, his folder as it was."""
    invite = bob.invitation()
    game = bob.tmp / "bob-game"
    run("accept", str(invite), "--name", "Bob", "--out", str(game), "--keys", str(bob.keys))
    bob.config.write_text(bob.config.read_text() + f'[games]\n"{game}" = "alice@pbem.test"\n')
    kept = {p.name: p.read_bytes() for p in game.iterdir() if p.is_file()}
    bob.deliver(invite.read_bytes().replace(b'"name":"Alice"', b'"name":"Alicf"'))
    code, said = bob.mail()
    assert code not in (0, 70) and "refused" in said and "signature does not verify" in said, said
    assert {p.name: p.read_bytes() for p in game.iterdir() if p.is_file()} == kept
    assert bob.state()["invitations"] == {}


def test_one_invitation_too_many_is_refused(bob: Bob) -> None:
    for n in range(invitations.MAX_OFFERED):
        bob.deliver(bob.invitation(f"inv{n}").read_bytes())
    code, said = bob.mail()
    assert code == 0 and said.count("accept it: pbem accept") == invitations.MAX_OFFERED, said
    bob.deliver(bob.invitation("one-more").read_bytes())
    code, said = bob.mail()
    assert code not in (0, 70) and f"{invitations.MAX_OFFERED} invitations already wait" in said, said
    assert len(bob.state()["invitations"]) == invitations.MAX_OFFERED


def test_a_damaged_invitation_in_the_mail_state_is_one_line(bob: Bob) -> None:
    bob.deliver(bob.invitation().read_bytes())
    assert bob.mail()[0] == 0
    state = bob.state()
    game_id = next(iter(state["invitations"]))
    state["invitations"][game_id]["file"] = "not base64!"
    (bob.tmp / "bob-mail-state.json").write_text(json.dumps(state))
    code, said = bob.mail()
    assert code not in (0, 70) and f"invitation {game_id[:8]} is damaged" in said, said
