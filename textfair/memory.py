"""An audit's memory, estimated before its first model query: a run that would not fit in
the machine's memory is refused in one line, rather than killed by the kernel hours in.

The memory model (measured by `benchmarks/lists.py`, see docs/pages/benchmarks.md). What an
audit holds beyond what is loaded before it starts (the interpreter, the model, the corpus)
grows with the texts it writes and the rule sets it scores, never with the square of a
category's size (term pairs are kept in bounded number, see `discovery.keptpairs`):

    peak − start ≈ BYTES_PER_VARIANT × variants + BYTES_PER_RULE_SET × rule sets

where, per category c of T_c terms named by S_c seeds,

    variants = Σ_c  min(S_c, max_samples) · min(T_c − 1, max_assignments)   (group fairness)
             + Σ_c  min(S_c, term_samples) · (T_c − 1)                      (term pairs)

(term_samples is min_samples, the seeds the causal stage pairs), each variant a rewritten
text that is kept with the model's answer for the run, and rule sets are the frequent rule
sets TestSGD scores (each with its examples). The constants are the largest per-unit costs
measured, rounded up, so the estimate errs on the side of refusing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from textfair.errors import TextfairError

__all__ = [
    "BYTES_PER_RULE_SET",
    "BYTES_PER_VARIANT",
    "MemoryEstimate",
    "available_memory",
    "check_memory",
    "estimate_memory",
    "memory_limit",
    "parse_size",
]

# Measured by benchmarks/lists.py (one category of 100 to 3,000 made-up terms, 100 to 1,600
# texts; 2026-11-26): the peak grew by 0.4 to 0.9 KB per variant (rule sets included), so
# 1 KB per variant and 20 KB per rule set (its examples) estimate above every measured run.
BYTES_PER_VARIANT = 1_000
BYTES_PER_RULE_SET = 20_000


@dataclass(frozen=True)
class MemoryEstimate:
    """What an audit will hold beyond what is loaded before it, and what makes it."""

    variants: int
    rule_sets: int
    largest_category: str
    largest_terms: int

    @property
    def bytes(self) -> int:
        return BYTES_PER_VARIANT * self.variants + BYTES_PER_RULE_SET * self.rule_sets


def estimate_memory(
    terms: dict[str, int],
    seeds: dict[str, int],
    rule_sets: int,
    *,
    max_samples: int,
    term_samples: int,
    max_assignments: int,
) -> MemoryEstimate:
    """The memory model's estimate for categories of `terms[c]` terms named by `seeds[c]`
    seeds, with `rule_sets` frequent rule sets (see the module's docstring)."""
    variants = 0
    for category, count in terms.items():
        named = seeds.get(category, 0)
        others = max(count - 1, 0)
        variants += min(named, max_samples) * min(others, max_assignments)
        variants += min(named, term_samples) * others
    largest = max(terms, key=lambda c: (terms[c], c)) if terms else ""
    return MemoryEstimate(variants, rule_sets, largest, terms.get(largest, 0))


def available_memory() -> int | None:
    """The memory the machine can give this process now (bytes): MemAvailable of
    /proc/meminfo, bounded by a cgroup's limit where one is set; None where neither can be
    read (the guard then does not refuse)."""
    available = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                available = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        available = None
    try:
        limit = Path("/sys/fs/cgroup/memory.max").read_text().strip()
        used = int(Path("/sys/fs/cgroup/memory.current").read_text().strip())
        if limit != "max":
            room = int(limit) - used
            available = room if available is None else min(available, room)
    except (OSError, ValueError):
        pass
    if available is None and hasattr(os, "sysconf"):
        try:
            available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError):
            available = None
    return available


_UNITS = {"": 1, "B": 1, "K": 10**3, "KB": 10**3, "M": 10**6, "MB": 10**6, "G": 10**9, "GB": 10**9}
_UNITS |= {"T": 10**12, "TB": 10**12, "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}


def parse_size(text: str) -> int:
    """Bytes from "4GB", "500 MB", "2GiB" or a plain number of bytes; a one-line
    TextfairError otherwise."""
    cleaned = text.strip().upper().replace(" ", "")
    number = cleaned.rstrip("BKMGTI")
    unit = cleaned[len(number) :]
    try:
        value = float(number)
    except ValueError:
        value = -1.0
    if unit not in _UNITS or not value > 0:
        raise TextfairError(
            f"TEXTFAIR_MAX_MEMORY is {text!r}; expected a size such as 4GB, 500MB or 2GiB"
        )
    return int(value * _UNITS[unit])


def memory_limit() -> int | None:
    """The memory an audit may take: TEXTFAIR_MAX_MEMORY where it is set (a size, or "none"
    to turn the guard off), else what the machine has available (`available_memory`)."""
    setting = os.environ.get("TEXTFAIR_MAX_MEMORY", "").strip()
    if setting.lower() == "none":
        return None
    return parse_size(setting) if setting else available_memory()


def _gb(value: int) -> str:
    return f"{value / 1e9:.1f} GB"


def check_memory(estimate: MemoryEstimate, limit: int | None) -> None:
    """Refuse, in one line naming the sizes and what to change, a run whose estimate is
    more than `limit` bytes (`memory_limit`: the memory available, or TEXTFAIR_MAX_MEMORY)."""
    if limit is None or estimate.bytes <= limit:
        return
    raise TextfairError(
        f"this audit would need about {_gb(estimate.bytes)} of memory beyond what is loaded "
        f"({estimate.variants:,} rewritten texts, {estimate.rule_sets:,} rule sets; the "
        f"largest category, {estimate.largest_category}, has {estimate.largest_terms:,} "
        f"terms), but {_gb(limit)} is available; audit fewer categories (--categories), "
        "fewer seeds (--max-samples), fewer terms (a smaller list), or set "
        "TEXTFAIR_MAX_MEMORY (e.g. 8GB) if more memory is free than the machine reports"
    )
