"""The package list in pyproject.toml: every package under textfair/, and the top-level
term_lists/ installed as textfair.term_lists (the design card's layout)."""

from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_lists_every_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "textfair").rglob("__init__.py")
    }
    data_packages = {"textfair.datasets", "textfair.bundled_models", "textfair.term_lists"}
    assert set(config["packages"]) == on_disk | data_packages
    assert config["package-dir"] == {"textfair.term_lists": "term_lists"}


def test_term_lists_are_the_top_level_folder():
    from textfair.terms import shipped_text

    assert not (ROOT / "textfair" / "term_lists").exists()
    # The installed copy (editable or not) or the checkout's: the same text.
    assert shipped_text("dixon2018.yaml") == (ROOT / "term_lists" / "dixon2018.yaml").read_text()
