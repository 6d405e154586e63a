"""Audit reports: the typed result (`model`) with its `prose`, `records`, `files` and `notebook`
views, and its renderings (`markdown`, `terminal`, `html` with `figures`). The package imports
nothing itself, so that the model, which the renderers know as a type, never waits on them."""
