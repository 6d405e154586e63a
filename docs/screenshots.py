"""The report page's screenshots in the README and the docs, taken from today's default audit.

Run from the repository root: ``python docs/screenshots.py`` (needs Debian's ``chromium``).
It audits as ``textfair audit`` does with no options, writes the page to a temporary
directory, takes the two screenshots the docs show (``images/report-page.png``, the top of
the page at 1000 x 860; ``images/report-page-full.png``, 1280 x 2400) with headless
Chromium, and records beside them (``images/report-page.json``) the verdict they show.
``tests/documentation`` holds that record to what the default audit says today, so a
change that moves a figure makes the test fail until the screenshots are taken again.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

IMAGES = Path(__file__).resolve().parent / "pages" / "images"
RECORD = IMAGES / "report-page.json"
SHOTS = {"report-page.png": (1000, 860), "report-page-full.png": (1280, 2400)}
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars"]


def main() -> None:
    import textfair

    browser = next((path for name in BROWSERS if (path := shutil.which(name))), None)
    if browser is None:
        sys.exit("error: no Chromium found; install Debian's chromium (apt-get install chromium)")
    report = textfair.audit("toxicity-cnn-lstm")
    with tempfile.TemporaryDirectory() as scratch:
        page = Path(scratch) / "report.html"
        report.to_html(page)
        for name, (width, height) in SHOTS.items():
            subprocess.run(
                [browser, *FLAGS, f"--window-size={width},{height}",
                 f"--screenshot={IMAGES / name}", page.as_uri()],
                check=True,
                capture_output=True,
            )  # fmt: skip
    RECORD.write_text(
        json.dumps({"audit": "textfair audit (no options)", "summary": report.summary()}, indent=1)
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {', '.join(SHOTS)} and {RECORD.name} in {IMAGES}")


if __name__ == "__main__":
    main()
