"""Real mail servers on loopback, started by the tests.

- SMTP: aiosmtpd with STARTTLS required and AUTH required after it, its
  certificate signed by a throw-away CA made here with `cryptography`; a
  handler delivers each message into the recipient's Maildir.
- IMAP: Debian's dovecot-imapd run as a non-daemon (`dovecot -F`) with its
  own base_dir, a passwd-file of the players (two, and a team game's two more), those Maildirs, STARTTLS
  with the same CA, on a free port of 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import mailbox
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if Path("/usr/sbin/dovecot").exists() else None)
PLAYERS = {"alice": "alice-secret", "bob": "bob-secret"}
TEAMMATES = {"carol": "carol-secret", "dave": "dave-secret"}  # a team game's other two seats (tests/mail/test_team_by_mail.py)
USERS = {**PLAYERS, **TEAMMATES}  # every mailbox the servers hold
DOMAIN = "pbem.test"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Certs:
    ca: Path
    cert: Path
    key: Path


def make_certs(folder: Path) -> Certs:
    """A CA and a server certificate for 127.0.0.1 and localhost."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pbem test CA")])
    ca = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    certs = Certs(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    certs.ca.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    certs.cert.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    certs.key.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    os.chmod(certs.key, 0o600)
    return certs


@dataclass
class MailSystem:
    """The two servers and the players' mailboxes."""

    root: Path
    certs: Certs
    smtp_port: int
    imap_port: int
    maildirs: dict[str, Path]
    delivered: list[str]

    def address(self, user: str) -> str:
        return f"{user}@{DOMAIN}"

    def settings(self, user: str, games: dict[Path, str], folder: Path) -> Path:
        """A player's mail.toml: STARTTLS to both servers, passwords from the environment."""
        lines = [
            f'address = "{self.address(user)}"',
            f'name = "{user.title()}"',
            "[smtp]",
            'host = "127.0.0.1"',
            f"port = {self.smtp_port}",
            'security = "starttls"',
            f'user = "{user}"',
            f'password_env = "TEST_{user.upper()}_MAIL_PASSWORD"',
            f'cafile = "{self.certs.ca}"',
            "[imap]",
            'host = "127.0.0.1"',
            f"port = {self.imap_port}",
            'security = "starttls"',
            f'user = "{user}"',
            f'password_env = "TEST_{user.upper()}_MAIL_PASSWORD"',
            f'cafile = "{self.certs.ca}"',
            "[games]",
            *(f'"{game}" = "{address}"' for game, address in games.items()),
        ]
        path = folder / f"{user}-mail.toml"
        path.write_text("\n".join(lines) + "\n")
        return path


class Deliver:
    """aiosmtpd handler: each message into every recipient's Maildir (the MDA's job)."""

    def __init__(self, maildirs: dict[str, Path], delivered: list[str]) -> None:
        self.maildirs = maildirs
        self.delivered = delivered

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        user, _, domain = address.partition("@")
        if domain != DOMAIN or user not in self.maildirs:
            return "550 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        for address in envelope.rcpt_tos:
            box = mailbox.Maildir(self.maildirs[address.partition("@")[0]], create=False)
            box.add(b"Delivered-To: " + address.encode() + b"\r\n" + envelope.content)
            box.close()
            self.delivered.append(address)
        return "250 delivered"


def _authenticate(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> Any:
    from aiosmtpd.smtp import AuthResult, LoginPassword

    if isinstance(data, LoginPassword):
        user = data.login.decode()
        return AuthResult(success=USERS.get(user) == data.password.decode(), handled=False)
    return AuthResult(success=False, handled=False)


def _dovecot_config(base: Path, certs: Certs, port: int, users: Path, mail: Path) -> Path:
    root = os.getuid() == 0
    me = pwd.getpwuid(os.getuid()).pw_name
    internal = "dovecot" if root else me
    login = "dovenull" if root else me
    lines = [
        f"base_dir = {base / 'run'}",
        f"state_dir = {base / 'state'}",
        f"log_path = {base / 'dovecot.log'}",
        "protocols = imap",
        "listen = 127.0.0.1",
        "ssl = required",
        f"ssl_cert = <{certs.cert}",
        f"ssl_key = <{certs.key}",
        "auth_mechanisms = plain login",
        f"mail_location = maildir:{mail}/%u",
        # IDLE looks at the Maildir every second besides inotify: a message the test's SMTP handler wrote
        # as IDLE began was once noticed only at the watcher's next round (115 s of a 0.9 s test)
        "mailbox_idle_check_interval = 1 secs",
        f"default_internal_user = {internal}",
        f"default_login_user = {login}",
        f"mail_uid = {internal}",
        f"mail_gid = {pwd.getpwnam(internal).pw_gid}",
        "first_valid_uid = 0",
        "first_valid_gid = 0",
        "passdb {", "  driver = passwd-file", f"  args = scheme=PLAIN username_format=%u {users}", "}",
        "userdb {", "  driver = passwd-file", f"  args = username_format=%u {users}", "}",
        "service imap-login {", "  inet_listener imap {", "    address = 127.0.0.1", f"    port = {port}", "  }",
        "  inet_listener imaps {", "    port = 0", "  }", "}",
    ]
    if root:  # the auth processes read the passwd-file in a root-only temporary folder
        lines += ["service auth {", "  user = root", "}", "service auth-worker {", "  user = root", "}"]
    path = base / "dovecot.conf"
    path.write_text("\n".join(lines) + "\n")
    return path


def _wait_for(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"dovecot exited: {log.read_text() if log.exists() else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                if sock.recv(100).startswith(b"* OK"):
                    return
        except OSError:
            time.sleep(0.1)
    pytest.fail("dovecot did not start listening")


@pytest.fixture
def mail_system(tmp_path: Path) -> Iterator[MailSystem]:
    if DOVECOT is None:
        pytest.skip("dovecot-imapd is not installed (apt-get install dovecot-imapd; .ci/run does)")
    from aiosmtpd.controller import Controller

    # dovecot's own users (dovecot, dovenull) must reach the mailboxes: a folder outside pytest's 0700 tree.
    base = Path(tempfile.mkdtemp(prefix="pbem-mail-"))
    os.chmod(base, 0o711)
    certs = make_certs(base)
    mail = base / "mail"
    mail.mkdir()
    internal = "dovecot" if os.getuid() == 0 else pwd.getpwuid(os.getuid()).pw_name
    maildirs: dict[str, Path] = {}
    for user in USERS:
        mailbox.Maildir(mail / user, create=True).close()
        for sub in ("", "cur", "new", "tmp"):
            shutil.chown(mail / user / sub, internal, internal)
        maildirs[user] = mail / user
    shutil.chown(mail, internal, internal)
    users = base / "users"
    users.write_text("".join(f"{user}:{{PLAIN}}{password}:::::\n" for user, password in USERS.items()))
    imap_port, smtp_port = free_port(), free_port()
    for sub in ("run", "state"):
        (base / sub).mkdir()
    config = _dovecot_config(base, certs, imap_port, users, mail)
    # Its own process group: stopped at once with all its children (its graceful stop waits about 1.1 s,
    # 23 s of the suite's time over the mail tests; nothing of a test's server outlives the test).
    dovecot = subprocess.Popen([DOVECOT, "-F", "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    delivered: list[str] = []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certs.cert, certs.key)
    smtp = Controller(
        Deliver(maildirs, delivered), hostname="127.0.0.1", port=smtp_port,
        tls_context=context, require_starttls=True, auth_required=True, auth_require_tls=True,
        authenticator=_authenticate,
    )
    try:
        _wait_for(imap_port, dovecot, base / "dovecot.log")
        smtp.start()
        yield MailSystem(base, certs, smtp_port, imap_port, maildirs, delivered)
    finally:
        try:
            smtp.stop()
        except Exception:  # not started
            pass
        with contextlib.suppress(ProcessLookupError):  # gone already
            os.killpg(dovecot.pid, signal.SIGKILL)
        dovecot.wait()
        shutil.rmtree(base, ignore_errors=True)
