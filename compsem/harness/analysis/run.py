"""``compsem subwords``: the subword analysis (:mod:`.subwords`) of saved runs, written as
``subwords.json``, ``subwords.md`` and a scatter plot ``subwords.svg`` into ``--out``."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from compsem.builders import BENCHMARKS
from compsem.files.bounded_read import read_json_lines
from compsem.harness.analysis.subwords import Item, analyse, markdown
from compsem.harness.data.benchmark import load_config
from compsem.harness.models.offline import public_name, resolve_model
from compsem.harness.report import svg
from compsem.harness.results.files import (
    ANALYSIS_MARKER,
    check_writable,
    json_text,
    read_result_files,
    rows_path,
    write_text,
)
from compsem.text.escape import markdown_text

KIND = "subwords"


def evaluated_rows(result_file: Path) -> list[tuple]:
    """``(row id, correct)`` of each row of a run's per-row file; for a curve, the rows of its
    largest training size (the fully trained models, every seed's)."""
    path = rows_path(result_file)
    if not path.is_file():
        raise ValueError(f"{result_file} has no per-row file {path.name} beside it; rerun it")
    rows = []
    for number, row in enumerate(read_json_lines(path, "rows"), 1):  # bounded, chunked
        try:
            rows.append((row.get("shots"), row["id"], row["label"] == row["prediction"]))
        except (KeyError, TypeError, AttributeError):
            raise ValueError(
                f"{path} line {number} is not a row with id, label and prediction; rerun the run "
                "or pass another result"
            ) from None
    largest = max((shots for shots, _, _ in rows if shots is not None), default=None)
    return [(row_id, correct) for shots, row_id, correct in rows if shots == largest]


def _tokenizer(name: str):
    from transformers import AutoTokenizer  # deferred: torch and transformers are heavy

    tokenizer = AutoTokenizer.from_pretrained(resolve_model(name))
    return tokenizer.tokenize


def run_subwords(
    results: Sequence[Path],
    out: Path,
    words: Sequence[str] | None = None,
    by: str | None = None,
    tokenizer: str | None = None,
) -> dict:
    """Analyse the runs in ``results`` (result files or run folders): the items' ``words``
    columns (the first is the modifier) grouped by the column ``by``, both by default what the
    runs' benchmark declares in its spec (``subword_analysis``), tokenised by
    ``tokenizer`` (default: the runs' model, which must then be one)."""
    found = read_result_files(results)
    runs, sources = found.results, found.sources
    if not runs:
        raise ValueError(f"no result files of runs under {', '.join(map(str, results))}")
    models = sorted({run["model"] for run in runs})
    if tokenizer is None and len(models) > 1:
        raise ValueError(
            f"the runs are of {len(models)} models ({', '.join(models)}): analyse one model's "
            "runs at a time, or name the tokenizer with --tokenizer"
        )
    tokenizer = tokenizer or models[0]
    out = Path(out)
    files = [out / f"{KIND}.json", out / f"{KIND}.md", out / f"{KIND}.svg"]
    check_writable(files)  # before any model or data is loaded
    loaded: dict[tuple, object] = {}  # each config loaded once, whatever its runs
    splits = [
        _evaluated_split(run, source, loaded) for run, source in zip(runs, sources, strict=True)
    ]
    # The card's benchmark, else the preset the harness read the config as (as the page files
    # runs under it).
    benchmark = splits[0][1].get("benchmark") or runs[0]["dataset"].get("preset")
    if words is None or by is None:
        declared = BENCHMARKS[benchmark].subword_analysis if benchmark in BENCHMARKS else None
        if declared is None:
            raise ValueError(
                f"{benchmark or 'this dataset'} declares no subword analysis; name the word "
                "columns with --words and the grouping column with --by"
            )
        words, by = words or declared.words, by or declared.by
    by_config: dict[str, list[Item]] = defaultdict(list)
    for (split, _, config), source in zip(splits, sources, strict=True):
        by_config[config].extend(_items(split, config, source, words, by))
    analysis = {
        ANALYSIS_MARKER: 1,
        "analysis": KIND,
        "benchmark": benchmark,
        # the published name of an offline model, not its folder on this machine
        "tokenizer": public_name(tokenizer) or tokenizer,
        "words": list(words),
        "by": by,
        "runs": len(runs),
        **analyse(by_config, _tokenizer(tokenizer), words[0]),
    }
    contents = {
        files[0]: json_text(analysis),
        files[1]: f"# Subword analysis · {markdown_text(analysis['tokenizer'])}\n\n"
        + markdown(analysis),
        files[2]: scatter(analysis),
    }
    for path, text in contents.items():
        write_text(path, text)
    return analysis


def _evaluated_split(run: dict, source: str, cache: dict):
    """The split a run evaluated, as the export holds it now (which must be the data the run
    read), the export's card and the config's name; ``cache`` keeps each config loaded."""
    data = run["dataset"]
    key = (data["path"], data["config"], data["revision"])
    if key not in cache:
        cache[key] = load_config(*key)
    loaded = cache[key]
    if loaded.fingerprint != data["fingerprint"]:
        raise ValueError(
            f"{source}: the export's {data['config']} changed since this run (fingerprint "
            f"{loaded.fingerprint} ≠ {data['fingerprint']}); rerun it on the current export"
        )
    return loaded.splits[data["split"]], loaded.card, data["config"]


def _items(split, config: str, source: str, words: Sequence[str], by: str) -> list[Item]:
    """The evaluated rows of one run as items: group, words and whether the run was right."""
    missing = [column for column in (*words, by) if column not in split.column_names]
    if missing:
        raise ValueError(
            f"{config} has no column {', '.join(missing)}; choose --words and --by among "
            f"{', '.join(split.column_names)}"
        )
    ids = split["id"] if "id" in split.column_names else range(len(split))
    index = {row_id: i for i, row_id in enumerate(ids)}
    table = split.select_columns([*dict.fromkeys((*words, by))]).to_list()  # one read
    items = []
    for row_id, correct in evaluated_rows(Path(source)):
        if row_id not in index:
            raise ValueError(
                f"{source}: row {row_id!r} is not in {config}; the per-row file belongs to "
                "another export"
            )
        row = table[index[row_id]]
        items.append(Item(str(row[by]), {column: row[column] for column in words}, correct))
    return items


def scatter(analysis: dict) -> str:
    """Accuracy against the share of items with a split word, one point per config and a
    least-squares line per group (the paper's Figs. 2 and 3)."""
    series = []
    for group, fit in analysis["fits"].items():
        points = [p for p in analysis["points"] if p["group"] == group]
        series.append(
            {
                "name": f"{analysis['by']} {group}",
                "x": [p["with_subwords"] for p in points],
                "y": [p["accuracy"] for p in points],
                "fit": None if fit is None else (fit["slope"], fit["intercept"]),
            }
        )
    return svg.scatter(
        f"Subword analysis · {analysis['tokenizer']}",
        series,
        "share of items with a word split into subwords",
        "accuracy",
    )
