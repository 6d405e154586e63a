"""A user's YAML (a term list, a schema) parsed safely and in bounded time.

Apart from the file readers: it parses text already read, and its one concern is what a
hostile document could make a parser do.
"""

from __future__ import annotations

from textfair.errors import TextfairError


def load_yaml(text: str, label: str, hint: str = "fix the syntax") -> object:
    """A user's YAML (a term list, a schema), parsed safely and in bounded time: the safe
    loader (no tags that build objects), and no anchors or aliases. Aliases are what makes
    a "billion laughs" document: nine levels of `&a [*a, *a, ...]` are a few hundred bytes
    that expand to billions of items for whatever walks them; textfair's files never need
    them. One-line errors with the line and column."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed: faster
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                mark = event.start_mark
                assert mark is not None  # the parser's events carry their marks
                raise TextfairError(
                    f"{label}: YAML anchors and aliases (&name, *name) are not accepted (line "
                    f"{mark.line + 1}); write the values out"
                )
        return yaml.load(text, Loader=loader)  # a safe loader, never yaml.Loader
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(err, "problem", None) or "syntax error"
        raise TextfairError(f"{label}: malformed YAML ({problem}{where}); {hint}") from None
