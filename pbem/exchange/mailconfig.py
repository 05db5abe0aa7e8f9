"""The player's mail settings ($XDG_CONFIG_HOME/pbem/mail.toml) and mail state.

Settings are read, never written: pbem keeps what it learns (opponents'
addresses, messages already read, files already sent) in a state file,
$XDG_STATE_HOME/pbem/mail-state.json. A password is never in either: it
comes from an environment variable or the system keyring (docs/mail.md).
"""

from __future__ import annotations

import ipaddress
import json
import os
import shlex
import tomllib
from pathlib import Path
from typing import Any

import msgspec

from pbem.game import folder as folders
from pbem.errors import MailProblem

SECURITIES = ("starttls", "tls", "plain")
DEFAULT_PORTS = {"smtp": {"starttls": 587, "tls": 465, "plain": 25}, "imap": {"starttls": 143, "tls": 993, "plain": 143}}


def config_path(explicit: Path | None = None) -> Path:
    if explicit is not None:
        return explicit
    if env := os.environ.get("PBEM_MAIL_CONFIG"):
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "pbem" / "mail.toml"


def state_path(config: Path) -> Path:
    """The state file beside an explicit config, else in $XDG_STATE_HOME."""
    if os.environ.get("PBEM_MAIL_CONFIG") is None and config == config_path():
        base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        return Path(base) / "pbem" / "mail-state.json"
    return config.with_name(config.stem + "-state.json")


class Server(msgspec.Struct, frozen=True):
    """One SMTP or IMAP server as the settings name it."""

    kind: str  # "smtp" or "imap"
    host: str
    port: int
    security: str
    user: str
    password_env: str
    keyring_service: str
    cafile: str
    folder: str = "INBOX"

    def password(self) -> str | None:
        """From the environment, else the system keyring (if the keyring package is installed)."""
        if not self.user:
            return None
        if value := os.environ.get(self.password_env):
            return value
        try:
            import keyring  # optional: the system keyring
        except ImportError:
            keyring = None
        if keyring is not None:
            try:
                value = keyring.get_password(self.keyring_service, self.user)
            except Exception as exc:  # any keyring back-end failure is one line
                raise MailProblem(f"{self.kind} password: the system keyring failed ({exc})") from None
            if value:
                return value
        raise MailProblem(
            f"no {self.kind.upper()} password for {self.user}: set ${self.password_env}, or store it in the system "
            f"keyring (service {self.keyring_service!r}, user {self.user!r}); pbem never keeps it in a file"
        )


class MailConfig(msgspec.Struct, frozen=True):
    path: Path
    address: str
    name: str
    smtp: Server | None
    imap: Server | None
    maildir: Path | None
    games: dict[Path, str] = msgspec.field(default_factory=dict)  # game folder -> opponent's address
    attach_report: bool = False  # the HTML report in every mail (the receiver renders his own anyway)
    notify: tuple[str, ...] = ()  # argv run by `pbem watch` when a file arrives (pbem.exchange.notify)


