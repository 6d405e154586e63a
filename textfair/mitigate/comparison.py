"""What `textfair.compare_mitigations` returns: every method's outcome beside the audited
model's on one split, with the Pareto front and the method the verdict leads with. Apart from
the comparison's run (`textfair.mitigate.compare`) so that `import textfair` can name it
without loading what the run needs."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from textfair._version import __version__
from textfair.errors import TextfairError
from textfair.mitigate.method_outcome import MethodOutcome

__all__ = ["Comparison"]


@dataclass(frozen=True)
class Comparison:
    """Every method's outcome beside the audited model's, on one split."""

    kind: str
    model_id: str
    seed: int
    split: dict
    audit_config: dict
    targets: list[str]
    targets_significant: bool  # False: no finding was significant; the most credible are used
    baseline: MethodOutcome
    methods: list[MethodOutcome]
    pareto: list[str]
    max_accuracy_drop: float = 0.01
    headline: str | None = None  # the front's method the verdict leads with (`headline`)

    def to_dict(self) -> dict:
        """comparison.json's content."""
        return {"textfair_version": __version__, **asdict(self)}

    def save(self, directory: str | Path, *, overwrite: bool = False) -> Path:
        """Write comparison.json, comparison.md and comparison.html into `directory`, as
        ``textfair mitigate --methods`` does, replaced as one set; returns the JSON's path.
        An earlier comparison there is replaced only with `overwrite`."""
        from textfair.report.comparison import write_comparison

        return write_comparison(self.to_dict(), directory, overwrite=overwrite)

    def outcome(self, method: str) -> MethodOutcome:
        """One method's outcome by name ("none": the audited model)."""
        for outcome in (self.baseline, *self.methods):
            if outcome.method == method:
                return outcome
        raise TextfairError(f"no method {method!r} in this comparison")
