"""`textfair audit --baseline OLD --fail-if-worse POINTS` and `textfair report NEW --baseline
OLD`: a new version that got worse fails the gate (exit 1), the same version passes, and a
baseline that cannot be paired, or a gate without a baseline, is one line (exit 2) before
any model query."""

import csv
import json

import pytest
from typer.testing import CliRunner

from textfair.cli import app

from conftest import bundled_comments

runner = CliRunner()
QUICK = ("--categories", "gender", "--templates", "none", "--seed", "0")


def invoke(*args):
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """A corpus (the first 400 bundled comments), versions of a model (v1 answers the same
    for every text; v2 also finds every text naming "gay" toxic; v3 finds one text in five
    toxic, by its exact wording: no identity fares worse, but a swap often flips it) and
    v1's audit."""
    folder = tmp_path_factory.mktemp("versions")
    with (folder / "corpus.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["comment"])
        writer.writerows([text] for text in bundled_comments()[0][:400])
    (folder / "versions.py").write_text(
        "import zlib\n"
        "import numpy as np\n"
        "def v1(texts):\n    return np.tile([0.8, 0.2], (len(texts), 1))\n"
        "def v2(texts):\n"
        "    toxic = np.array([0.9 if 'gay' in t.lower() else 0.2 for t in texts])\n"
        "    return np.stack([1 - toxic, toxic], axis=1)\n"
        "def v3(texts):\n"
        "    toxic = np.array([0.9 if zlib.crc32(t.encode()) % 5 == 0 else 0.2 for t in texts])\n"
        "    return np.stack([1 - toxic, toxic], axis=1)\n"
        "v1.labels = v2.labels = v3.labels = ['non-toxic', 'toxic']\n"
    )
    return folder


def _audit(folder, version, *args):
    import sys

    sys.path.insert(0, str(folder))
    try:
        return invoke(
            "audit", "--model", f"py:versions:{version}", "--data", str(folder / "corpus.csv"),
            *QUICK, *args,
        )  # fmt: skip
    finally:
        sys.path.remove(str(folder))


@pytest.mark.slow  # two command-line audits, 3 s: the fast tier keeps to 3 minutes
def test_a_version_that_got_worse_fails_the_gate_and_the_same_passes(versions):
    first = _audit(versions, "v1", "--out", str(versions / "v1"))
    assert first.exit_code == 0, first.output
    worse = _audit(
        versions,
        "v2",
        "--out",
        str(versions / "v2"),
        "--baseline",
        str(versions / "v1" / "report.json"),
        "--fail-if-worse",
        "5",
    )
    said = " ".join(worse.output.split())
    assert worse.exit_code == 1, worse.output
    # The rule set and gender's flip rate: every gender seed can be swapped to "gay".
    assert '2 got worse ({"gay"} -' in said and "flip rate of gender +" in said
    assert "got significantly worse by more than --fail-if-worse 5 points: failing" in said
    record = json.loads((versions / "v2" / "report.json").read_text())
    assert record["baseline"]["old_model"] == "py:versions:v1"
    assert any(c["worse"] for c in record["baseline"]["changes"])
    assert "## Against the baseline" in (versions / "v2" / "report.md").read_text()
    # The page too, built from report.json alone: a row per compared finding, the rule set
    # that got worse marked so; the baseline's own page has no such section.
    page = (versions / "v2" / "report.html").read_text(encoding="utf-8")
    assert '<h2 id="against-the-baseline">Against the baseline</h2>' in page
    compared = page.split('<table class="sortable" id="baseline">')[1].split("</table>")[0]
    rows = compared.split("<tr>")[2:]  # the header's row first
    assert len(rows) == len(record["baseline"]["changes"]) + len(record["baseline"]["causal"])
    assert any("{&quot;gay&quot;}" in row and "<td>worse</td>" in row for row in rows)
    assert "against-the-baseline" not in (versions / "v1" / "report.html").read_text()
    same = _audit(versions, "v1", "--baseline", str(versions / "v1"), "--fail-if-worse", "5")
    assert same.exit_code == 0, same.output
    assert "none got worse, none better" in " ".join(same.output.split())
    shown = invoke(
        "report", str(versions / "v2" / "report.json"), "--baseline", str(versions / "v1")
    )
    assert shown.exit_code == 0, shown.output
    assert "Against the baseline:" in shown.output and "got worse" in shown.output
    # Rendered as a page and as Markdown: v1 against v2, a comparison v1's report lacks.
    page, text = versions / "v1-against-v2.html", versions / "v1-against-v2.md"
    rendered = invoke(
        "report", str(versions / "v1" / "report.json"), "--baseline", str(versions / "v2"),
        "--html", str(page), "--md", str(text),
    )  # fmt: skip
    assert rendered.exit_code == 0, rendered.output
    assert '<h2 id="against-the-baseline">' in page.read_text(encoding="utf-8")
    markdown = text.read_text(encoding="utf-8")
    assert markdown.count("## Against the baseline") == 1 and "got better" in markdown


def test_a_causal_score_that_got_worse_fails_the_gate_alone(versions):
    """v3's decisions hang on each text's wording: no rule set fares significantly worse, but
    gender swaps flip its decisions far more often than v1's, and the gate counts that."""
    if not (versions / "v1" / "report.json").exists():
        assert _audit(versions, "v1", "--out", str(versions / "v1")).exit_code == 0
    worse = _audit(
        versions, "v3", "--out", str(versions / "v3"), "--baseline", str(versions / "v1"),
        "--fail-if-worse", "5",
    )  # fmt: skip
    said = " ".join(worse.output.split())
    assert worse.exit_code == 1, worse.output
    assert "1 causal score compared on the same seeds: 1 got worse (flip rate of gender +" in said
    assert "texts: flip rate of gender 0.0% -> " in said
    assert "1 finding got significantly worse by more than --fail-if-worse 5 points" in said
    record = json.loads((versions / "v3" / "report.json").read_text())["baseline"]
    assert not any(c["worse"] for c in record["changes"])
    assert [c["categories"] for c in record["causal"] if c["worse"]] == [["gender"]]
    assert "flip rate of gender" in (versions / "v3" / "report.md").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--fail-if-worse", "5"), "--fail-if-worse needs --baseline"),
        (("--baseline", "{v1}", "--seed", "3"), "with seed 0, this audit with 3"),
        (("--baseline", "{v1}", "--categories", "religion"), "with categories ['gender']"),
        (("--baseline", "{v1}", "--fail-if-worse", "150"), "expected points between 0 and 100"),
        (("--baseline", "{missing}"), "--baseline"),
    ],
)
def test_a_baseline_that_cannot_be_compared_is_one_line(versions, args, message):
    if not (versions / "v1" / "report.json").exists():
        assert _audit(versions, "v1", "--out", str(versions / "v1")).exit_code == 0
    paths = {"v1": str(versions / "v1"), "missing": str(versions / "nothing.json")}
    result = _audit(versions, "v2", *(a.format(**paths) for a in args))
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and message in " ".join(result.output.split()), result.output
