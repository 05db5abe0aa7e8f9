"""pbem/ is the protocol: no ruleset's words in it (issue 15), not even the toy Dice Duel's (engine/duel/, issue 23)."""

from __future__ import annotations

import re
from pathlib import Path

import pbem

TERMS = re.compile(
    r"\b(war[- ]?galley|galleys?|triremes?|quinqueremes?|squadrons?|ramm?(ing|ed)?|boarding|grappl\w*|oars?|"
    r"hexe?s? grid|fleets?|liburn\w*|cataphract\w*|longships?|warships?|transports?|drift\w*|upwind|downwind|"
    r"wind|shallows|reefs?|islands?|peninsulas?|pips?|paces|duel\w*|lunges?)\b",
    re.IGNORECASE,
)
# Known before issue 15 and left to the CLI's owners: the default --ruleset and the app's one-line help.
ALLOWED = {
    ("cli/app.py", 'help="Play War Galley by email: signed, hash-chained turn files with dice no one can bend.",'),
    ("cli/app.py", 'def scenarios(ruleset: Annotated[str, typer.Option(help="Ruleset name.")] = "war-galley") -> None:'),
    ("cli/demo.py", 'ruleset: Annotated[str, typer.Option(help="Ruleset to play.")] = "war-galley",'),
}


def test_no_ruleset_terms_in_the_protocol_package() -> None:
    root = Path(pbem.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if TERMS.search(line) and (path.relative_to(root).as_posix(), line.strip()) not in ALLOWED:
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert not found, "ruleset words in pbem/:\n" + "\n".join(found)


def test_the_grep_would_catch_them() -> None:
    for words in ("the fleets ruleset", "War Galley", "a galley rams", "drift downwind", "3 PIPs", "Dice Duel", "the duellists"):
        assert TERMS.search(words), words
    assert not TERMS.search("a windowless room") and not TERMS.search("hash-chained turn files")
