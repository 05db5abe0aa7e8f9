"""The loopback server of `pbem play`: one player's page, safe by construction (docs/security.md, issue 25).

The standard library's http.server in a thread: one user, one page, a handful of
JSON calls on 127.0.0.1, so a web framework would add a dependency and nothing
this needs. Safe by construction:
- bound to 127.0.0.1 only, on a port the system picks;
- every path begins with an unguessable token (32 random bytes); a wrong one is refused
  (compared in constant time);
- the Host header must name this very address and port, and an Origin, if sent, this origin
  (a POST must send it): a page of another site reached by DNS rebinding carries its own
  Host and Origin and is refused;
- a Content-Security-Policy lets the page load only its own script and style and fetch only
  from itself: nothing from the network;
- the page only ever receives public game data (pbem.board.table): no key, reveal or secret.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from engine.datafiles import templates_dir
from pbem.board.table import Table
from pbem.errors import PbemError

HOST = "127.0.0.1"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
MAX_BODY = 1 << 20  # an order text is a few kilobytes


class Board:
    """The server and its token; `url` is what the player opens."""

    def __init__(self, table: Table, port: int = 0) -> None:
        self.table = table
        self.token = secrets.token_urlsafe(32)
        board = self

        class Handler(_Handler):
            owner = board

        self.httpd = ThreadingHTTPServer((HOST, port), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.origin = f"http://{HOST}:{self.port}"
        self.url = f"{self.origin}/{self.token}/"
        self.thread: threading.Thread | None = None

    def start(self) -> Board:
        # stop() waits for the loop's next look at its flag: every 0.1 s, not the standard 0.5 s (a test
        # table's teardown, or Ctrl-C, waited half a second for nothing; ten looks a second cost no CPU to see)
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.1},
                                       name="pbem-play", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class _Handler(BaseHTTPRequestHandler):
    owner: Board
    server_version = "pbem-play"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
        pass  # the terminal stays the player's: no request log

    # --- the guards ---------------------------------------------------------------------------

    def _route(self) -> str | None:
        """The path after the token, or None once the request has been refused."""
        board = self.owner
        if self.headers.get("Host") != f"{HOST}:{board.port}":
            self._fail(421, "refused: this page answers only to its own address (Host)")
            return None
        origin = self.headers.get("Origin")
        if origin is not None and origin != board.origin:
            self._fail(403, "refused: a request from another origin")
            return None
        head, _, rest = self.path.lstrip("/").partition("/")
        if not hmac.compare_digest(head.encode(), board.token.encode()):
            self._fail(403, "refused: wrong or missing token")
            return None
        return rest.split("?", 1)[0]

    # --- answers -------------------------------------------------------------------------------

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _fail(self, status: int, message: str) -> None:
        self._send(status, json.dumps({"ok": False, "error": message}).encode(), "application/json")

    def _json(self, data: Any) -> None:
        self._send(200, json.dumps(data).encode(), "application/json")

    def handle_one_request(self) -> None:
        """A failure inside an answer is a bug (as rc 70 on the command line): one line to the page, no traceback."""
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError):
            self.close_connection = True  # the browser went away
        except Exception as exc:  # noqa: BLE001 - the server thread must answer and live on
            self.close_connection = True
            try:
                self._fail(500, f"internal error (a bug in pbem, please report it): {type(exc).__name__}: {exc}")
            except OSError:
                pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        route = self._route()
        if route is None:
            return
        table = self.owner.table
        with table.lock:
            if route == "":
                self._send(200, table.page().encode(), "text/html; charset=utf-8")
            elif route == "style.css":
                self._send(200, table.stylesheet().encode(), "text/css; charset=utf-8")
            elif route in ("play.js", "viewer.js"):  # the viewer is the archive's too (templates/pbem/viewer.js)
                self._send(200, (templates_dir() / "pbem" / route).read_bytes(), "text/javascript; charset=utf-8")
            elif route == "api/status":
                changed = table.fresh()  # first: the status must count the file that just arrived
                self._json(dict(table.status(), changed=changed))
            else:
                self._fail(404, f"no such page: {route}")

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        route = self._route()
        if route is None:
            return
        if self.headers.get("Origin") != self.owner.origin:  # a form or script of another site sends its own
            self._fail(403, "refused: a POST must come from this page (Origin)")
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self._fail(413, "refused: the request's body is missing its length or too large")
            return
        try:
            asked = json.loads(self.rfile.read(length) or b"{}")
        except (ValueError, UnicodeDecodeError):
            self._fail(400, "the request's body is not JSON")
            return
        if not isinstance(asked, dict):
            self._fail(400, "the request's body is not a JSON object")
            return
        self._answer(route, asked)

    def _answer(self, route: str, asked: dict[str, Any]) -> None:
        table = self.owner.table
        try:
            with table.lock:
                if route == "api/options":
                    self._json(table.options(_strings(asked.get("picks", []), "picks")))
                elif route == "api/check":
                    self._json(table.check(_strings(asked.get("orders", []), "orders")))
                elif route == "api/card":
                    self._json(table.card(str(asked.get("subject", ""))))
                elif route == "api/send":
                    self._json(table.send(_strings(asked.get("orders", []), "orders"), str(asked.get("note", ""))))
                else:
                    self._fail(404, f"no such call: {route}")
        except PbemError as exc:  # refused by the rules or the protocol: the page shows why
            self._send(422, json.dumps({"ok": False, "error": str(exc)}).encode(), "application/json")


def _strings(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _BadRequest(f"{what}: a list of strings")
    return value


class _BadRequest(PbemError):
    """A request the page would never make (its body's shape)."""
