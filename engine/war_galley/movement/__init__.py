"""6 Movement: speed (6.1, 6.2), the steps of a plan and moving (6.3), manoeuvres, a galley's leg through a
segment, Run Aground (6.36).

Crew Fatigue (6.4) reads the whole game and lives in turn/fatigue.py; Avoidance (6.5) and the Defensive
Reaction Ram (6.7) answer a ram and live in galley_combat/.
"""
