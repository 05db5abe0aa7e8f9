"""Issue 27, fleets item 9: "the README's example names a scenario `salamis` that is `salamis-480`". Every `pbem new`
in the README's fleet-battle section names a built-in fleets scenario."""

from __future__ import annotations

import re
from pathlib import Path

from engine.fleets.ruleset import RULESET

README = Path(__file__).resolve().parents[3] / "README.md"


def test_the_readmes_fleet_examples_name_built_in_scenarios() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## A second ruleset: fleet battles"):]
    section = section[: section.index("\n## ", 1)]
    names = re.findall(r"^\s+pbem new (\S+)", section, flags=re.M)
    assert names == ["salamis-480"]
    assert all(RULESET.builtin_scenario(n) is not None for n in names)
    assert RULESET.builtin_scenario("salamis") is None  # the name the README used to give
