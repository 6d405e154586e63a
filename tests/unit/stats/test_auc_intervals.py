"""Label metrics' intervals hold at their stated confidence (by simulation), the minimum size
gives "too few texts", and the intervals, counts and gaps reach report.json, every surface and
the verdict; reports written before them still read and render."""

import copy
import json
import math

import numpy as np
import pytest
from rich.console import Console
from scipy.stats import norm

from textfair.report.html import render_html
from textfair.report.markdown import render_markdown
from textfair.report.model import AuditReport
from textfair.report.terminal import render_terminal
from textfair.stats._auc import auc, auc_interval
from textfair.stats.label_metrics import MIN_PER_CLASS, bias_metrics

from locations import DATA

BUNDLED = DATA / "bundled_audit_report.json"


def _binormal_truth(shift: float, digits: int | None) -> float:
    """P(X > Y) + P(X = Y) / 2 for X ~ N(shift, 1), Y ~ N(0, 1), both rounded to `digits`
    decimals when given (then ties happen), computed exactly from the rounding bins."""
    if digits is None:
        return float(norm.cdf(shift / math.sqrt(2)))
    step = 10.0**-digits
    grid = np.arange(-12, 12 + shift, step)
    bins = lambda mean: norm.cdf(grid + step / 2 - mean) - norm.cdf(grid - step / 2 - mean)  # noqa: E731
    x, y = bins(shift), bins(0.0)
    below = np.concatenate([[0.0], np.cumsum(y)[:-1]])  # P(Y < grid value)
    return float(np.sum(x * (below + y / 2)))


def _auc_coverage(positives, negatives, target, digits, runs, seed, confidence=0.95, z_scale=1.0):
    """Share of `runs` binormal samples whose AUC interval holds the true AUC."""
    rng = np.random.default_rng(seed)
    shift = math.sqrt(2) * norm.ppf(target)
    truth = _binormal_truth(shift, digits)
    labels = np.r_[np.ones(positives, bool), np.zeros(negatives, bool)]
    held = 0
    for _ in range(runs):
        scores = np.r_[rng.normal(shift, 1, positives), rng.normal(0, 1, negatives)]
        if digits is not None:
            scores = np.round(scores, digits)
        value = auc(labels, scores)
        # z_scale < 1 narrows the interval on purpose: the check must catch it.
        narrowed = 2 * norm.cdf(z_scale * norm.ppf(0.5 + confidence / 2)) - 1
        low, high = auc_interval(value, positives, negatives, narrowed)
        held += low <= truth <= high
    return held / runs


# Small classes at the minimum, AUCs near 1 (and near 0, the mirror), very unequal classes
# (a BPSN AUC: the background's many positives, the subgroup's few negatives), and ties.
CASES = [
    (MIN_PER_CLASS, MIN_PER_CLASS, 0.99, None),
    (MIN_PER_CLASS, MIN_PER_CLASS, 0.9, None),
    (300, MIN_PER_CLASS, 0.97, None),
    (MIN_PER_CLASS, 300, 0.15, None),
    (30, 30, 0.995, None),
    (MIN_PER_CLASS, MIN_PER_CLASS, 0.95, 1),  # scores to one decimal: many ties
]


@pytest.mark.parametrize("positives,negatives,target,digits", CASES)
def test_the_auc_interval_covers_at_95_with_small_classes_and_auc_near_1(
    positives, negatives, target, digits
):
    # 400 runs: a true 95% coverage reads below 0.93 with probability about 3%; the
    # measured coverage here is 0.96-0.98 (Newcombe's interval is slightly conservative).
    assert _auc_coverage(positives, negatives, target, digits, 400, seed=7) >= 0.93


def test_the_coverage_check_catches_an_interval_too_narrow():
    """The same check fails an interval 40% narrower than stated (it covers about 80%)."""
    assert _auc_coverage(MIN_PER_CLASS, MIN_PER_CLASS, 0.9, None, 400, seed=7, z_scale=0.6) < 0.9


def test_the_interval_keeps_width_at_0_and_1_and_stays_in_range():
    for value in (0.0, 1.0):
        low, high = auc_interval(value, MIN_PER_CLASS, MIN_PER_CLASS)
        assert 0.0 <= low < high <= 1.0 and high - low > 0.1
    low, high = auc_interval(0.9, 50, 50, 0.99)
    narrower = auc_interval(0.9, 50, 50, 0.9)
    assert low < narrower[0] < 0.9 < narrower[1] < high


def _subgroup_data(counts, means, rng):
    strata = ("sp", "sn", "bp", "bn")  # subgroup positives, negatives; background alike
    labels = np.concatenate([np.full(counts[k], k.endswith("p")) for k in strata])
    scores = np.concatenate([rng.normal(means[k], 1, counts[k]) for k in strata])
    mask = np.zeros(len(labels), bool)
    mask[: counts["sp"] + counts["sn"]] = True
    return labels, scores, mask


