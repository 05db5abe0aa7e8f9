"""engine/fleets stands alone: it imports only itself, engine's shared top it uses (datafiles, the adapter
base and its shapes, numerals) and libraries, never pbem or War Galley (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import engine.fleets

ALLOWED_ENGINE = {"engine.datafiles", "engine.adapter", "engine.numerals"}  # numerals: bounded numbers in notation


def test_fleets_imports_nothing_of_war_galley_or_pbem() -> None:
    root = Path(engine.fleets.__file__).parent
    bad = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + ([f"{node.module}.{a.name}" for a in node.names] if node.module == "engine" else [])
            for name in names:
                top = name.split(".")[0]
                if top == "pbem" or (top == "engine" and name != "engine" and not name.startswith("engine.fleets")
                                     and name not in ALLOWED_ENGINE):
                    bad.append(f"{path.name}: {name}")
    assert not bad, bad


def test_the_engine_never_rolls_its_own_dice() -> None:
    root = Path(engine.fleets.__file__).parent
    for path in root.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import random" not in text and "from random" not in text, path.name
