"""Dice Duel: a toy ruleset that exercises the whole protocol.

It knows nothing of galleys; it exists so that pbem's tests and its demo can
play complete games through the real protocol with a ruleset small enough to
check by hand. Rules:

- Each round starts with an automatic initiative roll: each side 1d6, the
  higher acts first, ties roll again.
- On its action a side may first `guard` (no dice: the other side's attacks
  this round need 2 more), then must `strike` (2d6 >= hit: 1 damage),
  `lunge` (2d6 >= power: 2 damage) or `rest` (no dice: +1 hp, up to the start;
  +2 hp from version 2 on).
- When both have acted the round ends. A side at 0 hp loses; after the
  round limit, more hp wins (equal: a draw).

Scenario data and rules data are small canonical JSON texts (scenarios/duel/);
the adapter is engine/duel/ruleset.py.

Versions (docs/protocol.md, "Upgrades"): version 2 changed the rest (+2 hp,
not +1); version 1 is still judged exactly, so a game begun under it is
finished under it, or goes on under 2 from a rules change both players sign.
"""
