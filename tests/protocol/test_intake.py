"""Intake: a file however it was sent (raw, pasted, as email, in a mailbox) and one file read one way.

Issue 13's acceptance: the same file as an .eml in quoted-printable, base64
and multipart form, in an mbox, in a Maildir and as a collapsed forum paste.
Issue 10's attack "one file read two ways": a raw file whose note holds an
armored block (behind U+2028, which str.splitlines treats as a line break)
is read as itself, never searched for armor.
"""

from __future__ import annotations

import mailbox
import time
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import Callable

import pytest

from pbem.exchange import armor
from pbem.exchange import intake
from pbem.game import session
from pbem.errors import MalformedFile
from pbem.signed.movefile import file_name

from .conftest import Kit, Recorded, Run


def _armored(recorded: Recorded, k: int) -> str:
    return armor.armor(recorded.raws[k], f"Game: {recorded.game_id} File: {k}")


def _message(body: str, cte: str | None = None, subject: str = "pbem: my move") -> EmailMessage:
    message = EmailMessage(policy=default_policy)
    message["From"] = "Alice <alice@example.org>"
    message["To"] = "Bob <bob@example.org>"
    message["Subject"] = subject
    message["Message-ID"] = f"<{time.time_ns()}@example.org>"
    if cte:
        message.set_content(body, cte=cte)
    else:
        message.set_content(body)
    return message


def _step(recorded: Recorded) -> int:
    """A move file whose armored form holds '=' (so quoted-printable really encodes it)."""
    for k in range(3, len(recorded.raws) - 1):
        if "=" in _armored(recorded, k):
            return k
    pytest.fail("no armored file with '=' in the recorded game")


def forms(recorded: Recorded, k: int, tmp: Path) -> dict[str, Path]:
    """File k of the recorded game in every form a player may be handed it."""
    text = _armored(recorded, k)
    paths: dict[str, Path] = {}

    def put(name: str, data: bytes) -> None:
        paths[name] = tmp / name
        paths[name].write_bytes(data)

    put("raw.pbem", recorded.raws[k])
    put("paste.txt", ("Hi, my move:\n\n" + text + "\nCheers\n").encode())
    put("qp.eml", bytes(_message("Here it is:\n" + text.replace("\n", " ") + "\n", cte="quoted-printable")))
    put("b64.eml", bytes(_message(text, cte="base64")))
    multipart = _message("My move is attached, and armored below.\n\n" + text)
    multipart.add_alternative(f"<html><body><p>My move:</p><pre>{text}</pre></body></html>", subtype="html")
    multipart.add_attachment(recorded.raws[k], maintype="application", subtype="octet-stream", filename=file_name(k))
    put("multipart.eml", bytes(multipart))
    attached_only = _message("See the attachment.")
    attached_only.add_attachment(recorded.raws[k], maintype="application", subtype="x-pbem", filename=file_name(k))
    put("attached.eml", bytes(attached_only))
    put("forum.txt", ("[quote]Alice wrote: [code]" + " ".join(text.split()) + "[/code][/quote] your move").encode())
    put("fence.md", ("Reply:\n\n```text\n" + text + "```\n").encode())
    put("quoted-reflowed.txt", ("> " + " ".join(text.split())[:70] + "\n> " + " ".join(text.split())[70:] + "\n").encode())
    box = mailbox.mbox(tmp / "inbox.mbox")
    box.add(_message("Unrelated mail, no pbem in it."))
    box.add(bytes(_message(text, cte="quoted-printable")))
    box.close()
    paths["mbox"] = tmp / "inbox.mbox"
    maildir = mailbox.Maildir(tmp / "Maildir", create=True)
    maildir.add(_message("Lunch on Friday?"))
    maildir.add(bytes(_message(text, cte="base64")))
    maildir.close()
    paths["maildir"] = tmp / "Maildir"
    return paths


def test_every_form_yields_the_one_file(recorded: Recorded, tmp_path: Path) -> None:
    k = _step(recorded)
    for name, path in forms(recorded, k, tmp_path).items():
        found = intake.read_path(path)
        assert [f.raw for f in found] == [recorded.raws[k]], name
        if path.is_file():  # the same bytes on standard input are read the same way
            assert [f.raw for f in intake.read_bytes(path.read_bytes(), "standard input")] == [recorded.raws[k]], name


def test_quoted_printable_mail_really_is_encoded(recorded: Recorded, tmp_path: Path) -> None:
    k = _step(recorded)
    paths = forms(recorded, k, tmp_path)
    assert b"=3D" in paths["qp.eml"].read_bytes()
    assert armor.BEGIN.encode() not in paths["b64.eml"].read_bytes()


