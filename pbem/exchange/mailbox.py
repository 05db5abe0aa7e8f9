"""Where `pbem mail` and `pbem watch` read: an IMAP folder or a Maildir, each message read bounded.

A mailbox lists the messages not handled before (its part of the mail state:
IMAP's UIDVALIDITY, high-water UID and pending UIDs; a Maildir's keys), reads
one at a time within pbem.exchange.intake's bound, and marks a message
handled once the round is done with it (\\Seen only for a message that carried
a file of the player's games). docs/mail.md.
"""

from __future__ import annotations

import contextlib
import os
import ssl
import time
from pathlib import Path
from typing import Any, Iterator, Protocol

from pbem.errors import MailProblem, MalformedFile, MissingFile, PbemError
from pbem.exchange import intake
from pbem.exchange.mailconfig import MailConfig, MailState, Server


class Mailbox(Protocol):
    """Where a round reads: the messages to look at, each read bounded, each marked once handled."""

    name: str

    def keys(self) -> list[str]: ...

    def read(self, key: str) -> bytes: ...

    def handled(self, key: str, seen: bool) -> None: ...

    def close(self) -> None: ...


class ImapBox:
    """An IMAP folder. State: UIDVALIDITY, the highest UID looked at, and the UIDs left pending below it."""

    def __init__(self, server: Server, state: MailState) -> None:
        self.where = f"IMAP {server.host}:{server.port}"
        self.state = state
        self.client = _connect(server)
        try:
            with self._errors():
                selected = self.client.select_folder(server.folder)
                validity = int(selected[b"UIDVALIDITY"])
                self.name = box_name(server)
                seen = state.data["imap"].get(self.name, {})
                same = seen.get("uidvalidity") == validity
                last = int(seen.get("last_uid", 0)) if same else 0
                pending = {int(uid) for uid in seen.get("pending", [])} if same else set()
                new = {uid for uid in self.client.search(["UID", f"{last + 1}:*"]) if uid > last}
                listed = sorted(pending | new)
                # Sizes first (RFC822.SIZE): a message over the bound is refused without downloading it.
                sizes = self.client.fetch(listed, ["RFC822.SIZE"]) if listed else {}
                self.sizes = {int(uid): int(data[b"RFC822.SIZE"]) for uid, data in sizes.items()}
                self.uids = [uid for uid in listed if uid in self.sizes]  # a pending one deleted since is gone
                self.entry = {"uidvalidity": validity, "last_uid": max([last, *new]), "pending": list(self.uids)}
                state.data["imap"][self.name] = self.entry
        except MailProblem:
            self.close()
            raise

    def _errors(self) -> contextlib.AbstractContextManager[None]:
        return _imap_errors(self.where)

    def keys(self) -> list[str]:
        return [str(uid) for uid in self.uids]

    def read(self, key: str) -> bytes:
        uid = int(key)
        limit = intake.MAX_MESSAGE_BYTES
        if self.sizes[uid] > limit:
            raise MalformedFile(f"message {key}: {self.sizes[uid]} bytes, more than the {limit} a pbem message can be; not downloaded")
        with self._errors():
            # At most one byte over the bound, whatever size the server claimed.
            fetched = self.client.fetch([uid], [f"BODY.PEEK[]<0.{limit + 1}>"]).get(uid, {})
        data = next((value for name, value in fetched.items() if bytes(name).startswith(b"BODY[")), None)
        if not isinstance(data, bytes):
            raise MissingFile(f"message {key}: the server sent no body (deleted meanwhile?)")
        return data

    def handled(self, key: str, seen: bool) -> None:
        uid = int(key)
        if uid in self.entry["pending"]:
            self.entry["pending"].remove(uid)
        if seen:
            with self._errors():
                self.client.add_flags([uid], [b"\\Seen"])

    def close(self) -> None:
        _logout(self.client)


def box_name(server: Server) -> str:
    return f"{server.user}@{server.host}:{server.port}/{server.folder}"


def _connect(server: Server) -> Any:
    """Logged in (TLS or STARTTLS, certificates verified), no folder selected yet."""
    from imapclient import IMAPClient

    where = f"IMAP {server.host}:{server.port}"
    password = server.password()
    with _imap_errors(where):
        context = ssl.create_default_context(cafile=server.cafile or None)
        client = IMAPClient(server.host, port=server.port, ssl=server.security == "tls", ssl_context=context, timeout=60)
    try:
        with _imap_errors(where):
            if server.security == "starttls":
                client.starttls(context)
            client.login(server.user, password or "")
    except MailProblem:
        _logout(client)
        raise
    return client


