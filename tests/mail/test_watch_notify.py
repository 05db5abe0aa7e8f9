"""Issue 24, item 3: `pbem watch` wakes by IMAP IDLE and runs the player's notify command, as an argv.

The watch runs as the real console script against real dovecot; the
invitation goes through real SMTP. The host's name is hostile (shell
syntax, a leading dash): the notification receives it as text inside one
argument, and nothing it spells is run. The seconds from sending to the
notification are printed (pytest -s), not asserted: the test waits for
the watch to end its two rounds, however long the machine takes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.in_process import run
from pbem.exchange import notify
from pbem.signed import identity as ids

from .conftest import PLAYERS, MailSystem

HOSTILE = '-rf $(touch PWNED); `touch PWNED2` "x'


def test_placeholders_are_substituted_per_argument_and_never_make_an_option() -> None:
    template = ("notify-send", "pbem {game}", "{what}", "--urgency=low", "{whose}")
    arrival = notify.Arrival("tauris", "/g/tauris", HOSTILE + "\n\x1b[2Jnext", "yours")
    argv = notify.argv(template, arrival)
    assert argv[:2] == ["notify-send", "pbem tauris"]
    assert argv[2].startswith(" -rf $(touch PWNED)") and "\n" not in argv[2] and "\x1b" not in argv[2]
    assert argv[3:] == ["--urgency=low", "yours"]


def test_watch_wakes_on_the_invitation_and_notifies(mail_system: MailSystem, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for user, password in PLAYERS.items():
        monkeypatch.setenv(f"TEST_{user.upper()}_MAIL_PASSWORD", password)
    env = dict(os.environ)
    keys = {user: tmp_path / f"{user}-keys" for user in PLAYERS}
    for user in PLAYERS:
        ids.generate(user, keys[user])
    seen = tmp_path / "notified.jsonl"
    configs = {user: mail_system.settings(user, {}, tmp_path) for user in PLAYERS}
    script = "import json, sys; open(sys.argv[1], 'a').write(json.dumps(sys.argv[2:]) + '\\n')"
    command = json.dumps([sys.executable, "-c", script, str(seen), "{game}", "{what}", "{whose}"])
    configs["bob"].write_text(f"notify = {command}\n" + configs["bob"].read_text())

    watch = subprocess.Popen(
        [sys.executable, "-c", "from pbem.cli.entry import main; main()", "watch", "--rounds", "2", "--interval", "120",
         "--config", str(configs["bob"]), "--keys", str(keys["bob"])],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        game = tmp_path / "alice-game"
        run("new", "quick", "--ruleset", "duel", "--side", "Red", f"--name={HOSTILE}", "--out", str(game),
            "--keys", str(keys["alice"]))
        assert watch.stdout is not None
        first = watch.stdout.readline()  # its first round is done and IDLE begins: only now the mail goes
        assert first.startswith("pbem watch: waiting for mail"), first
        sent = time.monotonic()
        run("send", str(game), "--to", mail_system.address("bob"), "--config", str(configs["alice"]), "--keys", str(keys["alice"]))
        rest, err = watch.communicate(timeout=300)
        took = time.monotonic() - sent
        out = first + rest
    finally:
        if watch.poll() is None:
            watch.kill()
            watch.wait()
    assert watch.returncode == 0, (out, err)
    assert "invitation" in out and "accept it: pbem accept" in out, out
    (line,) = seen.read_text().splitlines()
    game_id, what, whose = json.loads(line)
    assert what == f"invitation from {HOSTILE} to quick" and whose == "yours" and len(game_id) == 8
    assert not (tmp_path / "PWNED").exists() and not (tmp_path / "PWNED2").exists()
    print(f"\npbem watch: the invitation sent, noticed by IMAP IDLE and notified in {took:.1f} s")
