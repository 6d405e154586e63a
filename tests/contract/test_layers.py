"""The library's layers, checked by walking its imports (issue 28): the library never
imports the command line, which is a thin layer over it."""

import ast
from pathlib import Path

from documents import public_api_violations
from locations import ROOT

PACKAGE = ROOT / "textfair"


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_nodes(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """Every absolute import statement of a file, at the top or inside a function; not those
    under `if TYPE_CHECKING:`, which name a type for the checker and never run."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING"):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import) or (
            isinstance(node, ast.ImportFrom) and node.module and node.level == 0
        ):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _imports(path: Path) -> set[str]:
    """Every module a file imports (see `_import_nodes`)."""
    found = set()
    for node in _import_nodes(path):
        if isinstance(node, ast.ImportFrom):
            found.add(str(node.module))
        else:
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


def test_no_import_cycle_between_library_modules():
    """Imports at the top of a module and inside its functions alike: a cycle is a cycle
    whenever it is entered. (The report's renderers know AuditReport only as a type; its
    notebook methods call them.)"""
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
        for node in _import_nodes(path):
            if isinstance(node, ast.ImportFrom):
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
    assert cycles == []


# The layers, bottom up, as an allowed-imports matrix: each part of the library (a
# sub-package, or a module at the package's root) names the parts it may import. A part
# imports only parts below it; nothing below knows what is built on it. The same matrix is
# drawn on docs/pages/architecture.md.
_BASE = {"errors", "_version"}
_BELOW_AUDIT = _BASE | {
    "core",
    "io",
    "memory",
    "stats",
    "workers",
    "terms",
    "settings",
    "models",
    "text",
    "corpus",
    "tabular",
    "discovery",
    "report",
    "run",
    "predictions",
}
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "_version": set(),
    "core": {"errors"},
    "io": {"errors"},
    "memory": {"errors"},
    "stats": {"errors"},
    "run": {"errors"},
    "workers": {"errors", "core"},
    "terms": {"errors", "io"},
    "settings": {"errors", "core", "terms"},
    "models": {"errors", "core", "io", "workers"},
    "predictions": {"errors", "models"},
    "text": {"errors", "_version", "core", "io", "workers", "terms", "settings"},
    "corpus": {"errors", "io", "text"},
    "tabular": {"errors", "core", "io", "stats", "models", "corpus", "settings"},
    "discovery": {"errors", "core", "stats", "models", "settings"},
    "report": _BASE | {"core", "io", "stats", "settings", "terms", "discovery", "run"},
    "auditing": _BELOW_AUDIT,
    "mitigate": _BELOW_AUDIT | {"auditing"},
    "distributed": _BELOW_AUDIT | {"auditing", "mitigate"},
    "api": _BELOW_AUDIT | {"auditing", "mitigate", "distributed"},
    "cli": _BELOW_AUDIT | {"auditing", "mitigate", "distributed", "api"},
    "textfair": _BELOW_AUDIT | {"auditing", "mitigate", "distributed", "api"},
    "__main__": {"cli"},
}

# Arrows against the layers not yet removed (issue 46): each entry is "part -> part" and
# goes when its last import does. The test fails on any arrow not listed here, and on an
# entry that no import needs any more.
KNOWN_AGAINST: set[str] = set()


def _part(module: str) -> str:
    """The part of the library a module belongs to: its sub-package, or the root module."""
    parts = module.split(".")
    if len(parts) == 1:
        return "textfair"
    return parts[1]


def test_every_import_follows_the_layers():
    """No part imports a part above it (or beside it: the matrix lists what each may use)."""
    arrows: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        source = _module(path)
        for imported in _imports(path):
            if not imported.startswith("textfair.") and imported != "textfair":
                continue
            here, there = _part(source), _part(imported)
            if here == there or there in ALLOWED.get(here, set()):
                continue
            arrows.setdefault(f"{here} -> {there}", []).append(f"{source} imports {imported}")
    assert set(ALLOWED) >= {_part(_module(path)) for path in PACKAGE.rglob("*.py")}
    unexpected = {arrow: found for arrow, found in arrows.items() if arrow not in KNOWN_AGAINST}
    assert unexpected == {}
    assert KNOWN_AGAINST - set(arrows) == set(), "remove the entries no import needs"


EXAMPLES = PACKAGE.parent / "examples"


def test_examples_use_only_the_public_api():
    scripts = sorted(EXAMPLES.glob("*.py"))
    assert len(scripts) >= 6
    found = {path.name: public_api_violations(path.read_text(encoding="utf-8")) for path in scripts}
    assert {name: bad for name, bad in found.items() if bad} == {}
    # The check itself sees a deep import and an unexported name.
    assert public_api_violations("from textfair.auditing import audit_rows") == [
        "from textfair.auditing import ...",
        "textfair.audit_rows",
    ]
    assert public_api_violations("import textfair\ntextfair.Run") == ["textfair.Run"]


def test_the_public_names_are_plain_attributes_and_cheap_to_import():
    """Visible to a type checker and an IDE (no module __getattr__), and `import textfair`
    loads none of the heavy libraries: the functions import them when called."""
    import subprocess
    import sys

    code = (
        "import sys, textfair\n"
        "missing = [n for n in textfair.__all__ if n not in vars(textfair)]\n"
        "heavy = [m for m in ('pandas', 'scipy', 'torch', 'transformers', 'sklearn',"
        " 'matplotlib') if m in sys.modules]\n"
        "print(missing, heavy, hasattr(textfair, '__getattr__'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "[] [] False", done.stderr


def test_no_module_at_the_root_is_named_as_a_public_name():
    """Importing `textfair.x` sets the package's attribute `x` to that module: a sub-package
    named as a public function (an `audit/` beside `textfair.audit`) would replace the
    function once any of its modules is imported. (The audit layer is `auditing/`.)"""
    import textfair

    modules = {path.stem for path in PACKAGE.glob("*.py")}
    modules |= {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert modules & set(textfair.__all__) == set()


# Modules allowed past 450 lines, each with its reason on docs/pages/architecture.md.
LONG_MODULES = {"report/model.py"}


def test_one_job_per_module_and_the_long_ones_say_why():
    """No module of the library over 450 lines but those the architecture page names with
    their reason (at most three)."""
    long = {
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if len(path.read_text(encoding="utf-8").splitlines()) > 450
    }
    assert long <= LONG_MODULES and len(LONG_MODULES) <= 3
    page = (PACKAGE.parent / "docs" / "pages" / "architecture.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in page for name in LONG_MODULES)


def test_a_module_only_its_package_imports_is_private_and_stays_so():
    """Privacy is visible in the name: a module of a sub-package that nothing outside that
    package imports is `_`-prefixed, and a `_`-prefixed module is imported only from inside
    its package (its own tests aside). The public names a package offers come from its
    public modules or its `__init__`."""
    modules = {
        _module(path): path
        for path in PACKAGE.rglob("*.py")
        if len(path.relative_to(PACKAGE).parts) > 1 and path.name != "__init__.py"
    }
    users: dict[str, set[str]] = {name: set() for name in modules}
    for path in PACKAGE.rglob("*.py"):
        source = _module(path)
        for node in _import_nodes(path):
            targets = (
                [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
            )
            for target in targets:
                if target in users and target != source:
                    users[target].add(source)
    wrongly_public, wrongly_private = [], []
    for name, importers in users.items():
        package = name.rpartition(".")[0]
        outside = {u for u in importers if u != package and not u.startswith(package + ".")}
        private = name.rpartition(".")[2].startswith("_")
        if private and outside:
            wrongly_private.append(f"{name} imported by {sorted(outside)}")
        if not private and importers and not outside:
            wrongly_public.append(name)
    assert wrongly_private == []
    assert wrongly_public == []
