"""Turn reports: a ruleset's view of the game plus the protocol's own account, as one HTML file.

The ruleset gives `view(state, events, before, options)` as plain data and
names its templates (`report_templates`, a folder of templates/); pbem adds
what only the protocol knows: the files, their authors and signatures, the
reveals, and for every die the file it resolves, whose reveal keyed it and
its index in the stream, so a player can recompute it by hand
(docs/protocol.md, "Dice"). The contract is in docs/reports.md.

Everything is rendered by jinja2 with autoescape on: a name or a note from a
file shows as text, never as markup. A report is self-contained (inline CSS
and SVG, no script needed, nothing fetched), so it opens from disk or from an
email attachment.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

import msgspec

from pbem.game import usercache
from engine.datafiles import templates_dir
from pbem.signed import identity as ids
from pbem.reports import provenance
from pbem.signed.dice import LABEL, LIMIT, RecordedRoll
from pbem.errors import UsageError
from pbem.signed.movefile import Accept, Invite, Move, author_of, file_name
from pbem.game.referee import Game, Resolution

LEGAL_SHOWN = 80  # options listed under "what you decide next"; the rest: `pbem legal`


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates kept in the user's cache folder: compiling them cost each move ~50 ms.

    jinja2 keys each by its template's name and source checksum, so an edited
    or reinstalled template is compiled afresh; a folder that cannot be made
    (read-only home) only costs the compiling. Compiled templates are code: the
    folder is used only while this user alone can write it (pbem.game.usercache).
    """
    import os

    root = usercache.folder("templates")
    if root is None:
        return None
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return jinja2.FileSystemBytecodeCache(root) if usercache.private(root, True) else None


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The one jinja2 environment: templates/ from the installed data, autoescape on for everything."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        bytecode_cache=_bytecode_cache(),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["short"] = lambda text, n=16: str(text)[:n]
    env.filters["svg_texts"] = svg_texts
    return env


def _escaped(value: Any) -> str:
    """`value` as autoescape writes it (markupsafe's escape: & < > ' " as &amp; &lt; &gt; &#39; &#34;)."""
    return (str(value).replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")
            .replace("'", "&#39;").replace('"', "&#34;"))


def svg_texts(items: Any) -> markupsafe.Markup:
    """`<text x="X" y="Y">TEXT</text>` for each [x, y, text], escaped: what a template loop writes, at a
    tenth of its cost (a loop of three escaped values an item cost a turn report of Actium's 2,958 hex
    numbers ~25 ms)."""
    return markupsafe.Markup("".join(f'<text x="{_escaped(x)}" y="{_escaped(y)}">{_escaped(t)}</text>'
                                     for x, y, t in items))


def templates_of(ruleset: Any) -> str:
    """The ruleset's template folder; every ruleset must name one to be reported."""
    folder = getattr(ruleset, "report_templates", None)
    if not folder or not hasattr(ruleset, "view"):
        raise UsageError(f"ruleset {ruleset.name!r} has no report view (see docs/reports.md)")
    return str(folder)


# ----- what a report covers ------------------------------------------------------------------


class Span(msgspec.Struct, frozen=True):
    """The files a report covers (their resolutions, in order), and a private last one.

    `preview` is the outcome of the game's last file as its next author alone
    can compute it, with his own next reveal (writing.outlook): in his folder
    only, until he sends his file.
    """

    first: int
    last: int
    title: str
    preview: tuple[Resolution, bytes] | None = None


def resolution_of(game: Game, seq: int, span: Span) -> Resolution:
    if span.preview is not None and seq == span.last and seq not in game.resolutions:
        return span.preview[0]
    return game.resolutions[seq]


def turn_of(game: Game, state: Any) -> int | None:
    turn = getattr(game.ruleset, "turn", None)
    return turn(state) if turn is not None else None


