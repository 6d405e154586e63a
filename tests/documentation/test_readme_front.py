"""The README's first screen is what a new user reads (issue 29, friction 3: the quickstart
wrote variants instead of auditing, the CPU note came after the install line, nothing said
textfair installs from a clone, and the test line started a 30-minute suite)."""

import re

from locations import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
FRONT = README[: README.index("## What it reports")]


def _quickstart() -> list[str]:
    block = re.search(r"<!-- quickstart[^>]*-->\n```bash\n(.*?)```", FRONT, re.S)
    assert block, "no quickstart block on the first screen"
    return block[1].strip().splitlines()


def test_the_first_screen_installs_from_a_clone_with_the_cpu_note_first_and_audits():
    install, tests = _quickstart()
    assert "clone" in FRONT[: FRONT.index("<!-- quickstart")]
    assert "CPU" in FRONT[: FRONT.index("<!-- quickstart")]  # before the install line
    assert install.startswith('pip install "torch==2.13.0"')
    assert install.endswith("textfair audit --out report/")
    assert tests == "python -m pytest"  # the fast tier (pyproject's addopts), second


def test_the_first_screen_shows_the_page_and_how_to_read_the_verdict():
    images = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", FRONT)
    assert len(images) == 1 and (ROOT / images[0]).is_file()
    assert "**Reading the verdict.**" in FRONT
    assert "non-toxic" in FRONT and "points" in FRONT


def test_the_readme_is_a_landing_page_and_every_page_is_in_the_site():
    """At most ~200 lines (issue 28): the guide lives in docs/pages/, each page in the
    site's navigation and linked from the README."""
    from documents import PAGES, nav_pages

    assert len(README.splitlines()) <= 200
    pages = sorted(PAGES.glob("*.md"))
    assert sorted(nav_pages()) == pages
    linked = set(re.findall(r"\(docs/pages/([\w-]+\.md)\)", README))
    assert linked == {p.name for p in pages} - {"index.md", "changelog.md"}


def test_getting_started_shows_the_quickstart_ci_runs():
    """CI runs the README's two quickstart lines as written; the guide's first page shows
    the same two lines, so it cannot drift from what is tested."""
    page = (ROOT / "docs" / "pages" / "getting-started.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- quickstart[^>]*-->\n```bash\n(.*?)```", page, re.S)
    assert block and block[1].strip().splitlines() == _quickstart()