def _true_gaps(counts, means) -> dict[str, float]:
    """Each AUC minus the overall AUC, exactly, for normal scores with these stratum means
    and these counts (the overall AUC weights each pair of strata by its count)."""
    pair = lambda a, b: norm.cdf((means[a] - means[b]) / math.sqrt(2))  # noqa: E731
    total = sum(counts[a] * counts[b] * pair(a, b) for a in ("sp", "bp") for b in ("sn", "bn"))
    overall = total / ((counts["sp"] + counts["bp"]) * (counts["sn"] + counts["bn"]))
    return {
        "subgroup_auc": pair("sp", "sn") - overall,
        "bpsn_auc": pair("bp", "sn") - overall,
        "bnsp_auc": pair("sp", "bn") - overall,
    }


def _gap_coverage(counts, means, runs, seed):
    rng = np.random.default_rng(seed)
    truth = _true_gaps(counts, means)
    held = dict.fromkeys(truth, 0)
    for _ in range(runs):
        labels, scores, mask = _subgroup_data(counts, means, rng)
        row = bias_metrics(labels, scores, {"g": mask}, correction="none").subgroups[0]
        for kind, gap in row.gaps.items():
            held[kind] += gap.ci[0] <= truth[kind] <= gap.ci[1]
            # The p-value and the interval tell the same story, to the bit of the search.
            assert (
                gap.significant == (gap.ci[0] > 0 or gap.ci[1] < 0)
                or abs(gap.p_value - 0.05) < 1e-6
            )
            assert gap.ci[0] <= gap.difference <= gap.ci[1]
    return {kind: count / runs for kind, count in held.items()}


def test_the_gap_to_the_overall_auc_covers_for_a_small_subgroup_near_1():
    """A subgroup at the minimum (10 and 10) whose harmless texts score higher: its BPSN and
    subgroup AUCs fall below the overall AUC (near 0.99); every gap's interval holds."""
    counts = dict(sp=MIN_PER_CLASS, sn=MIN_PER_CLASS, bp=300, bn=700)
    coverage = _gap_coverage(counts, dict(sp=3.5, sn=1.0, bp=3.5, bn=0.0), 200, seed=3)
    assert all(c >= 0.92 for c in coverage.values()), coverage


@pytest.mark.slow
@pytest.mark.parametrize(
    "counts,means",
    [
        (dict(sp=10, sn=10, bp=300, bn=700), dict(sp=2.5, sn=0.8, bp=2.5, bn=0.0)),
        (dict(sp=10, sn=10, bp=300, bn=700), dict(sp=3.5, sn=0.0, bp=3.5, bn=0.0)),
        (dict(sp=40, sn=60, bp=200, bn=500), dict(sp=2.0, sn=0.5, bp=2.5, bn=0.0)),
        (dict(sp=70, sn=45, bp=180, bn=1200), dict(sp=3.0, sn=0.4, bp=3.0, bn=0.0)),
    ],
)
def test_the_gap_intervals_cover_over_1000_runs(counts, means):
    coverage = _gap_coverage(counts, means, 1000, seed=11)
    assert all(c >= 0.935 for c in coverage.values()), coverage


@pytest.mark.slow
def test_a_fair_model_rarely_shows_a_gap_even_at_a_small_alpha():
    """No gap at all (identity changes no score): the share of p-values below 0.01 stays
    near 0.01, so a correction over many subgroups rests on valid p-values."""
    rng = np.random.default_rng(5)
    counts, means = dict(sp=15, sn=30, bp=250, bn=700), dict(sp=3.0, sn=0.0, bp=3.0, bn=0.0)
    small = total = 0
    for _ in range(1000):
        labels, scores, mask = _subgroup_data(counts, means, rng)
        for gap in bias_metrics(labels, scores, {"g": mask}).subgroups[0].gaps.values():
            small += gap.p_value < 0.01
            total += 1
    assert small / total <= 0.02, small / total


def test_below_the_minimum_a_metric_has_no_number_and_at_it_one():
    rng = np.random.default_rng(0)
    labels = np.r_[np.ones(200, bool), np.zeros(400, bool)]
    scores = rng.random(600) * 0.5 + labels * 0.4
    mask = np.zeros(600, bool)
    mask[: MIN_PER_CLASS - 1] = True  # 9 positives
    mask[200 : 200 + MIN_PER_CLASS] = True  # 10 negatives
    row = bias_metrics(labels, scores, {"g": mask}).subgroups[0]
    assert (row.positives, row.negatives) == (MIN_PER_CLASS - 1, MIN_PER_CLASS)
    for kind in ("subgroup_auc", "bnsp_auc", "fnr_gap"):  # these need 10 positives
        assert math.isnan(getattr(row, kind)) and kind not in row.intervals
    for kind in ("bpsn_auc", "fpr_gap"):  # these need 10 negatives
        low, high = row.intervals[kind]
        assert low <= getattr(row, kind) <= high
    assert set(row.gaps) == {"bpsn_auc"}
    mask[MIN_PER_CLASS - 1] = True  # the 10th positive
    assert not math.isnan(bias_metrics(labels, scores, {"g": mask}).subgroups[0].subgroup_auc)


