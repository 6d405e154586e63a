"""The building blocks of textfair's report pages: one self-contained HTML document (inline
styles and a small sorting-and-filtering script), escaping, numbers and tables."""

from __future__ import annotations

import html

from textfair.report import _numbers as numbers

__all__ = ["band", "escape", "number", "page", "percent", "table"]

OPEN_ROWS = 15  # longer tables start folded

_STYLE = """
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:70rem;
margin:2rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:1px solid #ccc}
.verdict{font-size:1.1rem;background:#f3f6fa;border-left:4px solid #0072B2;padding:.6rem 1rem}
table{border-collapse:collapse;margin:.6rem 0;font-size:.9rem}
th,td{border-bottom:1px solid #ddd;padding:.25rem .6rem;text-align:left;vertical-align:top}
th{background:#f5f5f5;cursor:pointer}td.n{text-align:right;font-variant-numeric:tabular-nums}
.out{background:#fde0cc}mark{background:#ffe08a}.muted{color:#555}
input.filter{margin:.3rem 0;padding:.2rem .4rem;width:18rem}
figure{margin:1rem 0}figcaption{color:#444;font-size:.9rem}svg{max-width:100%;height:auto}
code{background:#f3f3f3;padding:0 .2rem}
"""

# Sort a table by a header click (numbers as numbers), filter its rows by a text box.
_SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function(table){
  table.querySelectorAll('th').forEach(function(th, column){
    th.setAttribute('tabindex','0');
    function sort(){
      var body=table.tBodies[0], rows=Array.from(body.rows);
      var up=th.getAttribute('aria-sort')!=='ascending';
      rows.sort(function(a,b){
        var x=a.cells[column].dataset.v||a.cells[column].textContent;
        var y=b.cells[column].dataset.v||b.cells[column].textContent;
        var nx=parseFloat(x), ny=parseFloat(y);
        var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);
        return up?c:-c;});
      rows.forEach(function(r){body.appendChild(r);});
      table.querySelectorAll('th').forEach(function(h){h.removeAttribute('aria-sort');});
      th.setAttribute('aria-sort',up?'ascending':'descending');}
    th.addEventListener('click',sort);
    th.addEventListener('keydown',function(e){if(e.key==='Enter'){sort();}});
  });
});
document.querySelectorAll('input.filter').forEach(function(input){
  var table=document.getElementById(input.dataset.table);
  input.addEventListener('input',function(){
    var q=input.value.toLowerCase();
    Array.from(table.tBodies[0].rows).forEach(function(r){
      r.hidden=q&&r.textContent.toLowerCase().indexOf(q)<0;});
  });
});
"""


def page(title: str, parts: list[str]) -> str:
    body = "\n".join(parts)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n<main>\n"
        f"{body}\n</main>\n<script>{_SCRIPT}</script>\n</body>\n</html>\n"
    )


def escape(value: object) -> str:
    return html.escape(str(value), quote=True)


def percent(value: float | None, signed: bool = False) -> str:
    """A fraction in points for a page cell ("–" for none); `signed`: as every surface
    writes a difference (`numbers.signed`)."""
    if value is None or value != value:
        return "–"
    return numbers.signed(value) if signed else f"{100 * value:.1f}"


def table(
    identifier: str, caption: str, headers: list[str], rows: list[list[tuple[str, str | None]]]
) -> str:
    """A sortable, filterable table; cells are (text, sort value or None); numbers right."""
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
    body = []
    for row in rows:
        cells = []
        for text, value in row:
            if value is None:
                cells.append(f"<td>{text}</td>")
            else:
                cells.append(f'<td class="n" data-v="{escape(value)}">{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    table = (
        f'<label>Filter <input class="filter" type="search" data-table="{identifier}" '
        f'aria-label="filter {escape(caption)}"></label>\n'
        f'<table class="sortable" id="{identifier}"><caption class="muted">{escape(caption)}'
        f"</caption>\n<thead><tr>{head}</tr></thead>\n<tbody>{''.join(body)}</tbody></table>"
    )
    if len(rows) > OPEN_ROWS:
        return f"<details><summary>All {len(rows)} rows</summary>\n{table}\n</details>"
    return table


def number(value: float | None, signed: bool = False) -> tuple[str, str]:
    text = percent(value, signed)
    return text, "" if value is None or text == "–" else f"{100 * value:.4f}"


def band(value: float, inside: bool, digits: int) -> tuple[str, str]:
    text = "–" if value != value else f"{value:.{digits}f}"
    mark = "" if inside else ' class="out"'
    return (f"<span{mark}>{text}</span>", "" if value != value else f"{value:.6f}")
