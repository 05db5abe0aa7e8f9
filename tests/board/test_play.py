"""`pbem play` in real headless Chromium: the board, an activation by clicks, sent and verified; and the guards.

A Tauris game is played through the real protocol to the first activation (E/1, 5.41); its
player's table is served on loopback as `pbem play` serves it. The page is clicked as a player would: a
squadron, a galley, one of its lit end positions; the order text is checked by the rules, signed
with his key and saved in his folder, which then verifies from its first file.
"""

from __future__ import annotations

import http.client
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.board import server
from pbem.game import statecache, store
from pbem.game.ruleset import Pending
from tests.board.tables import deciding_table, table_of_the_decider

ACTIVATION = 13  # at least this many files of Tauris come before the first activation (5.41)


def _first_activation(pending: Pending) -> bool:
    return "(5.41)" in pending.prompt


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tauris to its first activation, once for the module. Who activates first, and after how many files,
    depends on the dice (the fixture's keys: PBEM_TEST_SEED)."""
    root = tmp_path_factory.mktemp("tauris-first-activation")
    deciding_table(root, "war-galley", "tauris", ACTIVATION, _first_activation)
    return root


@pytest.fixture()
def board(played: Path, tmp_path: Path) -> Iterator[server.Board]:
    root = tmp_path / "table"  # each test's own copy: some send a file
    shutil.copytree(played, root)
    board = server.Board(table_of_the_decider(root, root / "no-mail.toml")).start()
    yield board
    board.stop()


def _request(board: server.Board, method: str, path: str, headers: dict[str, str] | None = None,
             body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection(server.HOST, board.port, timeout=30)
    connection.putrequest(method, path, skip_host=True)
    for name, value in (headers or {"Host": f"{server.HOST}:{board.port}"}).items():
        connection.putheader(name, value)
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    return response.status, dict(response.getheaders()), response.read()


def test_a_galley_moved_by_clicks_is_signed_saved_and_verifies(board: server.Board, browser: Any,
                                                                artifacts: Path) -> None:
    before = len(store.load(board.table.folder).files)
    page = browser.new_page(viewport={"width": 1500, "height": 950})
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: requests.append(r.url))
    page.goto(board.url)
    page.wait_for_selector("body[data-ready='1']")
    assert "activate a Command Squadron (5.41)" in page.inner_text("#prompt")
    page.click("#options button.squadron >> nth=0")
    page.wait_for_selector("g.counter.clickable")
    galley = page.get_attribute("g.counter.clickable >> nth=0", "data-galley")
    page.click(f"g.counter[data-galley='{galley}']")
    page.wait_for_selector("#play-overlay g.offer.end")
    ends = page.locator("#play-overlay g.offer.end").count()
    assert ends > 5 and page.locator("#options button.end").count() == ends
    # the galley's card (its ratings and markers) comes by its own request: waited for, not assumed there
    page.wait_for_function("galley => document.getElementById('card').textContent.includes(galley)", arg=galley)
    page.screenshot(path=str(artifacts / "play-reach.png"))
    page.click("#play-overlay g.offer.end >> nth=0", force=True)  # the farthest: clear of its own counter
    page.wait_for_selector("#play-overlay polyline.planned")
    order = page.input_value("#orders")
    assert order.startswith("activate ") and f"{galley} " in order
    page.wait_for_selector(".verdict.ok")
    page.screenshot(path=str(artifacts / "play-planned.png"))
    page.click("#send")
    page.wait_for_selector("body[data-sent]")
    sent = int(page.get_attribute("body", "data-sent") or -1)
    assert "saved; no mail settings" in page.inner_text("#sent")
    folder = board.table.folder
    game = store.load(folder, use_cache=False)  # a replay from file 0: every signature, link and state
    assert len(game.files) == before + 1 == sent + 1
    assert (folder / f"{sent:06d}.pbem").is_file()
    cached = statecache.read(folder)  # written as the file was, not when `pbem play` exits
    assert cached is not None and len(cached.files) == sent + 1
    assert [game.ruleset.format_order(d) for d in game.files[sent].body.decisions] == [order]
    assert errors == []
    assert all(u.startswith(board.origin + "/") for u in requests)  # nothing fetched from the network
    page.close()


def test_a_refused_order_names_its_rule(board: server.Board, browser: Any) -> None:
    page = browser.new_page()
    page.goto(board.url)
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#orders", "activate Nobody: G1-1 cruise 4: F")
    page.wait_for_selector(".verdict.refused")
    assert "refused:" in page.inner_text("#verdict")
    assert page.is_disabled("#send")
    page.close()


def test_the_page_carries_a_csp_that_fetches_nothing_from_the_network(board: server.Board) -> None:
    status, headers, body = _request(board, "GET", f"/{board.token}/")
    assert status == 200 and b"<svg" in body
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp and "script-src 'self'" in csp


def test_a_wrong_token_is_refused(board: server.Board) -> None:
    status, _, body = _request(board, "GET", "/" + "x" * len(board.token) + "/")
    assert status == 403 and b"token" in body
    assert _request(board, "GET", "/")[0] == 403


def test_a_foreign_host_is_refused(board: server.Board) -> None:  # DNS rebinding: evil.example resolving to 127.0.0.1
    status, _, body = _request(board, "GET", f"/{board.token}/", {"Host": f"evil.example:{board.port}"})
    assert status == 421 and b"Host" in body


def test_a_foreign_origin_is_refused(board: server.Board) -> None:
    host = {"Host": f"{server.HOST}:{board.port}"}
    body = json.dumps({"picks": []}).encode()
    status, _, answer = _request(board, "POST", f"/{board.token}/api/options",
                                 host | {"Origin": "http://evil.example"}, body)
    assert status == 403 and b"origin" in answer
    status, _, answer = _request(board, "POST", f"/{board.token}/api/options", host, body)  # no Origin at all
    assert status == 403 and b"Origin" in answer
    status, _, answer = _request(board, "POST", f"/{board.token}/api/options", host | {"Origin": board.origin}, body)
    assert status == 200 and json.loads(answer)["offered"] is True


def test_the_page_holds_no_secret(board: server.Board) -> None:
    """No private key, reveal or chain secret reaches the browser: none of the key folder's bytes is in any answer."""
    keys = board.table.keys
    secrets = [line for p in keys.rglob("*") if p.is_file() for line in p.read_text(errors="replace").split()
               if len(line) >= 32]
    assert secrets
    pages = [_request(board, "GET", f"/{board.token}/{route}")[2] for route in ("", "style.css", "play.js", "viewer.js", "api/status")]
    pages += [_request(board, "POST", f"/{board.token}/api/options",
                       {"Host": f"{server.HOST}:{board.port}", "Origin": board.origin}, b'{"picks": []}')[2]]
    for secret in secrets:
        assert not any(secret.encode() in page for page in pages)


def test_the_page_tells_what_happened_since_my_last_file_and_keeps_my_reveal(board: server.Board) -> None:
    """The events of my last file and of the opponent's, each die explained (as the report), on my turn
    resolved with my next reveal: which stays out of the page, since it keys those dice until I send."""
    status, _, body = _request(board, "GET", f"/{board.token}/")
    page = body.decode()
    assert status == 200 and 'id="since"' in page
    assert page.count("class=\"event") >= 3 and page.count("Resolved with the dice of") == 2  # my file, his
    assert board.table.outlook is not None
    assert board.table.outlook.reveal.hex() not in page
