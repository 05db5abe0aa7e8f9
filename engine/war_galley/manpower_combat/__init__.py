"""8 Manpower Combat: Grappling (8.1), Boarding (8.2), Disengage (8.3), Missile Fire (8.4), Flame (8.5),
Personnel Losses (8.6), Towers (8.47), and the scenario devices these rules read (corvus, harpax, fire).
"""
