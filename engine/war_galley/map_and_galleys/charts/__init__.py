"""The Charts and Tables of War Galley (2.3, the Fleet Battle Sheets): typed rules data and pure lookups.

The numbers live in `scenarios/war_galley/charts.toml` (or a player's own copy,
see docs/charts.md). This package is one face for its parts:

- `ranges`: the card notation (roll ranges, rating bands);
- `results`: what the tables answer;
- `modifiers`: each table's modifiers and the numbers the rules text fixes;
- `tables`: the tables' shapes, decoded from the TOML by msgspec, with the
  rulebook's checks as validators;
- `lookups`: the questions the rules ask of them.
"""

from engine.war_galley.map_and_galleys.charts.lookups import *  # noqa: F401,F403
from engine.war_galley.map_and_galleys.charts.modifiers import *  # noqa: F401,F403
from engine.war_galley.map_and_galleys.charts.ranges import *  # noqa: F401,F403
from engine.war_galley.map_and_galleys.charts.results import *  # noqa: F401,F403
from engine.war_galley.map_and_galleys.charts.tables import *  # noqa: F401,F403