def file_span(game: Game, seq: int) -> Span:
    if seq not in game.resolutions:
        known = f"2..{max(game.resolutions)}" if game.resolutions else "none yet"
        raise UsageError(f"file {seq} has no outcome to report yet (files resolved: {known}); "
                         "a file's dice are known once the next file reveals them")
    return Span(seq, seq, f"file {seq}")


def turn_spans(game: Game) -> list[Span]:
    """The game in turns: each span the resolved files whose outcome lies in that turn."""
    spans: list[Span] = []
    current: tuple[int | None, int, int] | None = None
    for seq in sorted(game.resolutions):
        turn = turn_of(game, game.resolutions[seq].state)
        if current is not None and current[0] == turn:
            current = (turn, current[1], seq)
            continue
        if current is not None:
            spans.append(_turn_span(current))
        current = (turn, seq, seq)
    if current is not None:
        spans.append(_turn_span(current))
    return spans


def _turn_span(item: tuple[int | None, int, int]) -> Span:
    turn, first, last = item
    name = "set-up" if turn == 0 else f"turn {turn}" if turn is not None else f"files {first}-{last}"
    return Span(first, last, name)


def turn_span(game: Game, turn: int) -> Span:
    for span in turn_spans(game):
        if turn_of(game, game.resolutions[span.last].state) == turn:
            return span
    raise UsageError(f"turn {turn} has no resolved file in this game")


def latest_span(game: Game, preview: tuple[int, Resolution, bytes] | None = None) -> Span:
    if preview is not None:
        seq, resolution, reveal = preview
        return Span(seq, seq, f"file {seq} (your preview)", (resolution, reveal))
    if not game.resolutions:
        raise UsageError("nothing to report yet: the first move file's outcome needs the file after it")
    return file_span(game, max(game.resolutions))


# ----- the protocol's part ------------------------------------------------------------------


def derivation(key: bytes, game_id: str, file_hash: bytes, index: int) -> dict[str, Any]:
    """How die `index` came out: the HMAC attempts, the byte read, the face (pbem.signed.dice)."""
    prefix = LABEL + game_id.encode("ascii") + file_hash + index.to_bytes(8, "big")
    attempt = 0
    while True:
        digest = hmac.new(key, prefix + attempt.to_bytes(4, "big"), hashlib.sha256).digest()
        if digest[0] < LIMIT:
            return {"attempt": attempt, "byte": digest[0], "face": 1 + digest[0] % 6}
        attempt += 1


def _player(game: Game, role: str) -> dict[str, Any] | None:
    player = game.player(role)
    if player is None:
        return None
    return {"role": role, "name": player.name, "side": player.side, "fingerprint": ids.fingerprint(player.key)}


def _file(game: Game, seq: int) -> dict[str, Any]:
    signed = game.files[seq]
    body = signed.body
    who = _player(game, body.author)
    seat = getattr(body, "seat", "")
    team = game.team_at(seq) if seat else None
    if who is not None and team is not None and seat in team.by_id:  # a team game: the seat that signed it
        who = dict(who, name=f"{team.by_id[seat].name} (seat {seat})",
                   fingerprint=ids.fingerprint(team.by_id[seat].key))
    entry: dict[str, Any] = {
        "seq": seq, "name": file_name(seq), "author": who, "role": body.author,
        "time": _when(body.time), "hash": signed.hash_hex, "prev": body.prev,
        "signature": base64.b64encode(signed.signature).decode("ascii") if isinstance(signed.signature, bytes)
        else str(signed.signature),
        "kind": "invitation" if isinstance(body, Invite) else "acceptance" if isinstance(body, Accept) else "move",
        "orders": [], "note": "", "reveal": "", "state": "",
    }
    if isinstance(body, Move):
        entry["orders"] = [game.ruleset.format_order(d) for d in body.decisions]
        entry["note"] = body.note
        entry["reveal"] = body.reveal
        entry["state"] = body.state
    return entry


def _when(timestamp: int) -> str:
    from pbem.game.session import when

    return when(timestamp)


