"""`pbem send` and `pbem mail --once` against the real loopback servers, on a short Dice Duel game."""

from __future__ import annotations

import mailbox
import email
import email.message
from email.policy import default as default_policy
from pathlib import Path

import pytest

from pbem.signed import identity as ids
from tests.in_process import invoke as in_process, run

from .conftest import PLAYERS, MailSystem


def fails(*args: str) -> tuple[int, str]:
    result = in_process(*args)
    return result.exit_code, str(result.exception) if result.exception else result.output


@pytest.fixture
def players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    for user, password in PLAYERS.items():
        monkeypatch.setenv(f"TEST_{user.upper()}_MAIL_PASSWORD", password)
    for user in PLAYERS:
        ids.generate(user, tmp_path / f"{user}-keys")
    return {user: tmp_path / f"{user}-keys" for user in PLAYERS}


def test_invitation_by_mail_then_acknowledgements_by_themselves(mail_system: MailSystem, players: dict[str, Path], tmp_path: Path) -> None:
    alice, bob = tmp_path / "alice-game", tmp_path / "bob-game"
    alice_cfg = mail_system.settings("alice", {alice: mail_system.address("bob")}, tmp_path)
    bob_cfg = mail_system.settings("bob", {bob: mail_system.address("alice")}, tmp_path)
    run("new", "quick", "--ruleset", "duel", "--side", "Red", "--name", "Alice", "--out", str(alice), "--keys", str(players["alice"]))
    sent = run("send", str(alice), "--config", str(alice_cfg), "--keys", str(players["alice"]))
    assert "sent 000000.pbem to bob@pbem.test" in sent
    # Bob saves the invitation from his mail program and accepts it.
    box = mailbox.Maildir(mail_system.maildirs["bob"], create=False)
    (key,) = box.keys()
    message = email.message_from_bytes(box.get_bytes(key), policy=default_policy)
    assert message["Subject"].startswith("pbem quick ") and "invitation" in message["Subject"]
    assert message["X-Pbem-File"] == "0"
    saved = tmp_path / "invitation.eml"
    saved.write_bytes(box.get_bytes(key))
    run("accept", str(saved), "--name", "Bob", "--out", str(bob), "--keys", str(players["bob"]))
    run("send", str(bob), "--config", str(bob_cfg), "--keys", str(players["bob"]))
    # Alice's round fetches the acceptance over IMAP.
    first = run("mail", "--once", "--config", str(alice_cfg), "--keys", str(players["alice"]))
    assert "added 000001.pbem" in first
    assert (alice / "000001.pbem").read_bytes() == (bob / "000001.pbem").read_bytes()
    # A second round reads nothing new.
    again = run("mail", "--once", "--config", str(alice_cfg), "--keys", str(players["alice"]))
    assert "added" not in again


def test_plain_smtp_is_refused_off_loopback_and_passwords_never_in_the_file(tmp_path: Path) -> None:
    from pbem.exchange import mailconfig
    from pbem.errors import MailProblem

    config = tmp_path / "mail.toml"
    config.write_text('address = "a@example.org"\n[smtp]\nhost = "smtp.example.org"\nsecurity = "plain"\n')
    with pytest.raises(MailProblem, match="only for a server on this machine"):
        mailconfig.load(config)
    config.write_text('address = "a@example.org"\n[smtp]\nhost = "smtp.example.org"\npassword = "hunter2"\n')
    with pytest.raises(MailProblem, match="never keeps one in a file"):
        mailconfig.load(config)
    config.write_text('address = "a@example.org"\n[smtp]\nhost = "127.0.0.1"\nsecurity = "plain"\n')
    assert mailconfig.load(config).smtp is not None


def test_a_server_certificate_not_trusted_is_one_line_error(mail_system: MailSystem, players: dict[str, Path], tmp_path: Path) -> None:
    alice = tmp_path / "alice-game"
    config = mail_system.settings("alice", {alice: mail_system.address("bob")}, tmp_path)
    config.write_text(config.read_text().replace(f'cafile = "{mail_system.certs.ca}"', ""))
    run("new", "quick", "--ruleset", "duel", "--side", "Red", "--out", str(alice), "--keys", str(players["alice"]))
    code, message = fails("send", str(alice), "--config", str(config), "--keys", str(players["alice"]))
    assert code != 0 and "TLS failed" in message and "CERTIFICATE_VERIFY_FAILED" in message
    assert not list(mail_system.maildirs["bob"].glob("new/*"))