def _logout(client: Any) -> None:
    try:
        client.logout()
    except Exception:  # gone already: nothing to close
        pass


def wait_for_mail(server: Server, state: MailState, timeout: float) -> bool:
    """IMAP IDLE until a message arrives or `timeout` seconds pass; False if the server cannot IDLE.

    Mail that came after the last round and before IDLE began has a UID
    above the last one looked at: that is checked first (not UIDNEXT, which
    stays above a deleted last message and would never let pbem wait). A server without IDLE returns
    False at once: the caller waits its interval instead. Either way a
    round follows; a round that finds nothing costs one login.
    """
    where = f"IMAP {server.host}:{server.port}"
    client = _connect(server)
    try:
        with _imap_errors(where):
            selected = client.select_folder(server.folder, readonly=True)
            seen = state.data["imap"].get(box_name(server), {})
            if seen.get("uidvalidity") != int(selected[b"UIDVALIDITY"]):
                return True
            last = int(seen.get("last_uid", 0))
            if any(uid > last for uid in client.search(["UID", f"{last + 1}:*"])):
                return True
            if not client.has_capability("IDLE"):
                return False
            deadline = time.monotonic() + timeout
            while True:
                client.idle()
                try:
                    heard = client.idle_check(timeout=max(0.0, min(IDLE_SLICE, deadline - time.monotonic())))
                finally:
                    _, before_done = client.idle_done()
                if _news(heard) or _news(before_done) or time.monotonic() >= deadline:
                    return True
    finally:
        _logout(client)


# IDLE is ended and begun again this often. Mail that lands between the UID search and IDLE is
# announced (EXISTS) right after the server's "+ idling", often in the same TLS record: the IMAP
# library reads both lines into its buffer with the first, and a wait on the socket then never
# sees the second. Ending IDLE reads what was buffered: such mail is noticed within one slice, not
# at the timeout (a watch in the test suite slept 22 to 63 s so, against 0.7 s without the race).
IDLE_SLICE = 5.0


def _news(responses: list[Any]) -> bool:
    """Whether IDLE's untagged responses announce a message (`* 3 EXISTS`, `* 1 RECENT`)."""
    return any(len(r) >= 2 and r[1] in (b"EXISTS", b"RECENT") for r in responses if isinstance(r, tuple))


@contextlib.contextmanager
def _imap_errors(where: str) -> Iterator[None]:
    """Any failure of the connection (or a server's nonsense reply) as MailProblem in one line."""
    from imapclient.exceptions import IMAPClientError

    try:
        yield
    except MailProblem:
        raise
    except (IMAPClientError, OSError, ssl.SSLError, EOFError, PbemError) as exc:
        raise MailProblem(f"{where}: {exc}") from None


class MaildirBox:
    """A Maildir. State: the keys handled; every other message in new/ or cur/ is looked at."""

    def __init__(self, path: Path, state: MailState) -> None:
        if not intake.is_maildir(path):
            raise MailProblem(f"{path}: not a Maildir (it needs cur/ and new/)")
        self.path = path
        self.name = str(path)
        self.files = dict(intake.maildir_messages(path))
        read = set(state.data["maildir"].get(str(path), [])) & set(self.files)
        self.read_keys = read
        state.data["maildir"][str(path)] = sorted(read)
        self.state = state

    def keys(self) -> list[str]:
        return [key for key in self.files if key not in self.read_keys]

    def read(self, key: str) -> bytes:
        return intake.read_bounded(self.files[key], intake.MAX_MESSAGE_BYTES)

    def handled(self, key: str, seen: bool) -> None:
        self.read_keys.add(key)
        self.state.data["maildir"][str(self.path)] = sorted(self.read_keys)
        if seen:
            self._mark_seen(self.files[key])

    def _mark_seen(self, file: Path) -> None:
        """new/KEY -> cur/KEY:2,S, or add S to a cur/ name's flags (the Maildir convention)."""
        name = file.name
        base, _, flags = name.partition(":2,")
        flags = "".join(sorted(set(flags) | {"S"}))
        try:
            os.rename(file, self.path / "cur" / f"{base}:2,{flags}")
        except OSError:  # moved by the player's mail program meanwhile: it is his to mark
            pass

    def close(self) -> None:
        return None


def open_mailbox(config: MailConfig, state: MailState) -> Mailbox:
    if config.imap is not None:
        return ImapBox(config.imap, state)
    if config.maildir is not None:
        return MaildirBox(config.maildir, state)
    raise MailProblem(f"{config.path}: neither [imap] nor [maildir]: pbem has no mail to read")
