"""The report page in a real browser: headless Chromium opens the pages of a text audit, a
tabular audit and a mitigation, and must see no console message, no network request, every
plot drawn, and the verdict report.json holds; a screenshot of each is kept beside the test's
files. Without Chromium the test is skipped with one line, except in CI, which installs it
and sets TEXTFAIR_REQUIRE_BROWSER=1."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from textfair.cli import main
from textfair.report.model import AuditReport

from conftest import DATA
from locations import ROOT

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"]
FLAGS += ["--disable-background-networking", "--disable-sync", "--hide-scrollbars"]


@pytest.fixture(scope="module")
def browser() -> str:
    found = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    if found is None:
        if os.environ.get("TEXTFAIR_REQUIRE_BROWSER") == "1":
            pytest.fail("no Chromium found, and CI requires it (apt-get install chromium)")
        pytest.skip("no Chromium found; install Debian's chromium to run the page test")
    return found


def open_page(browser: str, page: Path, work: Path, name: str) -> tuple[str, list[str], list[str]]:
    """The DOM after the page's scripts ran, its console messages, and the URLs it asked
    the network for (the browser's own background requests aside), and a screenshot."""
    netlog, profile = work / f"{name}.netlog.json", work / f"{name}.profile"
    run = subprocess.run(
        [browser, *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0",
         f"--log-net-log={netlog}", "--dump-dom", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    console = [line for line in run.stderr.splitlines() if ":CONSOLE" in line]
    requests = set()
    for event in json.loads(netlog.read_text())["events"]:
        params = event.get("params") or {}
        url, isolation = params.get("url", ""), params.get("network_isolation_key", "")
        if isolation.startswith("file://") and not url.startswith(("file:", "data:")):
            requests.add(url)  # asked for by the page, not by the browser's own services
    subprocess.run(
        [browser, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={work / name}.png",
         "--window-size=1280,2400", page.resolve().as_uri()],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    assert (work / f"{name}.png").stat().st_size > 10_000
    return run.stdout, console, sorted(requests)


def plots_in(dom: str) -> list[str]:
    return re.findall(r'<svg[^>]*role="img".*?</svg>', dom, flags=re.S)


def check_page(browser: str, page: Path, work: Path, verdict: str, min_plots: int) -> str:
    name = page.parent.name
    dom, console, requests = open_page(browser, page, work, name)
    assert console == [], console
    assert requests == [], requests
    shown = re.search(r'<p class="verdict" id="verdict">(.*?)</p>', dom, flags=re.S)
    assert shown and html.unescape(shown.group(1)) == verdict
    drawn = plots_in(dom)
    assert len(drawn) >= min_plots
    for svg in drawn:  # each plot has marks in it, and says what it shows
        marks = svg.count("<path") + svg.count("<use") + svg.count("<rect")  # rect: heatmap cells
        assert marks >= 3 and 'aria-label="' in svg
    return dom


def run(*args: str) -> None:
    with pytest.raises(SystemExit) as ended:
        main(list(args))
    assert ended.value.code == 0


def test_the_checks_catch_a_page_that_logs_or_reaches_out(browser, tmp_path):
    page = tmp_path / "bad.html"
    page.write_text(
        '<p>x</p><script>console.error("boom")</script><img src="https://example.org/a.png">'
    )
    _, console, requests = open_page(browser, page, tmp_path, "bad")
    assert any("boom" in line for line in console)
    assert requests == ["https://example.org/a.png"]


@pytest.mark.slow
def test_pages_of_an_audit_a_table_audit_and_a_mitigation(browser, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # The default audit (bundled model and comments, labels), with a CI gate drawn.
    run("audit", "--out", "text", "--fail-above", "50")
    report = AuditReport.read(tmp_path / "text" / "report.json")
    categories = len(report.counterfactual.group)
    dom = check_page(
        browser, tmp_path / "text" / "report.html", tmp_path, report.summary(), 1 + 2 * categories
    )
    assert "Label-based metrics" in dom and "<mark>" in dom
    assert (tmp_path / "text" / "report.html").stat().st_size < 2_000_000
    run("report", "text/report.json", "--html", "again.html")
    assert (tmp_path / "again.html").read_bytes() == (
        tmp_path / "text" / "report.html"
    ).read_bytes()
    # A table audit and a mitigation of a scikit-learn model of Adult rows.
    import pandas as pd
    from joblib import dump

    from textfair.models.baselines import logistic_regression

    frame = pd.read_csv(DATA / "adult_sample.csv")
    dump(
        logistic_regression(frame.drop(columns="income"), frame["income"], max_iter=300), "m.joblib"
    )
    table = ["--model", "sklearn:m.joblib", "--data", str(DATA / "adult_sample.csv")]
    table += ["--sensitive", "sex,race", "--label-column", "income", "--favorable", ">50K"]
    run("tabular", "audit", *table, "--out", "rows")
    rows = AuditReport.read(tmp_path / "rows" / "report.json")
    dom = check_page(browser, tmp_path / "rows" / "report.html", tmp_path, rows.summary(), 1)
    assert "Group metrics" in dom and "DI" in dom
    run("tabular", "mitigate", *table, "--out", "mitigated", "--max-rounds", "2")
    record = json.loads((tmp_path / "mitigated" / "mitigation.json").read_text())
    target = next(r for r in record["comparison"] if r["role"] == "target")
    verdict = (
        f"Status: {record['status']}; the top target {target['rule_set']} scored "
        f"{100 * target['before']['score']:.1f} points before and "
        f"{100 * target['after']['score']:.1f} after; held-out accuracy "
        f"{100 * record['held_out']['before']['accuracy']:.1f}% before, "
        f"{100 * record['held_out']['after']['accuracy']:.1f}% after."
    )
    check_page(browser, tmp_path / "mitigated" / "mitigation.html", tmp_path, verdict, 1)
    if os.environ.get("TEXTFAIR_SCREENSHOT_TO"):  # how the README's picture is made
        shutil.copy(tmp_path / "text.png", os.environ["TEXTFAIR_SCREENSHOT_TO"])


@pytest.mark.slow
def test_the_page_of_a_mitigation_comparison(browser, tmp_path, monkeypatch):
    """`tabular mitigate --methods` on German credit: the comparison page draws the trade-off
    plot, says comparison.json's verdict, and reaches for nothing."""
    import pandas as pd
    from joblib import dump

    from textfair.mitigate.compare import comparison_split
    from textfair.models.baselines import logistic_regression
    from textfair.report.comparison import comparison_verdict

    monkeypatch.chdir(tmp_path)
    german = ROOT / "examples" / "data" / "german.csv.gz"
    frame = pd.read_csv(german)
    train = frame.iloc[comparison_split(len(frame), 0.2, 0.2, 0).train]
    dump(logistic_regression(train.drop(columns="credit"), train["credit"]), "m.joblib")
    frame.to_csv("german.csv", index=False)
    run(
        "tabular", "mitigate", "--model", "sklearn:m.joblib", "--data", "german.csv",
        "--sensitive", "personal_status_sex,age", "--label-column", "credit",
        "--favorable", "1", "--out", "compared", "--methods", "reweighing,threshold-optimizer",
    )  # fmt: skip
    record = json.loads((tmp_path / "compared" / "comparison.json").read_text())
    assert [m["method"] for m in record["methods"]] == ["reweighing", "threshold-optimizer"]
    dom = check_page(
        browser, tmp_path / "compared" / "comparison.html", tmp_path, comparison_verdict(record), 1
    )
    assert "Pareto front" in dom and "threshold-optimizer" in dom
    markdown = (tmp_path / "compared" / "comparison.md").read_text()
    assert comparison_verdict(record) in markdown
    run("report", "compared/comparison.json", "--html", "again.html")  # rendered again
    assert (tmp_path / "again.html").read_bytes() == (
        tmp_path / "compared" / "comparison.html"
    ).read_bytes()
