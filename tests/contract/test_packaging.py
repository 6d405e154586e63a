"""The package list in pyproject.toml: every package under textfair/, and the top-level
term_lists/ installed as textfair.term_lists (the design card's layout)."""

import tomllib

from locations import ROOT


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


def test_build_metadata_names_versions_the_code_runs_on():
    """`license = "MIT"` (an SPDX string) is read by setuptools 77 and later only; the
    Python floor is the version CI tests, and ruff checks the code against that floor."""
    import re
    import sys

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (setuptools,) = [r for r in config["build-system"]["requires"] if r.startswith("setuptools")]
    floor = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools)
    assert floor and int(floor.group(1)) >= 77, setuptools
    assert isinstance(config["project"]["license"], str)
    python = re.fullmatch(r">=3\.(\d+)", config["project"]["requires-python"])
    assert python, config["project"]["requires-python"]
    assert config["tool"]["ruff"]["target-version"] == f"py3{python.group(1)}"
    assert sys.version_info >= (3, int(python.group(1)))


def test_no_generated_file_is_tracked():
    """Staging directories of an atomic write (.NAME.tmp-PID-...), caches and outputs of a
    run are never part of the repository."""
    import subprocess

    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.splitlines()
    generated = [
        path
        for path in tracked
        if ".tmp-" in path
        or path.endswith((".cache.sqlite", ".parquet", ".pyc"))
        or path.startswith(("examples/out/", ".venv"))
    ]
    assert generated == []
