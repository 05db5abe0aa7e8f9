"""What every test folder may share: a home of its own (no test writes into the real one) and one headless Chromium per test process.

Playwright's sync API runs an event loop of its own; a second
`sync_playwright()` opened while a session-scoped one is alive in the same
worker fails ("Sync API inside the asyncio loop"). So every browser test asks
for this one fixture, whichever worker xdist puts it on.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.game import writing
from pbem.signed import identity, seals

# The suite never writes into the home of whoever runs it: the state cache's secret, the plug-ins' cache
# and the mail state of every command it runs (in process or as a subprocess, which inherits this
# environment) go under one temporary folder per test process, removed at its end. A test that needs
# another home still sets its own.
_HOME = Path(tempfile.mkdtemp(prefix="pbem-tests-home-"))
os.environ["XDG_STATE_HOME"] = str(_HOME / "state")
os.environ["XDG_CACHE_HOME"] = str(_HOME / "cache")
atexit.register(shutil.rmtree, _HOME, True)

CHROMIUM = Path("/usr/bin/chromium")  # Debian's chromium: nothing is downloaded at run time
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    with playwright_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: a test of ten seconds or more, started first (see below)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests first, the rest in their order: with xdist's work stealing (pyproject.toml) the
    worker that starts them runs them while the other takes its share of the short ones, so the run
    never ends with one worker alone on a 40-second game (the longest first: a classic schedule)."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


# --- replayable randomness ----------------------------------------------------------------------------
# The dice of a game come from its players' keys and the hashes of its files (docs/protocol.md, "Dice"),
# which hold game ids, nonces and times. Drawn from the system, they gave each run of the suite other
# games: a rare one found a real defect, and could not be played again. Here every key, game id, nonce
# and file time that pbem makes in this process is derived from PBEM_TEST_SEED (default 1) and the test
# (or the shared fixture) being set up, whatever else ran before it on this worker: a run is repeatable,
# and `PBEM_TEST_SEED=2 pytest ...` plays other games. Commands run as subprocesses keep the system's
# randomness. The keys are real Ed25519 keys and the files real signed files; only their source differs.

SEED = os.environ.get("PBEM_TEST_SEED", "1")
FIRST_TIME = 1_780_000_000  # 2026-05-28; each file time one minute after the last


class _Replayable:
    """Streams of bytes keyed by the seed, the label of what is being set up and the kind of value."""

    def __init__(self) -> None:
        self.label = "collection"
        self.counts: dict[str, int] = {}

    def enter(self, label: str) -> tuple[str, dict[str, int]]:
        saved = self.label, self.counts
        self.label, self.counts = label, {}
        return saved

    def leave(self, saved: tuple[str, dict[str, int]]) -> None:
        self.label, self.counts = saved

    def _draw(self, kind: str, size: int) -> bytes:
        count = self.counts[kind] = self.counts.get(kind, 0) + 1
        out, block = b"", 0
        while len(out) < size:
            out += hashlib.sha256(f"pbem tests|{SEED}|{self.label}|{kind}|{count}|{block}".encode()).digest()
            block += 1
        return out[:size]

    def private_key(self) -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(self._draw("key", 32))

    def token_hex(self, nbytes: int = 32) -> str:
        return self._draw("token", nbytes).hex()

    def urandom(self, size: int) -> bytes:
        return self._draw("nonce", size)

    def now(self) -> int:
        self.counts["time"] = self.counts.get("time", 0) + 1
        return FIRST_TIME + 60 * self.counts["time"]


REPLAYABLE = _Replayable()
identity.new_private_key = REPLAYABLE.private_key
writing.secrets = types.SimpleNamespace(token_hex=REPLAYABLE.token_hex)  # type: ignore[assignment]
writing.now = REPLAYABLE.now
seals.os = types.SimpleNamespace(urandom=REPLAYABLE.urandom)  # type: ignore[assignment]


def pytest_report_header() -> str:
    return f"pbem tests: keys, game ids, nonces and file times from PBEM_TEST_SEED={SEED}"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    REPLAYABLE.enter(item.nodeid)


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: Any, request: Any) -> Iterator[None]:
    """A shared fixture's values depend on it alone, not on the test that happened to set it up first."""
    if fixturedef.scope == "function":
        yield
        return
    where = "" if fixturedef.scope == "session" else request.node.nodeid
    saved = REPLAYABLE.enter(f"fixture {fixturedef.argname} {getattr(request, 'param', '')} {where}")
    try:
        yield
    finally:
        REPLAYABLE.leave(saved)
