"""What every test folder may share: a home of its own (no test writes into the real one) and one headless Chromium per test process.

Playwright's sync API runs an event loop of its own; a second
`sync_playwright()` opened while a session-scoped one is alive in the same
worker fails ("Sync API inside the asyncio loop"). So every browser test asks
for this one fixture, whichever worker xdist puts it on.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

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
