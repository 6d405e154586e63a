"""The one exception type users see.

Every mistake a user can make (a bad file, an unknown name, an empty column) is raised as
:class:`TextfairError` with a single-line message saying what was received, what was expected
and how to fix it. The CLI prints that line and exits with code 2; library callers can catch it.

A mistake in one parameter names it as the library spells it (`theta is 1.5; ...`) and says
so in `parameter`; the CLI shows the command-line flag instead (`--theta is 1.5; ...`).
"""

from __future__ import annotations


class TextfairError(ValueError):
    """A user-facing error whose message is one line: received, expected, fix.

    Every mistake a user can make (a bad file, an unknown name, an empty column) is raised as
    this type. It is a `ValueError`, so code that catches those catches it too. The CLI
    prints the line and exits with code 2.

    Parameters
    ----------
    message
        The one line: what was received, what was expected and how to fix it.
    parameter
        The parameter at fault, as the library spells it (``"theta"``), or None when the
        mistake is not in one parameter. The CLI then shows the command-line flag instead
        (``--theta is 1.5; ...``).

    Attributes
    ----------
    parameter : str or None
        As given.

    Examples
    --------
    >>> import textfair
    >>> try:
    ...     textfair.load_corpus(["a text"], unit="page")
    ... except textfair.TextfairError as err:
    ...     print(err, "|", err.parameter)
    unit is 'page'; expected 'document' or 'sentence' | unit
    """

    def __init__(self, message: str, *, parameter: str | None = None) -> None:
        super().__init__(message)
        self.parameter = parameter

    @classmethod
    def bad(cls, parameter: str, message: str) -> TextfairError:
        """An error about one parameter, whose message starts with the parameter's name.

        Parameters
        ----------
        parameter
            The parameter at fault, as the library spells it.
        message
            What follows the name in the message: ``bad("theta", "is 2")`` says
            ``"theta is 2"``.

        Returns
        -------
        TextfairError
            The error, with `parameter` set; raise it.

        Examples
        --------
        >>> err = TextfairError.bad("theta", "is 2; expected a number in (0, 1]")
        >>> str(err), err.parameter
        ('theta is 2; expected a number in (0, 1]', 'theta')
        """
        return cls(f"{parameter} {message}", parameter=parameter)


class InputNote(UserWarning):
    """A choice textfair made about the input for the user, said in one line (the CLI shows
    it as "warning: ..."): which column it took as the text, for example."""


class ModelError(TextfairError):
    """The model itself failed during a run (it raised, or its server went away): not a
    user mistake in the options, and never a finding. The CLI exits with code 3."""


def describe_failure(err: BaseException) -> str:
    """What a user's code did, in one line: `Type: first line of the message`, a syntax
    error with its file and line, or the `sys.exit()` it called."""
    if isinstance(err, SystemExit):
        return f"it called sys.exit({err.code!r})"
    if isinstance(err, SyntaxError):
        where = f" ({(err.filename or '?').rsplit('/', 1)[-1]}, line {err.lineno})"
        return f"SyntaxError: {err.msg}{where}"
    first = (str(err).strip().splitlines() or [""])[0][:200]
    return f"{type(err).__name__}: {first}" if first else type(err).__name__
