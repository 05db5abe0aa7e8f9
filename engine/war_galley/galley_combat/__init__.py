"""7 Galley Combat: Ramming (7.1), Raking Oars (7.2), the Pass-Through (7.24), Anastrophe (7.3),
Sinking (7.17), the combat steps of a plan and running them; and the inactive side's answers to a ram
while the active side moves: Avoidance (6.5), the Defensive Reaction Ram (6.7), standing reactions.
"""
