"""War Galley (GMT, Great Battles of History): the rules as pure functions, one room per rule chapter.

The folders follow the rulebook's table of contents (docs/architecture.md has
the section-by-section map); each imports only the rooms below it, which
`lint-imports` checks (pyproject.toml):

    ruleset.py        the adapter to pbem's contract (entry point "war-galley")
    play/             legal listing, the order notation, description (not rules)
    battles/          the scenario book: battle files, set-up, special rules; 10.0 tournament
    turn/             3 The Turn, 5 The Squadron System, 9 Victory; the game state; the hook interface
    manpower_combat/  8 Manpower Combat
    galley_combat/    7 Galley Combat (and the reactions to a ram: 6.5, 6.7)
    movement/         6 Movement
    map_and_galleys/  2 Components (counters, maps, charts), 4 The Galleys
"""
