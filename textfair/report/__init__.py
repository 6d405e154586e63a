"""Audit reports: the typed result (`model`), its JSON contract (`records`), and its
renderings (`markdown`, `terminal`, `html`: the page; `files` writes them). The package imports
nothing itself, so that the model, which the renderers import, never waits on them."""
