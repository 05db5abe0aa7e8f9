"""The house's rules, checked: import-linter's contracts (pyproject.toml) and the size of a module."""

from __future__ import annotations

from pathlib import Path

from importlinter.cli import lint_imports

import engine

ROOT = Path(__file__).resolve().parents[2]
ENGINE = Path(engine.__file__).resolve().parent
MAX_LINES = 500


def test_import_contracts_hold() -> None:
    # engine never imports pbem; no cycle between engine modules; War Galley's chapter layers.
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_no_engine_module_over_500_lines() -> None:
    sizes = {str(p.relative_to(ENGINE)): len(p.read_text().splitlines()) for p in ENGINE.rglob("*.py")}
    assert len(sizes) > 60
    assert not {p: n for p, n in sizes.items() if n > MAX_LINES}


def test_tests_mirror_the_rooms() -> None:
    rooms = {p.name for p in (ENGINE / "war_galley").iterdir() if (p / "__init__.py").is_file()}
    mirrored = {p.name for p in (ROOT / "tests" / "engine" / "war_galley").iterdir() if p.is_dir()} - {"__pycache__"}
    assert rooms and rooms <= mirrored
