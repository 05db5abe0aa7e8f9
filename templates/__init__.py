"""Report templates (jinja2), shipped as package data.

No code lives here: this file only makes the folder installable with the
package, so `pip install .` carries it (engine.datafiles finds it).
"""