def _server(kind: str, table: Any, address: str, where: str) -> Server:
    if not isinstance(table, dict):
        raise MailProblem(f"{where}: [{kind}] must be a table")
    unknown = set(table) - {"host", "port", "security", "user", "password_env", "keyring", "cafile", "folder"}
    if "password" in table:
        raise MailProblem(f"{where}: [{kind}] holds a password; pbem never keeps one in a file "
                          f"(use ${table.get('password_env', 'PBEM_' + kind.upper() + '_PASSWORD')} or the system keyring)")
    if unknown:
        raise MailProblem(f"{where}: [{kind}] has unknown settings: {', '.join(sorted(unknown))}")
    host = table.get("host")
    if not isinstance(host, str) or not host:
        raise MailProblem(f"{where}: [{kind}] needs host = \"...\"")
    security = table.get("security", "starttls")
    if security not in SECURITIES:
        raise MailProblem(f"{where}: [{kind}] security must be one of {', '.join(SECURITIES)}, not {security!r}")
    if security == "plain" and not is_loopback(host):
        raise MailProblem(f"{where}: [{kind}] security = \"plain\" is only for a server on this machine (loopback), "
                          f"not {host}; use starttls or tls")
    port = table.get("port", DEFAULT_PORTS[kind][security])
    if not isinstance(port, int) or not 0 < port < 65536:
        raise MailProblem(f"{where}: [{kind}] port must be a number 1-65535")
    user = table.get("user", address if security != "plain" else "")
    return Server(
        kind, host, port, security, str(user),
        str(table.get("password_env", f"PBEM_{kind.upper()}_PASSWORD")),
        str(table.get("keyring", f"pbem-{kind}")),
        str(table.get("cafile", "")),
        str(table.get("folder", "INBOX")),
    )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def load(explicit: Path | None = None) -> MailConfig:
    path = config_path(explicit)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MailProblem(f"{path}: no mail settings; write them as docs/mail.md shows") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise MailProblem(f"{path}: cannot read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise MailProblem(f"{path}: not valid TOML ({exc})") from None
    where = str(path)
    address = doc.get("address")
    if not isinstance(address, str) or "@" not in address:
        raise MailProblem(f"{where}: needs address = \"you@example.org\" (your own mail address)")
    smtp = _server("smtp", doc["smtp"], address, where) if "smtp" in doc else None
    imap = _server("imap", doc["imap"], address, where) if "imap" in doc else None
    maildir = None
    if "maildir" in doc:
        value = doc["maildir"].get("path") if isinstance(doc["maildir"], dict) else None
        if not isinstance(value, str):
            raise MailProblem(f"{where}: [maildir] needs path = \"...\"")
        maildir = Path(value).expanduser()
    games_table = doc.get("games", {})
    if not isinstance(games_table, dict) or not all(isinstance(v, str) for v in games_table.values()):
        raise MailProblem(f"{where}: [games] maps a game folder to the opponent's address: \"~/games/x\" = \"bob@example.org\"")
    games = {_resolve(Path(k).expanduser(), path): v for k, v in games_table.items()}
    attach = doc.get("attach_report", False)
    if not isinstance(attach, bool):
        raise MailProblem(f"{where}: attach_report is true or false")
    return MailConfig(path, address, str(doc.get("name", "")), smtp, imap, maildir, games, attach, _notify(doc, where))


def _notify(doc: dict[str, Any], where: str) -> tuple[str, ...]:
    """`notify = "notify-send pbem {game} {what}"` (split as a shell would, never run by one) or a list."""
    value = doc.get("notify", "")
    if isinstance(value, str):
        try:
            argv = shlex.split(value)
        except ValueError as exc:
            raise MailProblem(f"{where}: notify: cannot split into a command ({exc})") from None
    elif isinstance(value, list) and all(isinstance(item, str) for item in value):
        argv = list(value)
    else:
        raise MailProblem(f"{where}: notify is a command: a string or a list of strings")
    return tuple(argv)


def _resolve(folder: Path, config: Path) -> Path:
    return (folder if folder.is_absolute() else config.parent / folder).resolve()


class MailState:
    """What pbem learned: read messages, sent files, opponents' addresses; one JSON file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            self.data = {}
        except (OSError, ValueError) as exc:
            raise MailProblem(f"{path}: unreadable mail state ({exc}); move it aside to start afresh") from None
        if not isinstance(self.data, dict):
            raise MailProblem(f"{path}: unreadable mail state (not a JSON object); move it aside to start afresh")
        for key in ("sent", "learned", "imap", "maildir", "refused", "shown", "invitations", "games"):
            if not isinstance(self.data.get(key), dict):
                self.data[key] = {}

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        folders.write_atomic(self.path, json.dumps(self.data, indent=1, sort_keys=True).encode())

    def add_game(self, folder: Path, address: str) -> None:
        """A game folder pbem mail reads for, beside [games]: one accepted or sent from by mail."""
        self.data["games"][str(folder.resolve())] = address

    def games(self) -> dict[Path, str]:
        return {Path(k): v for k, v in self.data["games"].items() if isinstance(v, str)}

    def was_sent(self, game: str, seq: int) -> bool:
        return seq in self.data["sent"].get(game, [])

    def mark_sent(self, game: str, seq: int) -> None:
        sent = self.data["sent"].setdefault(game, [])
        if seq not in sent:
            sent.append(seq)

    def set_address(self, game: str, address: str) -> None:
        """The player named the opponent's address (`pbem send --to`): it replaces any learned one."""
        self.data["learned"][game] = address

    def learned(self, game: str) -> str | None:
        value = self.data["learned"].get(game)
        return value if isinstance(value, str) else None

    def learn_from(self, game: str, sender: str, seq: int, configured: str | None) -> str | None:
        """A message from `sender` added file `seq`, signed by the opponent: learn it if nothing is known yet.

        Returns the line to show, if any. The first address learned stays
        (trust on first use): the From of a later message is shown, once per
        address, and never used by itself, since whoever has a copy of the
        opponent's new file can mail it (docs/security.md, "The mail loop").
        """
        if not plausible_address(sender):
            return None
        current = configured or self.learned(game)
        if current is None:
            self.data["learned"][game] = sender
            return (f"your opponent's address is now {sender} (the message that brought his file {seq}); "
                    f"pbem send GAME-FOLDER --to ADDRESS or [games] changes it")
        if sender.lower() == current.lower():
            return None
        shown = self.data["shown"].setdefault(game, [])
        if sender.lower() in shown:
            return None
        shown.append(sender.lower())
        where = "[games]" if configured else "learned first"
        return (f"file {seq} came from {sender}, but pbem sends to {current} ({where}); "
                f"if your opponent has moved, pbem send GAME-FOLDER --to {sender} (or set [games])")

    def refused(self, message: str, reason: str) -> None:
        """A message refused for good, with its reason; the latest REFUSED_KEPT are kept."""
        refused = self.data["refused"]
        refused.pop(message, None)
        refused[message] = reason
        while len(refused) > REFUSED_KEPT:
            refused.pop(next(iter(refused)))


REFUSED_KEPT = 500


def plausible_address(address: str) -> bool:
    """One mailbox, local@domain, as parseaddr leaves it: no spaces, controls or second @ in the domain."""
    local, at, domain = address.rpartition("@")
    return (
        bool(at and local and domain) and len(address) <= 254
        and all(33 <= ord(ch) < 127 for ch in address) and "@" not in domain
    )
