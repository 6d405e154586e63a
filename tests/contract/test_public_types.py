"""Every type the public API hands a user is itself public (issue 46): what a function of
``textfair.__all__`` returns, what a public class's methods and properties return, and the
types of a returned dataclass's fields, followed all the way down (a report's findings, a
finding's interval, ...), are exported by ``textfair`` and so documented on the API page."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
import sys

import textfair

# Names that appear in annotations but are not textfair's own types.
_WORD = re.compile(r"\b[A-Z]\w*\b")


def _textfair_classes() -> dict[str, list[type]]:
    """Every class defined in a textfair module, by name."""
    for info in pkgutil.walk_packages(textfair.__path__, "textfair."):
        if ".cli" not in info.name and "__main__" not in info.name:
            importlib.import_module(info.name)
    found: dict[str, list[type]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("textfair.") or module is None:
            continue
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == name:
                found.setdefault(value.__name__, []).append(value)
    return found


def _annotations(obj: object) -> list[tuple[str, str]]:
    """(where, annotation as written) for a public function's return, a class's public
    methods' and properties' returns and its dataclass fields."""
    out = []
    if inspect.isclass(obj):
        if dataclasses.is_dataclass(obj):
            out += [(f"{obj.__name__}.{f.name}", str(f.type)) for f in dataclasses.fields(obj)]
        for name, member in vars(obj).items():
            if name.startswith("_"):
                continue
            if isinstance(member, property):
                member = member.fget
            if isinstance(member, (classmethod, staticmethod)):
                member = member.__func__
            if inspect.isfunction(member):
                out.append(
                    (f"{obj.__name__}.{name}", str(member.__annotations__.get("return", "")))
                )
    elif inspect.isfunction(obj):
        out.append((obj.__name__, str(obj.__annotations__.get("return", ""))))
    return out


def _handed_out() -> dict[str, set[str]]:
    """Each textfair class a user can receive from the public API, with where from."""
    classes = _textfair_classes()
    seen: dict[str, set[str]] = {}
    todo = [getattr(textfair, name) for name in textfair.__all__]
    done: set[int] = set()
    while todo:
        obj = todo.pop()
        if id(obj) in done:
            continue
        done.add(id(obj))
        module = sys.modules.get(getattr(obj, "__module__", ""), None)
        for where, annotation in _annotations(obj):
            for word in _WORD.findall(annotation):
                named = module is not None and hasattr(module, word)
                target = getattr(module, word) if named else None
                if not named:  # a name imported for the type checker only: by its name
                    candidates = classes.get(word, [])
                    target = candidates[0] if len(candidates) == 1 else None
                if not (inspect.isclass(target) and target.__module__.startswith("textfair")):
                    continue  # a type alias (a Literal), a library's type
                if target is None or target.__name__.startswith("_"):
                    continue
                seen.setdefault(target.__name__, set()).add(where)
                todo.append(target)
    return seen


def test_every_type_the_public_api_returns_is_exported():
    handed_out = _handed_out()
    assert {"AuditReport", "Variant"} <= set(handed_out) | set(textfair.__all__)
    missing = {
        name: sorted(where)[:3]
        for name, where in handed_out.items()
        if name not in textfair.__all__
    }
    assert missing == {}