def test_a_wrong_password_is_refused_by_the_server(mail_system: MailSystem, players: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alice = tmp_path / "alice-game"
    config = mail_system.settings("alice", {alice: mail_system.address("bob")}, tmp_path)
    monkeypatch.setenv("TEST_ALICE_MAIL_PASSWORD", "wrong")
    run("new", "quick", "--ruleset", "duel", "--side", "Red", "--out", str(alice), "--keys", str(players["alice"]))
    code, message = fails("send", str(alice), "--config", str(config), "--keys", str(players["alice"]))
    assert "login as alice refused" in message


def test_mail_from_a_maildir_survives_a_forged_message(mail_system: MailSystem, players: dict[str, Path], tmp_path: Path) -> None:
    """`pbem mail` reading a Maildir: a forged file is one line, the good message after it is still received."""
    alice, bob = tmp_path / "alice-game", tmp_path / "bob-game"
    alice_cfg = mail_system.settings("alice", {alice: mail_system.address("bob")}, tmp_path)
    text = alice_cfg.read_text()
    imap = text[text.index("[imap]") : text.index("[games]")]
    alice_cfg.write_text(text.replace(imap, f'[maildir]\npath = "{mail_system.maildirs["alice"]}"\n'))
    bob_cfg = mail_system.settings("bob", {bob: mail_system.address("alice")}, tmp_path)
    run("new", "quick", "--ruleset", "duel", "--side", "Red", "--name", "Alice", "--out", str(alice), "--keys", str(players["alice"]))
    run("accept", str(alice / "000000.pbem"), "--name", "Bob", "--out", str(bob), "--keys", str(players["bob"]))
    acceptance = (bob / "000001.pbem").read_bytes()
    forged = acceptance.replace(b'"name":"Bob"', b'"name":"Eve"')
    inbox = mailbox.Maildir(mail_system.maildirs["alice"], create=False)
    message = email.message.EmailMessage()
    message["From"] = "eve@pbem.test"
    message["Subject"] = "pbem: forged"
    message.set_content("forged")
    message.add_attachment(forged, maintype="application", subtype="x-pbem", filename="000001.pbem")
    inbox.add(bytes(message))
    run("send", str(bob), "--config", str(bob_cfg), "--keys", str(players["bob"]))
    result = in_process("mail", "--once", "--config", str(alice_cfg), "--keys", str(players["alice"]))
    assert result.exit_code == 5, result.output  # the forged signature's code, after the round went on
    assert "refused message" in result.output and "signature" in result.output
    assert "added 000001.pbem" in result.output
    assert (alice / "000001.pbem").read_bytes() == acceptance


def test_the_turn_report_is_attached_when_the_folder_has_one(players: dict[str, Path], tmp_path: Path) -> None:
    from pbem.exchange import mailer
    from pbem.game import store
    from pbem.cli.mail import report_for

    alice, bob = tmp_path / "alice-game", tmp_path / "bob-game"
    run("new", "quick", "--ruleset", "duel", "--side", "Red", "--name", "Alice", "--out", str(alice), "--keys", str(players["alice"]))
    run("accept", str(alice / "000000.pbem"), "--name", "Bob", "--out", str(bob), "--keys", str(players["bob"]))
    game = store.load(bob)
    assert report_for(bob, 1) is None
    (bob / "report").mkdir()
    (bob / "report" / "file-000002.html").write_text("<html><body>turn report</body></html>")
    assert report_for(bob, 3) == mailer.Attachment("file-000002.html", b"<html><body>turn report</body></html>")
    message = mailer.compose(game, 1, "bob@pbem.test", "Bob", "alice@pbem.test", report_for(bob, 3))
    names = [part.get_filename() for part in message.iter_attachments()]
    assert names == ["000001.pbem", "file-000002.html"]


def test_send_over_implicit_tls(mail_system: MailSystem, players: dict[str, Path], tmp_path: Path) -> None:
    """security = "tls": TLS from the first byte (port 465 style), to a second aiosmtpd that speaks only that."""
    import ssl

    from aiosmtpd.controller import Controller

    from .conftest import Deliver, _authenticate, free_port

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(mail_system.certs.cert, mail_system.certs.key)
    port = free_port()
    server = Controller(
        Deliver(mail_system.maildirs, mail_system.delivered), hostname="127.0.0.1", port=port,
        ssl_context=context, auth_required=True, authenticator=_authenticate,
        auth_require_tls=False,  # the whole connection is TLS already; aiosmtpd only knows STARTTLS as "TLS"
    )
    server.start()
    try:
        alice = tmp_path / "alice-game"
        config = mail_system.settings("alice", {alice: mail_system.address("bob")}, tmp_path)
        text = config.read_text()
        smtp = text[text.index("[smtp]") : text.index("[imap]")]
        config.write_text(text.replace(smtp, smtp.replace(f"port = {mail_system.smtp_port}", f"port = {port}").replace('"starttls"', '"tls"')))
        run("new", "quick", "--ruleset", "duel", "--side", "Red", "--out", str(alice), "--keys", str(players["alice"]))
        assert "sent 000000.pbem to bob@pbem.test" in run("send", str(alice), "--config", str(config), "--keys", str(players["alice"]))
        assert len(list((mail_system.maildirs["bob"] / "new").iterdir())) == 1
    finally:
        server.stop()
