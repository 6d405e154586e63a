"""The library's layers, checked by walking its imports (issue 28): the library never
imports the command line, which is a thin layer over it."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "textfair"


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


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


# The one cycle left, for issue 28 to remove: AuditReport's notebook methods (save, to_html,
# the Jupyter views) call the renderers, which read AuditReport.
KNOWN_CYCLES = [{"textfair.report.html", "textfair.report.model", "textfair.report.render"}]


def test_no_import_cycle_between_library_modules():
    """Imports at the top of a module and inside its functions alike: a cycle is a cycle
    whenever it is entered."""
    modules = {
        _module(path): path
        for path in PACKAGE.rglob("*.py")
        if "cli" not in path.relative_to(PACKAGE).parts and path.name != "__main__.py"
    }
    edges = {name: set() for name in modules}
    for name, path in modules.items():
        for imported in _imports(path):
            # "from textfair.text import context" names a module; so does the plain import.
            for target in (imported, imported.rpartition(".")[0]):
                if target in modules and target not in (name, "textfair"):
                    edges[name].add(target)
                    break
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    if target in modules and target != name:
                        edges[name].add(target)

    def reachable(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reach = {name: reachable(name) for name in modules}
    cycles = []
    for name in sorted(modules):
        members = {name} | {other for other in reach[name] if name in reach[other]}
        if name in reach[name] and members not in cycles:
            cycles.append(members)
    assert cycles == KNOWN_CYCLES