def _match_dice(entries: list[dict[str, Any]], rolls: list[RecordedRoll]) -> list[RecordedRoll]:
    """Join the ruleset's die explanations to the recorded rolls, in order; return the rolls left over.

    An explanation reads one die if its natural roll is the next face, else
    the next two (2d6 summed); `reuses` marks one read from the dice before.
    """
    at = 0
    previous: list[dict[str, Any]] = []
    for entry in entries:
        if entry.get("reuses"):
            entry["rolls"] = previous
            continue
        taken: list[RecordedRoll] = []
        if at < len(rolls) and rolls[at].face == entry["natural"]:
            taken = rolls[at:at + 1]
        elif at + 1 < len(rolls) and rolls[at].face + rolls[at + 1].face == entry["natural"]:
            taken = rolls[at:at + 2]
        at += len(taken)
        previous = [{"index": r.index, "purpose": r.purpose, "face": r.face} for r in taken]
        entry["rolls"] = previous
    return rolls[at:]


def context(game: Game, span: Span, options: dict[str, Any] | None = None,
            viewer: str | None = None) -> dict[str, Any]:
    """Everything a report template sees: plain data only."""
    ruleset = game.ruleset
    seqs = list(range(span.first, span.last + 1))
    events: list[Any] = []
    offsets: list[tuple[int, int, int]] = []  # (seq, first event, end)
    for seq in seqs:
        resolution = resolution_of(game, seq, span)
        offsets.append((seq, len(events), len(events) + len(resolution.events)))
        events.extend(resolution.events)
    state = resolution_of(game, span.last, span).state
    before = game.state_before(span.first)
    view = ruleset.view(state, events, before, options or {})
    files = []
    for seq, start, end in offsets:
        resolution = resolution_of(game, seq, span)
        entry = _file(game, seq)
        key_seq = seq + 1
        if key_seq < len(game.files):
            reveal = bytes.fromhex(game.files[key_seq].body.reveal)  # type: ignore[union-attr]
            keyed = {"seq": key_seq, "by": _player(game, author_of(key_seq)), "reveal": reveal.hex(), "sent": True}
        else:
            assert span.preview is not None
            reveal = span.preview[1]
            keyed = {"seq": key_seq, "by": _player(game, author_of(key_seq)), "reveal": reveal.hex(), "sent": False}
        dice = [d for d in view["dice"] if start <= d["event"] < end]
        left = _match_dice(dice, list(resolution.rolls))
        for d in dice:
            for roll in d["rolls"]:
                roll.update(derivation(reveal, game.game_id, game.files[seq].hash, roll["index"]))
            d["file"] = seq
        by_event: dict[int, list[dict[str, Any]]] = {}
        for d in dice:
            by_event.setdefault(d["event"], []).append(d)
        entry.update({
            "keyed": keyed, "dice": dice,
            "events": [dict(e, dice_entries=by_event.get(start + i, [])) for i, e in enumerate(view["events"][start:end])],
            "unexplained": [{"index": r.index, "purpose": r.purpose, "face": r.face,
                             **derivation(reveal, game.game_id, game.files[seq].hash, r.index)} for r in left],
            "rolls": len(resolution.rolls),
            "event_offset": start,
        })
        files.append(entry)
    pending = ruleset.pending(state)
    newest = pending if state is game.resolved_state else None
    return {
        "game": _game_facts(game, newest),
        "span": {"first": span.first, "last": span.last, "title": span.title, "preview": span.preview is not None},
        "files": files,
        "view": view,
        "next": _next(game, span, state, pending),
        "templates": templates_of(ruleset),
        "viewer": viewer,
        "options": options or {},
    }


