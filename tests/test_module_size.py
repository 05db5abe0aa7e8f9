"""No module in pbem/ or engine/ is over 500 lines (issue 23: a module is one concept, read top to bottom)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 500


def test_no_module_is_over_500_lines() -> None:
    long = [
        f"{path.relative_to(ROOT)}: {count} lines"
        for package in ("pbem", "engine")
        for path in sorted((ROOT / package).rglob("*.py"))
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    ]
    assert not long, "split these into modules of one concept each:\n" + "\n".join(long)
