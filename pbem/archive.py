"""Game archives: one HTML file holding a whole game, its pages and its signed files (issue 12).

An archive shows every turn's map and events with previous and next links
(no script needed; a small inline one adds the arrow keys), the result, and
embeds the move files themselves, base64, one `<script type=
"application/x-pbem-file">` block each (a type no browser runs). So
`pbem verify ARCHIVE.html` replays the whole game from the archive alone;
and because the pages are rendered deterministically from the files, it
also re-renders them and refuses an archive whose pages were edited (when
this pbem is the renderer that made it).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import html as htmllib
import json
import re
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from engine.datafiles import templates_dir
from pbem import folder as folders, referee, report
from pbem.movefile import file_name
from pbem.errors import MalformedFile, MissingFile, StateMismatch, UsageError
from pbem.referee import Game

FILE_BLOCK = re.compile(
    r'<script type="application/x-pbem-file" id="pbem-file-(\d{6})" data-name="([^"<>]*)">([^<]*)</script>')
META = re.compile(r'<meta name="(pbem-[a-z-]+)" content="([^"]*)">')


@lru_cache(maxsize=1)
def renderer() -> str:
    """Who rendered the pages: pbem's version and a digest of every template."""
    try:
        pbem_version = version("pbem")
    except PackageNotFoundError:
        pbem_version = "unknown"
    digest = hashlib.sha256()
    root = templates_dir()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".j2", ".css", ".js")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return f"pbem {pbem_version} templates {digest.hexdigest()[:16]}"


def render(game: Game) -> str:
    """The archive's HTML: deterministic in the game's files (no clock, no randomness)."""
    spans = report.turn_spans(game)
    turns = []
    for number, span in enumerate(spans):
        data = report.context(game, span)
        turns.append({"anchor": f"t{number}", "title": span.title, "first": span.first, "last": span.last,
                      "files": data["files"], "view": data["view"], "next": data["next"]})
    first = turns[0]["view"] if turns else None
    embedded = [{"seq": seq, "name": file_name(seq), "data": base64.b64encode(signed.raw).decode("ascii")}
                for seq, signed in enumerate(game.files)]
    facts = report._game_facts(game)
    info = {"battle": first["title"] if first else game.setup.scenario_name, "players": facts["players"],
            "result": facts["result"] or "unfinished", "started": facts["started"], "last": facts["last"],
            "files": len(game.files), "turns": len(turns), "game": game.game_id}
    templates = report.templates_of(game.ruleset)
    env = report.environment()
    return env.get_template("pbem/archive.html.j2").render(
        game=facts, turns=turns, embedded=embedded, templates=templates, renderer=renderer(),
        info=json.dumps(info, sort_keys=True), css=report.stylesheet(templates), grid_view=first,
    )


def write(game: Game, out: Path) -> Path:
    if out.is_dir():
        raise UsageError(f"{out}: is a folder; give the archive's file name (e.g. game.html)")
    folders.write_atomic(out, render(game).encode("utf-8"))
    return out


# ----- reading an archive back ----------------------------------------------------------------


def is_archive(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() in (".html", ".htm")


def embedded_files(text: str, what: str) -> list[tuple[bytes, str]]:
    """The game files an archive carries, in order; MalformedFile if any block is not exact base64."""
    blocks = FILE_BLOCK.findall(text)
    if not blocks:
        raise MalformedFile(f"{what}: holds no pbem game files (not a pbem archive?)")
    out = []
    for place, (seq, name, data) in enumerate(blocks):
        label = f"{what} (embedded file {seq})"
        if int(seq) != place:
            raise MalformedFile(f"{label}: stands in place {place}")
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise MalformedFile(f"{label}: not valid base64") from None
        if base64.b64encode(raw).decode("ascii") != data:  # unused padding bits changed, or stray text
            raise MalformedFile(f"{label}: not the exact base64 of any file (edited?)")
        out.append((raw, label))
    return out


def read(path: Path) -> tuple[Game, str, dict[str, str]]:
    """Replay the game an archive carries (every check of `pbem verify`); its text and meta tags."""
    if not path.exists():
        raise MissingFile(f"{path}: no such archive")
    try:
        text = folders.read(path).decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedFile(f"{path}: not UTF-8 text, so not a pbem archive") from None
    files = embedded_files(text, str(path))
    game = referee.replay([raw for raw, _ in files], [label for _, label in files])
    meta = {name: htmllib.unescape(value) for name, value in META.findall(text)}
    return game, text, meta


def verify(path: Path) -> tuple[Game, str]:
    """Check an archive: its files replay, and its pages are what they render to. Returns a sentence on the pages."""
    game, text, meta = read(path)
    made_by = meta.get("pbem-renderer", "")
    expected = render(game)
    if expected == text:
        return game, "its pages match the files"
    if made_by == renderer():
        raise StateMismatch(f"{path}: the pages differ from what its own files render to: "
                            "the archive was edited after it was made")
    return game, f"its pages were made by another renderer ({made_by or 'unknown'}), so only the files were checked"


# ----- an index of archives -------------------------------------------------------------------


def index(folder: Path) -> Path:
    """Write FOLDER/index.html listing every archive there: battle, players, result, date, length."""
    if not folder.is_dir():
        raise MissingFile(f"{folder}: no such folder")
    rows: list[dict[str, Any]] = []
    for path in sorted(folder.glob("*.htm*")):
        if path.name == "index.html":
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        meta = {name: htmllib.unescape(value) for name, value in META.findall(text)}
        if "pbem-archive" not in meta:
            continue
        try:
            info = json.loads(meta["pbem-archive"])
        except ValueError:
            continue
        rows.append({"file": path.name, **info})
    html = report.environment().get_template("pbem/index.html.j2").render(
        rows=rows, folder=folder.name, css=report.stylesheet("pbem"))
    out = folder / "index.html"
    folders.write_atomic(out, html.encode("utf-8"))
    return out
