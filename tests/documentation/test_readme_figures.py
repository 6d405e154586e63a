"""Every figure the README and getting-started quote from the default audit is what the
command prints (issue 55: the docs quoted "all 17" rule sets and figures of an older run).

The "Reading the verdict" paragraph names, for your texts and for templates, the number of
rule sets and, per term, the signed difference with its interval (and an adjusted p-value
where one is quoted); each is checked against the default audit's report, as `textfair
audit` with no options computes it.
"""

import re

import pytest

import textfair

from locations import ROOT

# The default audit, 7 s, and the figures the pages quote from it: checked in the slow tier
# with the other figures a reading change moves (the fast tier keeps to 3 minutes).
pytestmark = pytest.mark.slow

PAGES = [ROOT / "README.md", ROOT / "docs" / "pages" / "getting-started.md"]
FIGURE = re.compile(
    r"\*(?P<term>[\w ]+)\*'?s? (?P<d>[+-]\d+\.\d) \[(?P<lo>[+-]\d+\.\d), (?P<hi>[+-]\d+\.\d)\]"
)


def _paragraph(path) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index("**Reading the verdict.**")
    end = text.find("\n\n", start)
    return " ".join(text[start : end if end >= 0 else len(text)].split())


@pytest.fixture(scope="module")
def report():
    return textfair.audit("toxicity-cnn-lstm")


def _signed(value: float) -> str:
    return f"{100 * value:+.1f}"


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.name)
def test_the_verdict_paragraph_quotes_the_default_audit(report, path):
    paragraph = _paragraph(path)
    texts_part, templates_part = paragraph.split("On templates (", 1)
    texts_part = texts_part.split("On the bundled model's texts (", 1)[1]
    templates_part, gate_part = templates_part.split("With `--fail-above", 1)
    for part, section in ((texts_part, report), (templates_part, report.templates)):
        assert section is not None
        count = int(re.match(r"(\d+) rule sets", part)[1])
        assert count == len(section.findings), (path.name, part[:40])
        figures = list(FIGURE.finditer(part))
        assert figures, part
        for figure in figures:
            finding = next(
                f for f in section.findings if [r.value for r in f.rule_set] == [figure["term"]]
            )
            quoted = (figure["d"], figure["lo"], figure["hi"])
            assert quoted == tuple(_signed(v) for v in (finding.difference, *finding.ci)), (
                path.name,
                figure[0],
            )
            after = part[figure.end() : figure.end() + 120]
            p_value = re.search(r"adjusted p-value (?:of )?(\d\.\d+)", after.split("*")[0])
            if p_value:
                assert p_value[1] == f"{finding.p_adjusted:.3g}", (path.name, figure[0])
            said = "(significant" in after.split("*")[0]
            assert said == finding.significant, (path.name, figure[0])
    # Every finding the gate fails, the templates' too (issue 57: the README named one of 3).
    said = re.search(r"two-sided, on your texts and on templates: here (.*?) fail it", gate_part)
    assert said, "the README no longer says which findings --fail-above 5 fails"
    named = sorted(re.findall(r"\*(\w+)\*'s ([+-]\d+\.\d)", said[1]))
    gated = report.failing(5)
    assert named == sorted(
        (str(f.rule_set[0].value), _signed(f.difference)) for f in gated if len(f.rule_set) == 1
    )
    assert len(named) == len(gated)


def test_the_auditing_pages_placebo_cost_is_the_default_audits(report):
    # Issue 57: the page quoted "237 of the bundled audit's 3,776 model queries" while the
    # audit printed 3,047 (188 of them placebo edits).
    text = " ".join((ROOT / "docs" / "pages" / "auditing.md").read_text(encoding="utf-8").split())
    match = re.search(r"([\d,]+) of the bundled audit's ([\d,]+) model queries on its texts", text)
    assert match, "the auditing page no longer quotes the placebo's cost"
    quoted = tuple(int(n.replace(",", "")) for n in match.groups())
    assert quoted == (report.run.placebo_queries, report.run.model_queries)


def test_the_auditing_pages_pairs_figure_is_what_the_default_audit_writes(report):
    # Issue 57: the --pairs paragraph said 40 pairs while the default audit wrote 67.
    text = " ".join((ROOT / "docs" / "pages" / "auditing.md").read_text(encoding="utf-8").split())
    match = re.search(r"On the bundled model and comments it is (\d+) pairs \(([^)]*)\)", text)
    assert match, "the auditing page no longer quotes the --pairs count"
    frame = report.flipped_pairs_frame()
    assert int(match.group(1)) == len(frame)
    said = match.group(2)
    for axis, count in frame.groupby("axis").size().items():
        assert f"{count} {axis}" in said, (axis, count, said)
    placebo = int(frame["placebo_flipped"].sum())
    if placebo:
        assert f"{placebo} of them flip under the placebo edit too" in said
    else:
        assert "none flips under the placebo edit" in said


# three audits, one per bundled model: 25 s
def test_the_auditing_pages_placebo_table_is_what_the_benchmark_prints():
    # Issue 57: the table quoted 42 seeds and 4.5% for gender where the audit gave others.
    from benchmarks.placebo import MODELS, categories, markdown_rows

    results = [categories(*spec) for spec in MODELS]
    page = (ROOT / "docs" / "pages" / "auditing.md").read_text(encoding="utf-8")
    quoted = [line.strip() for line in page.splitlines() if line.strip().startswith("| ")]
    for result in results:
        for row in markdown_rows(result):
            assert row in quoted, f"the page's placebo table lacks {row!r}"
    tiny = next(r for r in results if r["model"] == "toxicity-tiny-transformer")
    gender = tiny["categories"]["gender"]
    said = " ".join(page.split())
    assert (
        f"the tiny transformer flips {100 * gender['identity_rate']:.1f}% of its gender "
        f"decisions under a swap, but {100 * gender['placebo_rate']:.1f}% under a neutral word"
    ) in said


def test_the_report_page_screenshots_show_todays_default_audit(report):
    # Issue 57: the README's screenshot said "11 can be rewritten" and -7.2 for gay beside a
    # text that said -6.6. docs/screenshots.py records the verdict it photographed; when
    # this fails, take the screenshots again: python docs/screenshots.py
    import json

    record = json.loads(
        (ROOT / "docs" / "pages" / "images" / "report-page.json").read_text(encoding="utf-8")
    )
    assert record["summary"] == report.summary(), "run python docs/screenshots.py"


def test_the_auditing_pages_two_sections_quote_the_default_audit(report):
    # Issue 57: the page said religion's 347 texts gave 52 seeds and race's 64 gave 11,
    # figures of an older reading (117 and 26 today).
    text = " ".join((ROOT / "docs" / "pages" / "auditing.md").read_text(encoding="utf-8").split())
    match = re.search(r"name religion in (\d+) texts, but (\d+) of them can be rewritten", text)
    assert match, "the auditing page no longer quotes religion's seeds"
    naming, rewritable = report.data["seeds_mentioning"], report.data["seeds_rewritable"]
    assert (int(match.group(1)), int(match.group(2))) == (
        naming["religion"],
        rewritable["religion"],
    )
    quoted = re.search(r'\("(Tested: [^"]*?); \.\.\.\)"\)', text)
    assert quoted, "the auditing page no longer quotes the verdict's first sentence"
    assert quoted.group(1) in report.summary()
