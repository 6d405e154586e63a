"""The templated section audited beside the corpus's, at once where that costs nothing.

A text audit with templates has two sections on one model. The templates are known whole
before the corpus is read, so where the model waits rather than computes on this machine
(a GPU, a server: `textfair.models.ahead.computes_on_this_cpu` says no), `TemplateSection`
audits them in a thread of its own from the start: the model answers the templates while
the corpus is read and while textfair works on the corpus's answers, and the corpus's
calls go first (`textfair.models.turns.ModelTurns`). Elsewhere (a model on this CPU, which
the reading would slow) the section is audited after the corpus, as it always was.

Either way the section runs on a sibling of the corpus's model (`CachedModel.sibling`),
made before the corpus's first query: it knows the answers the model had then, counts its
own work, and gives its answers back at the end. Its report is therefore the same to the
bit whether it ran at once or after, and whatever the timing between the two threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import TracebackType

from textfair.auditing.report import probe
from textfair.models import CachedModel
from textfair.models.turns import Stopped
from textfair.report.model import AuditReport
from textfair.run import Run
from textfair.text.template_domain import TemplateDomain

__all__ = ["TemplateSection"]


class TemplateSection:
    """The templated section of an audit on a sibling of `cached`: `audit(model, run)` (the
    section's audit, `audit_templates` with its domain and settings given) started in a
    thread by `start`, or run in the calling thread by `report` when it was not started. As a
    context manager it stops the thread when the block raises (the audit's error stands)."""

    def __init__(
        self,
        domain: TemplateDomain,
        cached: CachedModel,
        audit: Callable[[CachedModel, Run], AuditReport],
        run: Run,
    ) -> None:
        self._cached = cached
        self._model = cached.sibling()
        self._domain = domain
        self._audit = lambda: audit(self._model, _on_templates(run))
        self._thread: threading.Thread | None = None
        self._report: AuditReport | None = None
        self._error: BaseException | None = None

    def probe(self) -> None:
        """Ask the model, here, about the two inputs the section's probe asks first
        (`textfair.auditing.report.probe`; counted when the section asks them)."""
        seeds = min(2, len(self._domain.seeds))
        probe(self._model, [self._domain.input(i) for i in range(seeds)], ahead=True)

    def start(self) -> None:
        """Audit the section in a thread of its own, beside the caller's work."""
        self._thread = threading.Thread(target=self._run, name="textfair-templates", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._report = self._audit()
        except Stopped:
            pass  # the audit stopped: its own error is the one raised
        except BaseException as err:  # raised in the calling thread by `report`
            self._error = err
            turns = self._model.turns
            if turns is not None:
                turns.fail(err)  # the corpus stops at its next call: nothing more is asked

    def report(self) -> AuditReport:
        """The section's report: waited for where it runs in a thread, else audited now; its
        error, where it failed, raised here. Its answers are given back to the audit's model."""
        if self._thread is None:
            self._report = self._audit()
        else:
            self._thread.join()
            if self._error is not None:
                self._model.close()
                raise self._error
        self._cached.adopt(self._model)
        assert self._report is not None
        return self._report

    def __enter__(self) -> TemplateSection:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """A block that raises stops the section at its next model call and waits for it;
        where the block stopped because the section failed, the section's error is the one
        raised."""
        if error is None:
            return
        if self._thread is not None:
            turns = self._model.turns
            if turns is not None:
                turns.stop()
            self._thread.join()
        self._model.close()
        if isinstance(error, Stopped) and self._error is not None:
            raise self._error from None


def _on_templates(run: Run) -> Run:
    """`run` with its progress messages saying they are the templates' ("templates:
    scoring 47 rule sets"): the two sections may announce their stages in any order."""
    progress = run.progress
    if progress is None:
        return run
    return Run(run.model_id, run.command, lambda m: progress(f"templates: {m}"), run.started)
