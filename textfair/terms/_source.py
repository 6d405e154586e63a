"""Where a term list comes from, and the line of each of its entries, for error messages."""

from __future__ import annotations

from dataclasses import dataclass, field

from textfair.errors import TextfairError

__all__ = ["Source"]


@dataclass
class Source:
    """Where a list comes from, for error messages that name the file and the line."""

    label: str
    text: str = field(repr=False)
    lines: dict[tuple, int] = field(default_factory=dict, repr=False)

    def error(self, message: str, *path: object) -> TextfairError:
        """`message` about the YAML node at `path` ("categories", category, index, key):
        prefixed with the file and, when the node is found, its line."""
        if not self.lines and self.text:
            self.lines = _yaml_lines(self.text) or {(): 0}
        line = next(
            (self.lines[path[:n]] for n in range(len(path), 0, -1) if path[:n] in self.lines),
            None,
        )
        where = f"{self.label}, line {line}" if line else self.label
        return TextfairError(f"{where}: {message}")


def _yaml_lines(text: str) -> dict[tuple, int]:
    """The line of every node of a YAML document, by its path of keys and indexes (a key's
    own line for a mapping entry); {} when the text is not YAML."""
    import yaml

    try:
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return {}
    lines: dict[tuple, int] = {}
    stack: list[tuple[yaml.Node, tuple]] = [(root, ())] if root is not None else []
    while stack:
        node, path = stack.pop()
        lines.setdefault(path, node.start_mark.line + 1)
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                lines[(*path, key.value)] = key.start_mark.line + 1
                stack.append((value, (*path, key.value)))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, (*path, index)) for index, item in enumerate(node.value))
    return lines
