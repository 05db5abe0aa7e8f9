"""DBA-style fleet battles (issue 15): a second ruleset behind pbem's contract.

Shares nothing with War Galley's modules except engine.datafiles. Geometry is
in whole paces (integers only), so states and decisions encode canonically.
The rules text we implement is docs/fleets-rules.md.
"""
