"""Issue 24, item 2: a mail carrying a Tauris file is at most 20 KB, with its account and no HTML report.

Every file of the recorded Tauris game (examples/tauris-game) is composed as
`pbem send` would; the sizes are printed (pytest -s). The report is
attached only when the settings ask for it (attach_report = true).
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from pbem.errors import MailProblem
from pbem.exchange import account, intake, mailconfig, mailer
from pbem.game import store

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tauris-game"
MAX_MAIL_BYTES = 20 * 1024


def test_every_tauris_mail_is_at_most_20_kb_and_tells_what_happened() -> None:
    game = store.load(EXAMPLE)
    sizes = []
    told = 0
    for seq in range(len(game.files)):
        message = mailer.compose(game, seq, "alice@pbem.test", "Alice", "bob@pbem.test")
        assert [p.get_content_type() for p in message.iter_attachments()] == ["application/x-pbem"]
        text = message.get_body(("plain",)).get_content()
        told += "Your decision now" in text or "Orders in this file" in text
        sizes.append(len(message.as_bytes()))
    print(f"\nTauris mails, {len(sizes)} files: median {statistics.median(sizes) / 1024:.1f} KB, "
          f"largest {max(sizes) / 1024:.1f} KB, {sum(sizes) / 1024:.0f} KB in all")
    assert max(sizes) <= MAX_MAIL_BYTES
    assert told >= len(game.files) // 2


def test_attach_report_is_a_setting_true_or_false(tmp_path: Path) -> None:
    path = tmp_path / "mail.toml"
    path.write_text('address = "a@pbem.test"\nattach_report = true\nnotify = "notify-send pbem {game} {what}"\n')
    settings = mailconfig.load(path)
    assert settings.attach_report is True and settings.notify == ("notify-send", "pbem", "{game}", "{what}")
    path.write_text('address = "a@pbem.test"\nattach_report = "yes"\n')
    with pytest.raises(MailProblem, match="attach_report is true or false"):
        mailconfig.load(path)
    path.write_text('address = "a@pbem.test"\nnotify = 3\n')
    with pytest.raises(MailProblem, match="notify is a command"):
        mailconfig.load(path)


def test_an_account_keeps_within_its_count_and_its_bytes() -> None:
    """A melee of long events or long options is cut by bytes as well as by count (a 21.6 KB mail in CI)."""
    lines = [f"event {i}: " + "x" * 200 for i in range(100)]
    kept = account.cut(iter(lines), account.EVENTS_SHOWN, account.EVENTS_BYTES)
    assert kept == lines[:len(kept)] and 0 < len(kept) < account.EVENTS_SHOWN
    assert sum(len(line) + 1 for line in kept) <= account.EVENTS_BYTES
    assert account.cut(iter(["short"] * 100), 12, 2048) == ["short"] * 12
    assert account.cut(iter(["x" * 5000]), 12, 2048) == []


def test_the_longest_tauris_resolution_is_cut_and_says_so() -> None:
    game = store.load(EXAMPLE)
    seq = 100  # file 99 resolved 72 events, 5.2 KB of them: past the mail's 4 KB
    assert len(game.resolutions[seq - 1].events) == 72
    text = "\n".join(account.account(game, seq))
    assert "more events (the report pbem writes has them all)" in text
    assert len(text.encode()) <= account.EVENTS_BYTES + account.LEGAL_BYTES + 1024


def test_a_mail_over_its_bound_gives_its_account_less_room_then_sends_the_file_armored_only() -> None:
    """The account shrinks room by room to fit (a Tauris mail once reached 23.5 KB); a file too large
    for two copies even then (a 7.3 KB Tauris file made a 21.7 KB mail) travels armored only, and the
    message still gives `pbem receive` the very file."""
    game = store.load(EXAMPLE)
    seq = 100  # the 72 events of file 99
    full = mailer.compose(game, seq, "alice@pbem.test", "Alice", "bob@pbem.test")
    full_size = len(full.as_bytes())
    sizes, attached = [], []
    for limit in (full_size + mailer.RELAY_HEADERS, full_size + mailer.RELAY_HEADERS - 1, 0):
        message = mailer.compose(game, seq, "alice@pbem.test", "Alice", "bob@pbem.test", limit=limit)
        text = message.get_body(("plain",)).get_content()
        assert "events (the report pbem writes has them all)" in text
        assert {found.raw for found in intake.read_bytes(message.as_bytes(), "mail")} == {game.files[seq].raw}
        attached.append([p.get_content() for p in message.iter_attachments()])
        sizes.append(len(message.as_bytes()))
    assert sizes[0] == full_size > sizes[1] > sizes[2]
    assert attached[:2] == [[game.files[seq].raw]] * 2 and attached[2] == []  # the last: armored only
    assert "72 events (the report pbem writes has them all)" in text and "not attached" in text


def test_a_mail_body_is_never_base64() -> None:
    """The email package picks base64 for a body whose first lines look unlike English, which would
    encode the armored file twice: the body is 7bit when it can be, else quoted-printable."""
    assert mailer.transfer_encoding("plain\nshort lines\n") == "7bit"
    assert mailer.transfer_encoding("x" * 79) == "quoted-printable"
    assert mailer.transfer_encoding("éà€ ☆★" * 10) == "quoted-printable"
