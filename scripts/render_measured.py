"""Render every measured figure of README.md and docs/ from its record in perf/measured/records/.

A figure is never typed into the Markdown: it lives in a record (a JSON file) that says which
command measured it, on what machine, when and on which benchmark versions, and this script
writes it into the marked block that quotes it:

    <!-- measured:demo -->
    ...what the record renders...
    <!-- /measured:demo -->

A block is named by its record (the file's stem) and, where a record is quoted in more than one
way, a view (``measured:demo:detail``). A record turns its ``figures`` into Markdown with a
``template`` (a string, a list of lines, or one of each per view, formatted with the figures and
the record's own fields; ``{seconds:duration}`` writes ``32 min 56 s``) or a named ``renderer``
(``table``, ``headline``, ``rows``). A record measured on an older version of a benchmark than
the registry's is labelled as such wherever it is rendered.

    python scripts/render_measured.py           # rewrite every block
    python scripts/render_measured.py --check   # exit 1 naming each block that is out of date
"""

from __future__ import annotations

import argparse
import json
import re
import string
import sys
from pathlib import Path

from compsem.builders import BENCHMARKS

ROOT = Path(__file__).resolve().parent.parent
RECORDS = Path("perf/measured/records")
REQUIRED = ("command", "machine", "date", "versions", "figures")
BLOCK = re.compile(
    r"^<!-- measured:(?P<name>[\w-]+(?::[\w-]+)?) -->\n(?P<body>.*?)^<!-- /measured:(?P=name) -->",
    re.DOTALL | re.MULTILINE,
)


class RecordError(ValueError):
    """A record that cannot be rendered: the message names the record and what is wrong."""


