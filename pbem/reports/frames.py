"""Frames: where every piece stood after each file, for the archive's viewer and the play page (issue 25).

A ruleset that names the units on its board gives them in its view as
`pieces` (a list of dicts, each with a unique "id"), draws one with its
template `piece.svg.j2`, and answers the option {"pieces": True} with those
alone, cheaply (docs/reports.md). pbem knows nothing of what a piece is: a
frame is, per file, the markup of every piece whose data changed since the
file before, and the ids of those gone from the board. A script replays them
onto one drawn board. The data are a pure function of the game's files, so an
archive holding them re-renders byte for byte (`pbem verify`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import jinja2
import markupsafe

from pbem.reports import report


def piece_template(folder: str) -> jinja2.Template | None:
    """The ruleset's drawing of one piece, if it has one (a ruleset without pieces has no frames)."""
    try:
        return report.environment().get_template(f"{folder}/piece.svg.j2")
    except jinja2.TemplateNotFound:
        return None


def pieces_of(ruleset: Any, state: Any) -> dict[str, dict[str, Any]]:
    """The pieces on the board in `state`, by id, as the ruleset's view gives them."""
    view = ruleset.view(state, [], None, {"pieces": True})
    return {str(p["id"]): p for p in view.get("pieces") or []}


def frames(ruleset: Any, states: Iterable[tuple[int, Any]]) -> list[dict[str, Any]]:
    """One frame per (file, state after it): {"seq", "set": {id: markup}, "gone": [ids]}, each the change
    from the frame before (the first: every piece)."""
    template = piece_template(report.templates_of(ruleset))
    out: list[dict[str, Any]] = []
    shown: dict[str, dict[str, Any]] = {}
    for seq, state in states:
        now = pieces_of(ruleset, state) if template is not None and state is not None else {}
        changed = {key: str(template.render(p=piece)) for key, piece in now.items()   # type: ignore[union-attr]
                   if shown.get(key) != piece}
        out.append({"seq": seq, "set": changed, "gone": sorted(key for key in shown if key not in now)})
        shown = now
    return out


def as_script(data: Any, element_id: str) -> markupsafe.Markup:
    """`data` as a JSON data block (a type no browser runs): "</" and "<!--" escaped, so no markup in it
    can close the block; sorted keys, so the same data always give the same bytes."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    text = text.replace("</", "<\\/").replace("<!--", "<\\u0021--")
    return markupsafe.Markup(f'<script type="application/json" id="{element_id}">{text}</script>')


def viewer_script() -> markupsafe.Markup:
    """templates/pbem/viewer.js, for the archive to carry inline (a file opened from disk has no server)."""
    env = report.environment()
    source = env.loader.get_source(env, "pbem/viewer.js")[0]  # type: ignore[union-attr]
    assert "</script" not in source.lower(), "viewer.js must not close the <script> that carries it"
    return markupsafe.Markup(source)


def players(facts: dict[str, Any]) -> list[dict[str, str]]:
    """The players as the side switch offers them: name and side (the side their pieces' data-side names)."""
    return [{"name": p["name"], "side": p["side"]} for p in facts["players"]]
