"""The documentation as tests read it: README.md, then the site's pages in the order of
docs/mkdocs.yml's `nav` (the order a reader follows, and the one the commands run in, since
an earlier page makes files a later one reads)."""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CONFIG = ROOT / "docs" / "mkdocs.yml"
PAGES = ROOT / "docs" / "pages"


def nav_pages() -> list[Path]:
    """Every page named in the site's navigation, in order."""
    config = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))

    def walk(entries) -> list[str]:
        found = []
        for entry in entries:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            found += walk(value) if isinstance(value, list) else [value]
        return found

    return [PAGES / name for name in walk(config["nav"])]


def documents() -> list[Path]:
    """README.md and every page of the site, in reading order."""
    return [README, *nav_pages()]


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def public_api_violations(source: str) -> list[str]:
    """What a piece of code takes from textfair beyond its public API (`textfair.__all__`):
    a submodule import, or a name textfair does not export."""
    import textfair

    public = set(textfair.__all__)
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textfair"):
            if node.module != "textfair":
                found.append(f"from {node.module} import ...")
            found += [f"textfair.{a.name}" for a in node.names if a.name not in public]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("textfair.")]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "textfair"
            and node.attr not in public
        ):
            found.append(f"textfair.{node.attr}")
    return found