def _game_facts(game: Game, pending: Any = None) -> dict[str, Any]:
    """The game's facts; `pending` is the ruleset's pending of its newest state, if known (it can be slow)."""
    setup = game.setup
    state = game.resolved_state
    if pending is None and state is not None:
        pending = game.ruleset.pending(state)
    finished = pending is not None and pending.finished
    result = game.ruleset.result(state) if finished else None
    return {
        "id": game.game_id, "ruleset": setup.ruleset.name, "ruleset_version": setup.ruleset.version,
        "scenario": setup.scenario_name, "files": len(game.files),
        "players": [p for p in (_player(game, "host"), _player(game, "guest")) if p is not None],
        "seats": [{"seat": seat.seat, "name": seat.name, "side": seat.side, "commands": seat.commands,
                   "fingerprint": ids.fingerprint(seat.key)} for seat in game.team.roster.seats]
        if game.team is not None else [],
        "rules_hash": hashlib.sha256(setup.rules_data).hexdigest(),
        "result": result, "finished": finished,
        "started": _when(game.files[0].body.time), "last": _when(game.last_time),
        "provenance": provenance.page_marks(setup.ruleset.name, setup.scenario_name, setup.scenario_data,
                                            setup.ruleset.builtin_scenario(setup.scenario_name), setup.rules_data,
                                            setup.ruleset.default_rules_data(), setup.options),
    }


def _next(game: Game, span: Span, state: Any, pending: Any) -> dict[str, Any]:
    """What is decided after this state: who, what, the legal options, and what was decided if known."""
    ruleset = game.ruleset
    following = span.last + 1
    out: dict[str, Any] = {"side": pending.side, "prompt": pending.prompt, "finished": pending.finished,
                           "automatic": pending.automatic, "options": [], "more": 0, "decided": None,
                           "seq": following}
    if following < len(game.files):
        body = game.files[following].body
        if isinstance(body, Move):
            out["decided"] = {"orders": [ruleset.format_order(d) for d in body.decisions], "note": body.note,
                              "by": _player(game, body.author)}
    # The legal options matter while the decision is open; once the next file exists it shows what was
    # decided instead (and listing them can be slow in a big battle).
    if pending.side is not None and not pending.finished and out["decided"] is None:
        try:
            options = [ruleset.format_order(d) for d in ruleset.legal(state)]
        except ruleset.illegal_errors:
            options = []
        out["options"] = options[:LEGAL_SHOWN]
        out["more"] = max(0, len(options) - LEGAL_SHOWN)
    return out


def render(game: Game, span: Span, options: dict[str, Any] | None = None, viewer: str | None = None) -> str:
    data = context(game, span, options, viewer)
    return environment().get_template("pbem/report.html.j2").render(**data, css=stylesheet(data["templates"]))


@lru_cache(maxsize=8)
def stylesheet(ruleset_folder: str) -> str:
    """pbem's style sheet, then the ruleset's, inlined (a report fetches nothing)."""
    env = environment()
    parts = [env.loader.get_source(env, "pbem/report.css")[0]]  # type: ignore[union-attr]
    try:
        parts.append(env.loader.get_source(env, f"{ruleset_folder}/style.css")[0])  # type: ignore[union-attr]
    except jinja2.TemplateNotFound:
        pass  # a ruleset may ship no style sheet of its own: the shared one serves
    return "\n".join(parts)


def report_name(span: Span) -> str:
    if span.preview is not None:
        return f"file-{span.last:06d}-preview.html"
    return f"file-{span.last:06d}.html"


def write(path: Path, html: str) -> Path:
    """Write a report where the user asked for it (`--out`): his own path, links and all."""
    from pbem.game import folder as folders

    folders.write_atomic(path, html.encode("utf-8"))
    return path


def write_beside(folder: Path, sub: str, name: str, html: str) -> Path:
    """Write a report into the game folder's `sub` folder (made if missing): a `sub` planted as a link is
    refused (NotPlain) and a link planted at `name` replaced, so nothing outside the game folder is written."""
    from pbem.game import folder as folders

    return folders.write_beside(folder, name, html.encode("utf-8"), mode=folders.PUBLIC, sub=sub)