@pytest.mark.parametrize("form", ["qp.eml", "b64.eml", "multipart.eml", "mbox", "maildir", "forum.txt"])
def test_pbem_receive_takes_each_form(kit: Kit, recorded: Recorded, tmp_path: Path, pbem: Callable[..., Run], form: str) -> None:
    k = _step(recorded)
    folder = kit.copy(tmp_path / "game", k)
    path = forms(recorded, k, tmp_path)[form]
    done = pbem("receive", str(folder), str(path), "--no-reply", keys=recorded.keys)
    assert done.code == 0, done.stderr
    assert f"added {folder / file_name(k)}" in done.stdout
    assert (folder / file_name(k)).read_bytes() == recorded.raws[k]


def test_a_message_without_a_pbem_block_says_so(kit: Kit, recorded: Recorded, tmp_path: Path, pbem: Callable[..., Run]) -> None:
    folder = kit.copy(tmp_path / "game", 5)
    before = kit.snapshot(folder)
    mail = tmp_path / "hello.eml"
    mail.write_bytes(bytes(_message("Sorry, I'll send my move tomorrow.")))
    text = tmp_path / "note.txt"
    text.write_text("Sorry, I'll send my move tomorrow.\n")
    for path in (mail, text):
        done = pbem("receive", str(folder), str(path), keys=recorded.keys)
        assert done.code == 4, done
        assert done.stderr.strip() == f"pbem: error: no pbem file in {path}"
    assert kit.snapshot(folder) == before


def test_the_same_file_in_body_and_attachment_counts_once(recorded: Recorded, tmp_path: Path) -> None:
    k = _step(recorded)
    found = intake.read_path(forms(recorded, k, tmp_path)["multipart.eml"])
    assert len(found) == 1


def test_a_reply_quoting_the_last_file_and_holding_the_next_gives_both(recorded: Recorded) -> None:
    k = _step(recorded)
    quoted = "\n".join("> " + line for line in _armored(recorded, k).splitlines())
    message = _message(_armored(recorded, k + 1) + "\nOn Monday you wrote:\n" + quoted)
    found = intake.read_bytes(bytes(message), "reply.eml")
    assert sorted(f.raw for f in found) == sorted([recorded.raws[k], recorded.raws[k + 1]])


def test_forms_are_decided_from_the_start() -> None:
    assert intake.form_of(b'{"author":"host"}') == "raw"
    assert intake.form_of(b"From alice@example.org Mon Jan  1 00:00:00 2024\n") == "mbox"
    assert intake.form_of(b"Return-Path: <a@b>\nSubject: x\n\nbody") == "message"
    assert intake.form_of(b"Game: 3f File: 2\n-----BEGIN PBEM FILE-----") == "text"
    assert intake.form_of(b"Hi Bob, my invitation:\n> -----BEGIN PBEM FILE-----") == "text"


def test_input_is_bounded(tmp_path: Path) -> None:
    start = time.monotonic()
    with pytest.raises(MalformedFile, match="more than"):
        intake.read_path(Path("/dev/zero"))
    assert time.monotonic() - start < 5


# ----- issue 10: one file read two ways ----------------------------------------------------------


def _smuggling(kit: Kit, recorded: Recorded, note: str) -> tuple[int, bytes]:
    """A validly signed move file whose note carries `note`."""
    k = recorded.acks()[1]
    return k, kit.changed(k, note=note)