def test_the_rate_gap_is_signed_and_its_interval_holds_it():
    # The subgroup's harmless texts are all flagged, the others' never: FPR gap positive.
    labels = np.r_[np.zeros(20, bool), np.zeros(80, bool), np.ones(50, bool)]
    scores = np.r_[np.full(20, 0.9), np.full(80, 0.1), np.full(50, 0.9)]
    mask = np.r_[np.ones(20, bool), np.zeros(130, bool)]
    row = bias_metrics(labels, scores, {"g": mask}).subgroups[0]
    assert row.fpr_gap == pytest.approx(1.0 - 20 / 100)
    low, high = row.intervals["fpr_gap"]
    assert 0 < low < row.fpr_gap <= high <= 1  # the rate of 20 of 20 is the top of its own


def _bundled() -> AuditReport:
    record = json.loads(BUNDLED.read_text(encoding="utf-8"))
    for section in (record, record["templates"]):  # the templated section's run too
        section["run"] = {**section["run"], "seconds": 1.0, "model_calls": 1}
    return AuditReport.from_dict(record)


@pytest.mark.slow  # a labelled audit rendered on every surface: 6 s
def test_the_bundled_audit_shows_its_label_metrics_everywhere():
    """The bundled CNN-LSTM on its comments: "gay"'s BPSN AUC is below the overall AUC (its
    harmless mentions score like others' toxic texts, the bias Dixon et al. describe); the
    verdict says so, signed, with its interval; the terminal and the page show the table."""
    report = _bundled()
    metrics = report.metrics
    gaps = metrics.significant_gaps()
    assert [(s.subgroup, kind) for s, kind, _ in gaps] == [("gay", "bpsn_auc")]
    gap = gaps[0][2]
    assert gap.ci[0] <= gap.difference <= gap.ci[1] < 0
    verdict = report.summary()
    said = f"{gap.difference:+.3f} [{gap.ci[0]:+.3f}, {gap.ci[1]:+.3f}]"
    assert "Label metrics: AUCs significantly below the overall AUC" in verdict
    assert "texts that mention gay, BPSN AUC" in verdict and said in verdict
    assert "harmless mentions over-flagged" in verdict
    markdown = render_markdown(report)
    labels = markdown.split("## Label")[1].split("## On templates")[0]  # the texts' section
    assert "too few texts" in labels and "0.000" not in labels
    assert f"| gay | {gaps[0][0].positives} / {gaps[0][0].negatives} |" in markdown
    console = Console(width=80, record=True)  # a pipe's narrowest: every column kept
    render_terminal(report, console=console)
    shown = console.export_text()
    table = shown[
        shown.index("Label metrics: AUCs with enough texts") : shown.index("Causal tests")
    ]
    assert "too narrow" not in table and "more terms have too few texts" in table
    assert "texts not labelled" not in table  # the verdict's words stay in the verdict
    row = next(line for line in table.splitlines() if "gay" in line and "BPSN" in line)
    gay = gaps[0][0]
    low, high = gay.intervals["bpsn_auc"]
    assert f"{gay.bpsn_auc:.3f} [{low:.3f}, {high:.3f}] *" in row
    assert f"{gay.positives} / {gay.negatives}" in row
    page = render_html(report)
    assert "too few texts" in page and said in page


def test_no_significant_gap_says_nothing_in_the_verdict():
    report = _bundled()
    record = report.to_dict()
    for s in record["metrics"]["subgroups"]:
        for gap in s["gaps"].values():
            gap["significant"] = False
    quiet = AuditReport.from_dict(record)
    assert "Label metrics" not in quiet.summary()
    before, after = report.summary().split(" Label metrics:")
    assert quiet.summary() == before + " On templates:" + after.split(" On templates:", 1)[1]


@pytest.mark.slow  # a labelled audit rendered on every surface: 6 s
def test_a_report_written_before_the_intervals_reads_and_renders():
    """report.json of an older version: no counts, intervals, gaps, confidence or minimum;
    every value as it was (a 5-text AUC of 0 included), rendered without an interval."""
    record = _bundled().to_dict()
    old = copy.deepcopy(record)
    metrics = old["metrics"]
    for key in ("overall_auc_ci", "positives", "negatives", "confidence", "correction"):
        del metrics[key]
    del metrics["min_per_class"]
    for s in metrics["subgroups"]:
        for key in ("positives", "negatives", "intervals", "gaps"):
            del s[key]
    metrics["subgroups"][0]["subgroup_auc"] = 0.0
    report = AuditReport.from_dict(old)
    assert report.metrics.min_per_class is None and not report.metrics.subgroups[0].gaps
    assert "Label metrics" not in report.summary()
    markdown = render_markdown(report)
    assert "too few texts" not in markdown.split("## Label")[1].split("## On templates")[0]
    render_html(report)
    render_terminal(report, console=Console(width=100, record=True))
    # And the new record reads back whole.
    assert AuditReport.from_dict(record).metrics == _bundled().metrics
