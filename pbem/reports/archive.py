"""Game archives: one HTML file holding a whole game, its pages and its signed files (issue 12).

An archive shows every turn's map and events with previous and next links
(no script needed; an inline one, templates/pbem/viewer.js, steps through
every file and event with the map following, from the frames of
pbem/reports/frames.py, and shows each side's view), the result, and
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
from pbem.game import folder as folders
from pbem.game import referee
from pbem.reports import frames as framing
from pbem.reports import report
from pbem.signed.movefile import MAX_FILE_BYTES, file_name
from pbem.errors import FolderProblem, MalformedFile, MissingFile, StateMismatch, UsageError
from pbem.game.referee import Game

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
            "files": len(game.files), "turns": len(turns), "game": game.game_id,
            "mark": facts["provenance"]["mark"], "notes": facts["provenance"]["notes"]}
    templates = report.templates_of(game.ruleset)
    env = report.environment()
    states = [(seq, game.resolutions[seq].state) for seq in sorted(game.resolutions)]
    viewer = {"frames": framing.frames(game.ruleset, states), "players": framing.players(facts)}
    return env.get_template("pbem/archive.html.j2").render(
        game=facts, turns=turns, embedded=embedded, templates=templates, renderer=renderer(),
        info=json.dumps(info, sort_keys=True), css=report.stylesheet(templates), grid_view=first,
        frames=framing.as_script(viewer, "pbem-frames"), viewer_js=framing.viewer_script(),
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
        if len(data) > BLOCK_BYTES:
            raise MalformedFile(f"{label}: more than {MAX_FILE_BYTES} bytes, larger than any game file can be")
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise MalformedFile(f"{label}: not valid base64") from None
        if base64.b64encode(raw).decode("ascii") != data:  # unused padding bits changed, or stray text
            raise MalformedFile(f"{label}: not the exact base64 of any file (edited?)")
        out.append((raw, label))
    return out


# How much of an archive is read, from the bounds a game already has. An archive embeds each file, at most
# MAX_FILE_BYTES (the protocol's), once in base64, and its pages show each file's events and each turn's
# map: measured, 2,000 Actium files make 6.6 MB, 1.0 KB of base64 and 2.3 KB of pages a file, and the
# largest turn of few files (the last: 3 files with the record sheets) 40 KB a file. The viewer's frames
# add 0.5 KB a file on average and at most the markup of every piece (400 Actium files: 30 KB, the
# deployment's). A game has as many
# files as its players write (a reveal chain allows 10,000,000 each), so the bound follows the count the
# archive's head declares, and the count is then held to the blocks it carries. A text that declares no
# count (not a pbem archive, /dev/zero) is read no further than its head.
HEAD_BYTES = 64 * 1024  # the meta tags come first (templates/pbem/archive.html.j2)
PAGES_BYTES = 16 * 1024 * 1024  # the style sheet, the map's fixed part, and a turn or two of any length
PAGE_BYTES_PER_FILE = 256 * 1024  # six times the largest measured, a hundred times the mean
BLOCK_BYTES = 4 * -(-MAX_FILE_BYTES // 3) + 120  # one file in base64, with its <script> tag
MOST_FILES = 2 * 10_000_000 + 2  # two reveal chains of the longest length the protocol allows, file 0 and 1


def archive_limit(files: int) -> int:
    """The most bytes an archive of `files` files may have."""
    return PAGES_BYTES + files * (BLOCK_BYTES + PAGE_BYTES_PER_FILE)


def _declared_files(head: bytes, what: str) -> int:
    """The file count the archive's head declares (its `pbem-archive` meta tag), within MOST_FILES."""
    found = META.findall(head.decode("utf-8", errors="replace"))
    declared = dict(found).get("pbem-archive")
    try:
        files = json.loads(htmllib.unescape(declared))["files"] if declared is not None else None
    except (ValueError, TypeError, KeyError):
        files = None
    if not isinstance(files, int) or isinstance(files, bool) or not 0 < files <= MOST_FILES:
        raise MalformedFile(f"{what}: holds no pbem game files: no pbem-archive tag counting them in its "
                            f"first {HEAD_BYTES} bytes (not a pbem archive?)")
    return files


def read_text(path: Path) -> str:
    """The archive's text, read no further than the bound its declared file count sets (`archive_limit`)."""
    if not path.exists():
        raise MissingFile(f"{path}: no such archive")
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
            files = _declared_files(head, str(path))
            data = head + folders.read_stream(handle, f"{path} (an archive of {files} files)",
                                              archive_limit(files) - len(head))
    except OSError as exc:
        raise FolderProblem(f"{path}: cannot read ({exc.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedFile(f"{path}: not UTF-8 text, so not a pbem archive") from None
    return text


def read(path: Path) -> tuple[Game, str, dict[str, str]]:
    """Replay the game an archive carries (every check of `pbem verify`); its text and meta tags."""
    text = read_text(path)
    files = embedded_files(text, str(path))
    meta = {name: htmllib.unescape(value) for name, value in META.findall(text)}
    declared = _declared_files(text[:HEAD_BYTES].encode("utf-8"), str(path))
    if declared != len(files):
        raise MalformedFile(f"{path}: declares {declared} files but carries {len(files)}")
    game = referee.replay([raw for raw, _ in files], [label for _, label in files])
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
        try:  # its head alone: the meta tags come first, and the folder may hold anything (a FIFO is skipped)
            if not path.is_file():
                continue
            with open(path, "rb") as handle:
                text = handle.read(HEAD_BYTES).decode("utf-8", errors="replace")
        except OSError:
            continue
        meta = {name: htmllib.unescape(value) for name, value in META.findall(text)}
        if "pbem-archive" not in meta:
            continue
        try:
            info = json.loads(meta["pbem-archive"])
        except ValueError:
            continue
        if not isinstance(info, dict):
            continue
        notes = info.get("notes")
        rows.append({"file": path.name, **info, "mark": info.get("mark") if isinstance(info.get("mark"), str) else None,
                     "notes": [str(n) for n in notes] if isinstance(notes, list) else []})
    html = report.environment().get_template("pbem/index.html.j2").render(
        rows=rows, folder=folder.name, css=report.stylesheet("pbem"))
    out = folder / "index.html"
    folders.write_atomic(out, html.encode("utf-8"))
    return out
