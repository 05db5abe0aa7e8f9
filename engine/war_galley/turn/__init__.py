"""3 The Turn, 5 The Squadron System, 9 Victory: the game state, the sequence of play (3.1), initiative
(3.2), squadrons and command (5.2-5.3), activation (5.4), commanders (5.5), status resolution (3.1 G),
victory (9.1, 9.2); off-map entry and Crew Fatigue (6.4) as the turn runs them.

`hooks` is the one interface through which the battles' special rules reach this room and those below:
the core consults it, the battles register with it, and nothing here imports a battle.
"""
