"""The one exception type users see.

Every mistake a user can make (a bad file, an unknown name, an empty column) is raised as
:class:`TextfairError` with a single-line message saying what was received, what was expected
and how to fix it. The CLI prints that line and exits with code 2; library callers can catch it.
"""

from __future__ import annotations


class TextfairError(ValueError):
    """A user-facing error whose message is one line: received, expected, fix."""
