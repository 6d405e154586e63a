"""Audit reports: the typed result (`model`), its JSON contract (`records`), and its
renderings (`render`: Markdown and the terminal; `html`: the page). The package imports
nothing itself, so that the model, which the renderers import, never waits on them."""
