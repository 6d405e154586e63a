"""The library's layers, checked by walking its imports (issue 28): the library never
imports the command line, which is a thin layer over it."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "textfair"


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_library_never_imports_the_cli():
    library = [
        path
        for path in PACKAGE.rglob("*.py")
        if "cli" not in path.relative_to(PACKAGE).parts and path.name != "__main__.py"
    ]
    assert len(library) > 40
    upward = {
        str(path.relative_to(PACKAGE)): sorted(
            m for m in _imports(path) if m.startswith("textfair.cli")
        )
        for path in library
    }
    assert {path: found for path, found in upward.items() if found} == {}