def load_records(root: Path = ROOT) -> dict[str, dict]:
    """Every record by name (its file's stem), each checked for the fields it must have."""
    records = {}
    for path in sorted((root / RECORDS).glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        missing = [field for field in REQUIRED if field not in record]
        if "template" not in record and "renderer" not in record:
            missing.append("template or renderer")
        if missing:
            raise RecordError(f"{RECORDS / path.name} lacks {', '.join(missing)}")
        records[path.stem] = record
    return records


def duration(seconds: float) -> str:
    """``1976`` -> ``32 min 56 s``; under a minute, ``9 s``."""
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


class _Figures(string.Formatter):
    def format_field(self, value, format_spec):
        if format_spec == "duration":
            return duration(value)
        return super().format_field(value, format_spec)


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def stale_label(record: dict) -> str:
    """'Measured on PLANE 3.2.0; the current version is 3.3.0.' for each benchmark the record
    measured at an older version than the registry's, or '' where it is current."""
    old = []
    for name, measured in record["versions"].items():
        spec = BENCHMARKS.get(name)
        if spec is not None and _version_key(measured) < _version_key(spec.version):
            old.append((f"{spec.title.split(',')[0]} {measured}", spec.version))
    if not old:
        return ""
    if len(old) == 1:
        return f"*Measured on {old[0][0]}; the current version is {old[0][1]}.*"
    measured = ", ".join(m for m, _ in old[:-1]) + f" and {old[-1][0]}"
    current = ", ".join(c for _, c in old[:-1]) + f" and {old[-1][1]}"
    return f"*Measured on {measured}; the current versions are {current}.*"


def _template(record: dict, view: str | None) -> str:
    template = record["template"]
    if isinstance(template, dict):
        template = template[view or "default"]
    elif view is not None:
        raise KeyError(f"no view {view!r}")
    return "\n".join(template) if isinstance(template, list) else template


def _fill(text: str, record: dict) -> str:
    """``text`` formatted with the record's fields, its figures and, where the record names a
    ``file`` of perf/measured/ (a script's JSON output), that file's content as ``measured``."""
    fields = {key: value for key, value in record.items() if key != "figures"}
    if "file" in record:
        fields["measured"] = json.loads((ROOT / record["file"]).read_text(encoding="utf-8"))
    return _Figures().vformat(text, (), {**fields, **record["figures"]})


NUMBER = re.compile(r"[\d.,±%–×\s-]+")


def _table(columns: list[str], rows: list[list]) -> list[str]:
    """A Markdown table; a column whose every cell is a number is aligned right."""
    align = [
        "---:" if all(NUMBER.fullmatch(str(row[i])) for row in rows) else "---"
        for i in range(len(columns))
    ]
    return [
        "| " + " | ".join(columns) + " |",
        "|" + "|".join(align) + "|",
        *("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows),
    ]


def render_table(record: dict, records: dict, view: str | None) -> str:
    """A leaderboard as `compsem report` prints it: ``figures.columns``, ``figures.rows``, then
    each of ``figures.notes`` as a paragraph."""
    figures = record["figures"]
    lines = _table(figures["columns"], figures["rows"])
    for note in figures.get("notes", []):
        lines += ["", note]
    return "\n".join(lines)


def render_headline(record: dict, records: dict, view: str | None) -> str:
    """One line per benchmark, picked from the leaderboard records (never copied): the row of
    ``record`` whose cells match ``match``, its ``metric`` beside the same rows' majority."""
    rows, versions = [], {}
    for pick in record["figures"]["lines"]:
        board = records[pick["record"]]
        versions.update(board["versions"])
        columns = board["figures"]["columns"]
        found = [
            row
            for row in board["figures"]["rows"]
            if all(row[columns.index(key)] == value for key, value in pick["match"].items())
        ]
        if len(found) != 1:
            raise RecordError(f"{pick['record']}: {len(found)} rows match {pick['match']}")
        row = dict(zip(columns, found[0], strict=True))
        version = board["versions"][pick["benchmark"]]
        rows.append(
            [
                f"{BENCHMARKS[pick['benchmark']].title.split(',')[0]} {version}",
                pick["what"],
                row["n rows"],
                pick["metric"],
                row[pick["metric"]],
                row.get(pick.get("against", "majority"), "–"),
            ]
        )
    columns = ["benchmark", "model, config", "rows", "metric", "score", "majority"]
    label = stale_label({"versions": versions})
    return "\n".join(_table(columns, rows) + (["", label] if label else []))


def render_rows(record: dict, records: dict, view: str | None) -> str:
    """A table whose last cell in each row is another record's rendering (a speed table: one
    record per script, each with its own machine, date and versions)."""
    figures = record["figures"]
    rows = []
    for row in figures["rows"]:
        cell = render_record(records[row["record"]], records, None, inline=True)
        rows.append([*row["cells"], cell])
    return "\n".join(_table(figures["columns"], rows))


RENDERERS = {"table": render_table, "headline": render_headline, "rows": render_rows}


def render_record(record: dict, records: dict, view: str | None, inline: bool = False) -> str:
    """The Markdown of one block (or, ``inline``, of one table cell), with its stale label."""
    if "renderer" in record and view is None:
        text = RENDERERS[record["renderer"]](record, records, view)
    else:
        text = _fill(_template(record, view), record)
    label = stale_label(record)
    if label:
        text = f"{text} {label}" if inline else f"{text}\n\n{label}"
    return text


def markdown_files(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def rendered(text: str, records: dict, where: str) -> tuple[str, list[str]]:
    """``text`` with each block rendered afresh, and the names of the blocks that changed."""
    changed = []

    def block(match: re.Match) -> str:
        name, _, view = match["name"].partition(":")
        if name not in records:
            raise RecordError(f"{where}: block {match['name']} has no record {RECORDS / name}.json")
        try:
            body = render_record(records[name], records, view or None)
        except (KeyError, IndexError) as error:
            raise RecordError(f"{where}: block {match['name']} cannot render: {error!r}") from None
        body += "\n"
        if body != match["body"]:
            changed.append(f"{where}: {match['name']}")
        return f"<!-- measured:{match['name']} -->\n{body}<!-- /measured:{match['name']} -->"

    return BLOCK.sub(block, text), changed


def check(root: Path = ROOT) -> list[str]:
    """The blocks of README.md and docs/*.md that differ from what their records render."""
    records = load_records(root)
    stale = []
    for path in markdown_files(root):
        stale += rendered(path.read_text(encoding="utf-8"), records, path.name)[1]
    return stale


def render(root: Path = ROOT) -> list[str]:
    """Rewrite every block of README.md and docs/*.md; the names of those that changed."""
    records = load_records(root)
    changed = []
    for path in markdown_files(root):
        text, names = rendered(path.read_text(encoding="utf-8"), records, path.name)
        if names:
            path.write_text(text, encoding="utf-8")
            changed += names
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    if args.check:
        stale = check()
        for name in stale:
            print(f"out of date: {name}")
        return 1 if stale else 0
    for name in render():
        print(f"rendered: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
