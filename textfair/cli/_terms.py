"""`textfair terms list | show | validate | new`."""

from __future__ import annotations

from pathlib import Path

import typer

from textfair.cli._app import command, terms_app


@command(terms_app, "list")
def list_command() -> None:
    """List the built-in term lists."""
    from textfair.terms import builtin_term_lists

    # One block per list (its name whole on a line of its own, the words wrapped under it),
    # not a six-column table: at 80 columns or in a pipe a table cut the names short
    # ("names_ethni…"), and a name is what the user types next.
    typer.echo("\n\n".join(_list_block(name, kind) for name, kind in builtin_term_lists().items()))


def _list_block(name: str, kind: str) -> str:
    """One built-in list as `terms list` prints it: its name, kind and size, then its
    description and source wrapped to the terminal's width."""
    import shutil
    import textwrap

    from textfair.core.counts import counted
    from textfair.terms import load_gender_pairs, load_term_list

    if kind == "terms":
        term_list = load_term_list(name)
        size = (
            f"{counted(len(term_list.categories), 'category', 'categories')}, "
            f"{counted(len(term_list), 'term')}"
        )
        description, source = term_list.description, term_list.source
    else:
        pairs = load_gender_pairs(name)
        size, description, source = counted(len(pairs), "pair"), pairs.description, pairs.source
    width = max(40, min(shutil.get_terminal_size((80, 24)).columns, 100))
    wrap = textwrap.TextWrapper(width=width, initial_indent="  ", subsequent_indent="  ")
    lines = [f"{name} ({kind}: {size})", wrap.fill(description)]
    if source:
        lines.append(wrap.fill(f"source: {source}"))
    return "\n".join(lines)


@command(terms_app, "show")
def show_command(
    name: str = typer.Argument(..., help="A built-in list name or a .yaml/.csv file."),
) -> None:
    """Show every term of a list with its forms and flags."""
    from rich.console import Console
    from rich.table import Table

    from textfair.terms import BUILTIN_TERM_LISTS, load_gender_pairs, load_term_list

    console = Console()
    if BUILTIN_TERM_LISTS.get(name) == "pairs":
        pairs = load_gender_pairs(name)
        table = Table(title=f"{pairs.name}: {len(pairs)} pairs")
        for column in ("masculine", "feminine", "when"):
            table.add_column(column)
        for pair in pairs.pairs:
            table.add_row(pair.masculine, pair.feminine, pair.when or "")
        console.print(table)
        return
    term_list = load_term_list(name)
    console.print(f"[bold]{term_list.name}[/]: {term_list.description}")
    if term_list.source:
        console.print(f"source: {term_list.source}")
    if term_list.licence:
        console.print(f"licence: {term_list.licence}")
    for category, terms in term_list.categories.items():
        table = Table(title=f"{category} ({len(terms)} terms)")
        for column in ("term", "axis", "pos", "noun", "plural", "aliases", "article", "flags"):
            table.add_column(column)
        for term in terms:
            flags = [
                flag
                for flag in (
                    "person_context",
                    "nominal",
                    "surname",
                    "given_name",
                    "adult_only",
                    "attributive_only",
                )
                if getattr(term, flag)
            ]
            if term.cues or term.clashes:
                flags.append(f"{len(term.cues)} cues, {len(term.clashes)} clashes")
            flags += [f"{role}: {word}" for role, word in term.related]
            flags += list(term.flags)
            if term.gender:
                flags.append(f"gender: {term.gender}")
            aliases = ", ".join(term.aliases)
            if term.names:
                written = term.written_names
                aliases = (
                    f"{len(term.names)} first names; writes one of {len(written)}: "
                    f"{', '.join(written[:8])}, ..."
                )
            if term.members:
                aliases = (
                    f"{len(term.members)} members, each found as itself; writes one: "
                    f"{', '.join(m.text for m in term.members[:8])}, ..."
                )
            table.add_row(
                term.text,
                term.axis or "",
                term.pos,
                term.noun or "",
                ", ".join(term.plurals),
                aliases,
                term.article or "",
                ", ".join(flags),
            )
        console.print(table)


@command(terms_app, "validate")
def validate_command(
    file: Path = typer.Argument(
        ..., help="A term list: YAML (like dixon2018) or CSV category,term."
    ),
) -> None:
    """Check a term list file; print what it holds or the one problem to fix."""
    from textfair.terms import load_term_list

    term_list = load_term_list(file)
    from textfair.core.counts import counted

    typer.echo(
        f"ok: {file}: {counted(len(term_list.categories), 'category', 'categories')}, "
        f"{counted(len(term_list), 'term')}"
    )


@command(terms_app, "new")
def new_command(
    file: Path = typer.Argument(..., help="Where to write the template (.yaml)."),
) -> None:
    """Write a commented term-list template to FILE: the schema and an example to edit."""
    from textfair.errors import TextfairError
    from textfair.io import atomic_writer
    from textfair.terms.template import term_list_template

    if file.exists():
        raise TextfairError(f"{file} exists; choose a new file name for the template")
    if file.suffix.lower() not in (".yaml", ".yml"):
        raise TextfairError(f"{file}: a term list is YAML; give the file a .yaml name")
    with atomic_writer(file, replace=False) as handle:  # another run's file is kept
        handle.write(term_list_template(file.stem))
    typer.echo(f"wrote {file}; edit it, then: textfair terms validate {file}", err=True)