def test_attack_a_note_holding_armor_does_not_smuggle_another_file_in(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    other = recorded.other_raws[2]  # a file of another game between the same players
    k, raw = _smuggling(kit, recorded, "good luck\u2028" + armor.armor(other).replace("\n", "\u2028"))
    assert armor.BEGIN.encode() in raw and raw.startswith(b"{")
    path = tmp_path / "move.pbem"
    path.write_bytes(raw)
    assert intake.incoming(path) == [(raw, str(path))]  # the file itself, nothing from its note
    folder = kit.copy(tmp_path / "game", k)
    assert session.receive(folder, intake.incoming(path)).added == [folder / file_name(k)]
    assert (folder / file_name(k)).read_bytes() == raw


def test_attack_a_note_holding_a_begin_marker_does_not_make_a_valid_file_skipped(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    k, raw = _smuggling(kit, recorded, "see below\u2028" + armor.BEGIN + "\u2028AAAA")
    path = tmp_path / "move.pbem"
    path.write_bytes(raw)
    folder = kit.copy(tmp_path / "game", k)
    received = session.receive(folder, intake.incoming(path))
    assert received.added == [folder / file_name(k)]
    assert (folder / file_name(k)).read_bytes() == raw


def test_armor_decodes_once(kit: Kit, recorded: Recorded, tmp_path: Path) -> None:
    """Armor decodes to bytes that are then parsed as a raw file; they are never searched again."""
    inner = armor.armor(recorded.raws[2])
    found = intake.read_bytes(armor.armor(inner.encode()).encode(), "paste")
    assert [f.raw for f in found] == [inner.encode()]
    kit.rejects(kit.copy(tmp_path / "game", 2), found[0].raw, MalformedFile)


# ----- issue 22: hostile mail by hand ----------------------------------------------------------


def _nested(depth: int, inner: bytes = b"Content-Type: text/plain\r\n\r\nhello\r\n") -> bytes:
    head = b"From: eve@example.org\r\nTo: bob@example.org\r\nSubject: deep\r\nMIME-Version: 1.0\r\n"
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth))
    closing = b"".join(b"--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + inner + closing


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("deep.eml", _nested(1000), "more than 64 MIME parts"),  # the stdlib parser recursed out of its stack: rc 70
        ("nine-deep.eml", _nested(9), "nested more than 8 deep"),
        ("many-parts.eml", _nested(1, b"".join(b"--b0\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(70))), "more than 64 MIME parts"),
    ],
)
def test_pbem_receive_of_a_hostile_message_is_one_line_never_70(
    kit: Kit, tmp_path: Path, pbem: Callable[..., Run], name: str, data: bytes, reason: str
) -> None:
    folder = kit.copy(tmp_path / "game", 5)
    before = kit.snapshot(folder)
    path = tmp_path / name
    path.write_bytes(data)
    done = pbem("receive", str(folder), str(path))
    assert done.code == 4 and len(done.stderr.strip().splitlines()) == 1, done
    assert done.stderr.startswith(f"pbem: error: {path}: ") and reason in done.stderr, done
    assert kit.snapshot(folder) == before


def test_a_poison_from_does_not_hide_the_file_in_the_message(recorded: Recorded) -> None:
    """The From that makes the stdlib raise ValueError: `receive` never reads it, the file inside is found."""
    k = _step(recorded)
    data = (b"From: =?utf-8?q?a=0D=0ABcc:_v@x?= <m@evil.example>\r\nTo: bob@example.org\r\nSubject: move\r\n\r\n"
            + _armored(recorded, k).encode())
    message = intake.as_email(data, "poison.eml")
    assert [f.raw for f in intake.from_message(message, "poison.eml")] == [recorded.raws[k]]
    with pytest.raises(MalformedFile, match=r"poison.eml: its From header cannot be read \(ValueError"):
        intake.sender(message, "poison.eml")


def test_html_to_text_by_a_parser() -> None:
    assert intake.html_text("<p>a&amp;b</p><div>c<br>d<br/>e</div>f") == "a&b\nc\nd\ne\nf"
    assert intake.html_text('<a title="x>y">z</a> &lt;tag&gt;') == "z <tag>"  # a '>' inside a quoted attribute
    long_tag = '<span style="' + "color: red; " * 100 + '">kept</span>'  # longer than a piece: never cut
    assert intake.html_text("x" + long_tag + "y") == "xkepty"
    assert intake.html_text("<br" * 10).startswith("<br")  # an unclosed tag ends as text, as at a document's end


def test_an_armored_file_after_a_br_flood_in_html_is_found(recorded: Recorded) -> None:
    """1 MiB of '<br' (an hour for the old regular expressions) before the armor, in an HTML part."""
    k = _step(recorded)
    html_armor = "<br>".join(_armored(recorded, k).splitlines())
    message = EmailMessage(policy=default_policy)
    message["From"] = "alice@example.org"
    message["Subject"] = "my move"
    message.set_content("<html><body>" + "<br" * (2**20 // 3) + "><p>" + html_armor + "</p></body></html>", subtype="html")
    found = intake.read_bytes(bytes(message), "flood.eml")
    assert [f.raw for f in found] == [recorded.raws[k]]


def test_decoded_parts_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(intake, "MAX_DECODED_BYTES", 1000)  # the bound's logic, on a small bound
    message = _message("x" * 600)
    message.add_attachment(b"y" * 600, maintype="application", subtype="octet-stream", filename="a.bin")
    with pytest.raises(MalformedFile, match="decode to more than 1000 bytes"):
        intake.read_bytes(bytes(message), "big.eml")
