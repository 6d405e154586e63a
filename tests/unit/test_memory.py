"""Large term lists in bounded memory: the memory model's estimate, the guard that refuses a
run that would not fit before any model query, and a 3,000-term category that audits to a
complete report under a memory ceiling."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from textfair.cli import app
from textfair.errors import TextfairError
from textfair.memory import (
    BYTES_PER_RULE_SET,
    BYTES_PER_VARIANT,
    check_memory,
    estimate_memory,
    parse_size,
)

from locations import ROOT


def test_the_estimate_grows_linearly_with_terms_and_seeds():
    def estimate(terms, seeds):
        return estimate_memory(
            {"c": terms},
            {"c": seeds},
            0,
            max_samples=1000,
            term_samples=100,
            max_assignments=512,
        )

    # 400 seeds: each rewritten to 512 sampled assignments (group fairness), the first 100
    # paired with each other term.
    assert estimate(3000, 400).variants == 400 * 512 + 100 * 2999
    assert estimate(3000, 400).bytes == BYTES_PER_VARIANT * (400 * 512 + 100 * 2999)
    small, large = estimate(1000, 400).variants, estimate(10_000, 400).variants
    assert large < 11 * small  # linear in the terms (the pairs), not their square
    both = estimate_memory(
        {"a": 3, "b": 10},
        {"a": 5, "b": 0},
        7,
        max_samples=1000,
        term_samples=100,
        max_assignments=512,
    )
    assert both.variants == 5 * 2 + 5 * 2 and both.rule_sets == 7
    assert both.bytes == BYTES_PER_VARIANT * 20 + BYTES_PER_RULE_SET * 7
    assert (both.largest_category, both.largest_terms) == ("b", 10)


def test_sizes_read_as_people_write_them():
    assert parse_size("4GB") == 4 * 10**9
    assert parse_size(" 500 mb") == 500 * 10**6
    assert parse_size("2GiB") == 2 * 2**30
    assert parse_size("1000") == 1000
    for wrong in ("lots", "-1GB", "4 parsecs", ""):
        with pytest.raises(TextfairError, match="expected a size such as 4GB"):
            parse_size(wrong)


def test_a_run_over_the_limit_is_refused_in_one_line_naming_the_sizes():
    estimate = estimate_memory(
        {"made_up": 3000},
        {"made_up": 400},
        3000,
        max_samples=1000,
        term_samples=100,
        max_assignments=512,
    )
    check_memory(estimate, None)  # no limit known: never refused
    check_memory(estimate, estimate.bytes)
    with pytest.raises(TextfairError) as refused:
        check_memory(estimate, estimate.bytes - 1)
    message = str(refused.value)
    assert "\n" not in message
    for said in ("504,700 rewritten texts", "3,000 rule sets", "made_up, has 3,000 terms"):
        assert said in message
    assert "--categories" in message and "TEXTFAIR_MAX_MEMORY" in message


def test_the_cli_refuses_before_asking_the_model_anything(tmp_path, monkeypatch):
    """With less memory than the audit needs, exit 2 and one line; the model is never
    called (its module writes a file when it is), and nothing is written."""
    (tmp_path / "watched.py").write_text(
        "import numpy as np\n"
        "from pathlib import Path\n"
        "def predict(texts):\n"
        f"    Path({str(tmp_path / 'asked')!r}).write_text('asked')\n"
        "    return np.tile([0.8, 0.2], (len(texts), 1))\n"
        "predict.labels = ['non-toxic', 'toxic']\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("TEXTFAIR_MAX_MEMORY", "1MB")
    out = tmp_path / "report"
    result = CliRunner().invoke(app, ["audit", "--model", "py:watched:predict", "--out", str(out)])
    assert result.exit_code == 2, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("error: this audit would need about") and "1MB" not in last
    assert "but 0.0 GB is available" in last
    assert not (tmp_path / "asked").exists() and not out.exists()
    monkeypatch.setenv("TEXTFAIR_MAX_MEMORY", "plenty")
    result = CliRunner().invoke(app, ["audit", "--model", "py:watched:predict", "--out", str(out)])
    assert result.exit_code == 2 and "TEXTFAIR_MAX_MEMORY is 'plenty'" in result.output


@pytest.mark.slow
def test_a_category_of_3000_terms_audits_to_a_complete_report_under_4_gb():
    """The probe of the issue (a made-up category, a py: model) at 3,000 terms: the report
    set is written and the peak resident memory stays under 4 GB."""
    child = subprocess.run(
        [sys.executable, "-m", "benchmarks.lists", "--one", "3000", "150"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert child.returncode == 0, child.stderr[-2000:]
    run = json.loads(child.stdout.strip().splitlines()[-1])
    assert run["terms"] == 3000 and run["term_pairs_tested"] > 100 * 2000
    assert run["term_pairs_kept"] <= 1000 + run["term_pairs_tested"] // 20
    assert run["peak_mb"] < 4000 and run["report_json_mb"] < 20
    assert run["estimated_growth_mb"] * 1e6 > (run["peak_mb"] - 400) * 1e6
