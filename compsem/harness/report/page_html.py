"""The results page's Markdown as one self-contained HTML file: CSS and a few lines of script
(sortable tables) inline, plots as inline SVG, nothing fetched from the network, so the file works
from a file path or any static host.

It renders the subset of Markdown that ``report_page`` writes (headings, tables, lists,
paragraphs, links, code, bold, images of the page's own SVG plots, ``<a id>`` anchors); anything
else is shown as text, escaped."""

from __future__ import annotations

import re
from html import escape, unescape

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2329;
margin:0;background:#f6f7f9}
main{max-width:1280px;margin:0 auto;padding:18px 28px 60px;background:#fff;min-height:100vh}
h1{font-size:26px;margin:8px 0 4px}h2{font-size:21px;margin:34px 0 8px;padding-top:10px;
border-top:3px solid #1f6feb}h3{font-size:16px;margin:22px 0 6px}h4{font-size:14px;margin:16px 0 4px}
a{color:#0b5cd5;text-decoration:none}a:hover{text-decoration:underline}
.scroll{overflow-x:auto;margin:6px 0 10px}
table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums}
th,td{padding:4px 9px;border-bottom:1px solid #e3e6ea;text-align:left;white-space:nowrap}
td:not(.num){white-space:normal;min-width:6em}
th{background:#eef2f7;position:sticky;top:0;cursor:pointer;user-select:none;
white-space:normal;max-width:240px;vertical-align:bottom}
th.num,td.num{text-align:right}tbody tr:nth-child(even){background:#fafbfc}
tbody tr:hover{background:#eef6ff}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:#f1f3f5;padding:1px 4px;
border-radius:3px;white-space:pre-wrap;word-break:break-all}
.plots{display:flex;flex-wrap:wrap;gap:12px;margin:8px 0}
figure{margin:0;border:1px solid #e3e6ea;border-radius:6px;padding:4px;background:#fff}
ul{padding-left:20px}li{margin:3px 0}
"""
# Click a column heading to sort by it (numbers by value, the rest as text); again to reverse.
SCRIPT = """
document.querySelectorAll("table").forEach(function(table){
  table.querySelectorAll("th").forEach(function(th,column){
    th.addEventListener("click",function(){
      var body=table.tBodies[0],rows=Array.from(body.rows),up=th.dataset.up!=="1";
      var key=function(row){var t=row.cells[column].textContent.trim(),n=parseFloat(t);
        return isNaN(n)?t:n;};
      rows.sort(function(a,b){var x=key(a),y=key(b);
        return (x<y?-1:x>y?1:0)*(up?1:-1);});
      th.dataset.up=up?"1":"0";rows.forEach(function(row){body.appendChild(row);});
    });
  });
});
"""
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)")
_IMAGE = re.compile(r"^!\[([^\]]*)\]\(plots/([\w.\-]+\.svg)\)$")
_ANCHOR = re.compile(r'^<a id="([\w\-]+)"></a>')


def _text(markdown: str) -> str:
    """Markdown text as HTML text: character references (``compsem.text.escape``) read as
    their characters, then everything escaped."""
    return escape(unescape(markdown), quote=False)


def _around(pattern: re.Pattern, markdown: str, outside, matched) -> str:
    """``matched(match)`` for each match of ``pattern``, ``outside(text)`` for the text between."""
    parts, start = [], 0
    for match in pattern.finditer(markdown):
        parts += [outside(markdown[start : match.start()]), matched(match)]
        start = match.end()
    return "".join(parts) + outside(markdown[start:])


def _bold(markdown: str) -> str:
    return _around(_BOLD, markdown, _text, lambda match: f"<strong>{_text(match[1])}</strong>")


def _link(match: re.Match) -> str:
    return f'<a href="{escape(unescape(match[2]), quote=True)}">{_bold(match[1])}</a>'


def _code(match: re.Match) -> str:
    code = match[2]
    if len(code) > 1 and code.startswith(" ") and code.endswith(" "):
        code = code[1:-1]  # the padding a fence of several backticks takes
    return f"<code>{escape(code)}</code>"


def inline(text: str) -> str:
    """Escaped text with `code` (any fence of backticks), [links](href) and **bold**."""
    return _around(_CODE, text, lambda part: _around(_LINK, part, _bold, _link), _code)


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def table(lines: list[str]) -> str:
    header, align, body = _cells(lines[0]), _cells(lines[1]), [_cells(x) for x in lines[2:]]
    numeric = [cell.endswith(":") for cell in align]

    def row(cells, tag):
        return (
            "<tr>"
            + "".join(
                f"<{tag}{' class=num' if i < len(numeric) and numeric[i] else ''}>{inline(cell)}</{tag}>"
                for i, cell in enumerate(cells)
            )
            + "</tr>"
        )

    rows = "".join(row(cells, "td") for cells in body)
    return f'<div class="scroll"><table><thead>{row(header, "th")}</thead><tbody>{rows}</tbody></table></div>'


def blocks(markdown: str) -> list[list[str]]:
    """Paragraph blocks: runs of non-empty lines."""
    found, current = [], []
    for line in markdown.splitlines():
        if line.strip():
            current.append(line)
        elif current:
            found.append(current)
            current = []
    return found + ([current] if current else [])


def render(markdown: str, plots: dict[str, str], title: str) -> str:
    body, figures = [], []

    def flush():
        if figures:
            body.append('<div class="plots">' + "".join(figures) + "</div>")
            figures.clear()

    for block in blocks(markdown):
        image = _IMAGE.match(block[0]) if len(block) == 1 else None
        if image and image.group(2) in plots:
            figures.append(f"<figure>{plots[image.group(2)]}</figure>")
            continue
        flush()
        first = block[0]
        anchor = _ANCHOR.match(first)
        if anchor:
            body.append(f'<a id="{anchor.group(1)}"></a>')
            first = first[anchor.end() :]
            if not first.strip():
                continue
            block = [first, *block[1:]]
        heading = re.match(r"^(#{1,4}) (.*)$", first)
        if heading and len(block) == 1:
            level = len(heading.group(1))
            body.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif all(line.startswith("|") for line in block) and len(block) >= 2:
            body.append(table(block))
        elif all(line.startswith("- ") for line in block):
            body.append("<ul>" + "".join(f"<li>{inline(x[2:])}</li>" for x in block) + "</ul>")
        else:
            body.append(f"<p>{inline(' '.join(block))}</p>")
    flush()
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body><main>"
        + "\n".join(body)
        + f"</main><script>{SCRIPT}</script></body></html>\n"
    )
