"""``compsem rescore ROWS --out DIR [--parser NAME]``: a generation run's result recomputed from
its saved rows, without a model: every raw output parsed again (by the run's parser, or another
one), then scored as the run scored it. With the same parser the numbers are the run's own.

The rows file is ``<result>.rows.jsonl``; the result JSON beside it gives the run's settings,
model and dataset, which the new result keeps, recording what was re-parsed and from where.
"""

from __future__ import annotations

from pathlib import Path

from compsem.benchmark.answers import check_parser
from compsem.files.bounded_read import read_json
from compsem.harness.llm.gen_scores import (
    generation_scores,
    parse_rows,
    read_rows,
    write_generation,
)
from compsem.harness.results.files import check_writable, result_files, validate_result


def source_result(rows: Path) -> dict:
    """The result the rows file belongs to (``<result>.json`` beside it)."""
    path = Path(rows)
    name = path.name.removesuffix(".rows.jsonl")
    if name == path.name:
        raise ValueError(f"{path} is not a rows file (<result>.rows.jsonl of compsem llm)")
    result_path = path.with_name(name + ".json")
    if not result_path.exists():
        raise ValueError(
            f"no result {result_path} beside the rows: rescore needs the run's result file too"
        )
    result = read_json(result_path, "result")  # a regular file, bounded; one ValueError if not
    validate_result(result, str(result_path))
    if not result["settings"].get("generate"):
        raise ValueError(
            f"{result_path} is a log-likelihood run: rescore re-parses generated answers "
            "(compsem llm --generate)"
        )
    return result


def rescore(rows: Path, out: Path, parser: str | None = None) -> dict:
    """The result of ``rows`` recomputed by ``parser`` (default: the run's), written to ``out``."""
    if parser is not None:
        check_parser(parser)
    result = source_result(rows)
    records = read_rows(rows)
    settings = result["settings"]
    names = settings["label_names"]
    check_writable(result_files(out, "llm", result["dataset"]["config"], [result["seed"]]))
    parser = parser or settings["parser"]
    tags = settings.get("reasoning_tags") or []
    records = parse_rows(records, parser, tags)
    new = dict(result)
    new["settings"] = {
        **settings,
        "parser": parser,
        "rescored_from": str(Path(rows).resolve()),
        "model_calls": 0,
    }
    new["scores"] = generation_scores(records, names, new["settings"])
    return write_generation(out, validate_result(new, "the rescored result"), records, names)
