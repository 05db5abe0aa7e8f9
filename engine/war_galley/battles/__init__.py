"""The scenario book and 10.0 Tournament Rules: battle files, set-up and deployment, the secret choices
the battles ask for, and every battle's special rules.

Importing this package registers every special rule with the hook interface
(engine.war_galley.turn.hooks), so that a game set up here always plays with
its rules. A new battle's rule: a function with `@hook(point, name)` in the
battle's module, imported below (docs/architecture.md).
"""

from engine.war_galley.battles import (  # noqa: F401  (they register their hooks on import)
    actium,
    choices,
    drepanum,
    lade,
    opening,
    shared,
    tournament,
    transports,
)
