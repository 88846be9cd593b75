"""Result files: one JSON per run (model, data provenance, config, seed, settings, scores) that
``compsem report`` reads back, written atomically."""

from __future__ import annotations

import datetime
import json
import math
import platform
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from compsem.files.bounded_read import UnreadableFile, check_file, read_json
from compsem.files.output_folder import Wording, check_output_folder
from compsem.files.ownership import OutputFolderError, check_claimable, claim_file, file_in_the_way

SCHEMA_VERSION = 1
MARKER = "compsem_result"
# What marks a file of the papers' analyses of saved runs (``compsem subwords``).
ANALYSIS_MARKER = "compsem_analysis"
# Beside a score result: its precision-recall curve.
PR_CURVE = "-pr-curve.json"
SUMMARY = "summary.md"
COMMANDS = (
    "train",
    "curve",
    "zero-shot",
    "prompt",
    "score",
    "llm",
    "harm-detection",
    "probe-likelihood",
)
REQUIRED = {
    MARKER: int,
    "command": str,
    "model": str,
    "dataset": dict,
    "seed": (int, type(None)),
    "settings": dict,
    "scores": dict,
    "environment": dict,
    "created": str,
}
DATASET_REQUIRED = ("path", "config", "split", "revision", "fingerprint")


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def environment(placement) -> dict:
    return {
        "device": placement.describe(),
        "precision": placement.precision,
        "python": platform.python_version(),
        **{name: _version(name) for name in ("compsem", "torch", "transformers", "datasets")},
    }


def make_result(
    command: str,
    model: str,
    dataset: dict,
    seed: int | None,
    settings: dict,
    scores: dict,
    placement,
    timing: dict | None = None,
) -> dict:
    result = {
        MARKER: SCHEMA_VERSION,
        "command": command,
        "model": model,
        "dataset": dataset,
        "seed": seed,
        "settings": settings,
        "scores": scores,
        "timing": timing or {},
        "environment": environment(placement),
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    return validate_result(result, "a new result")


def _finite(value, where: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{where} holds a non-finite score {value}")
    if isinstance(value, dict):
        for key, item in value.items():
            _finite(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _finite(item, f"{where}[{index}]")


def validate_result(result: dict, source: str) -> dict:
    """The result itself, or one ValueError naming the file and the missing or bad field."""
    if not isinstance(result, dict):
        raise ValueError(f"{source} is not a compsem result (a JSON object)")
    if result.get(MARKER) != SCHEMA_VERSION:
        raise ValueError(
            f"{source} is a compsem result of schema {result.get(MARKER)!r}; this compsem reads "
            f"schema {SCHEMA_VERSION}"
        )
    for key, kind in REQUIRED.items():
        if key not in result:
            raise ValueError(f"{source} lacks the field {key!r} of a compsem result")
        if not isinstance(result[key], kind):
            raise ValueError(
                f"{source}: field {key!r} has the wrong type ({type(result[key]).__name__})"
            )
    if result["command"] not in COMMANDS:
        raise ValueError(f"{source}: unknown command {result['command']!r}")
    missing = [key for key in DATASET_REQUIRED if key not in result["dataset"]]
    if missing:
        raise ValueError(f"{source}: dataset lacks {', '.join(missing)}")
    _finite(result["scores"], f"{source}: scores")
    return result


def result_name(result: dict, tag: str = "") -> str:
    return file_name(result["command"], result["dataset"]["config"], result["seed"], tag)


def file_name(command: str, config: str, seed: int | None, tag: str = "") -> str:
    """The result file of a run of ``command`` on ``config`` (with ``seed``, if it has one);
    ``tag`` names the run apart from the others of one command that share its config and seed
    (``train --max-length 6 8``: ``len6``), and is left out where empty."""
    tag = f"-{tag}" if tag else ""
    return f"{command}-{config}{tag}{'' if seed is None else f'-seed{seed}'}.json"


def result_files(
    out: Path,
    command: str,
    config: str,
    seeds: Sequence[int | None] = (None,),
    beside: Sequence[str] = (),
    tags: Sequence[str] = ("",),
) -> list[Path]:
    """Every file a run of ``command`` on ``config`` writes into ``out``: for each tag and seed
    its result, its per-row file and the files ``beside`` it (``.png``: the result's name with
    that suffix), then ``summary.md``; what :func:`check_writable` checks before the run
    starts."""
    files = []
    for tag in tags:
        for seed in seeds:
            path = Path(out) / file_name(command, config, seed, tag)
            files += [path, rows_path(path), *(path.with_name(path.stem + end) for end in beside)]
    return [*files, Path(out) / SUMMARY]


def check_writable(files: Iterable[Path] = (), folders: Mapping[Path, str] | None = None) -> None:
    """One clear :class:`OutputFolderError`, before any work and any write, for the first of
    the targets a command is about to write that compsem may not: one of ``files`` (written with
    :func:`write_text` or :func:`compsem.files.ownership.claim_file`) that compsem did not write or
    that changed since, or that lies under a file; one of ``folders`` (path: kind, written whole
    with :func:`compsem.files.output_folder.atomic_folder`) that is not new, empty or compsem's own
    folder of that kind."""
    for folder, kind in (folders or {}).items():
        try:  # named by its path: it is not the --out the user passed, but inside it
            check_output_folder(folder, kind, wording=Wording(name=str(folder)))
        except OutputFolderError as error:
            raise OutputFolderError(
                f"cannot write the {kind} {Path(folder).name}: {error}"
            ) from None
    for path in map(Path, files):
        where = file_in_the_way(path, itself=False)
        if where:
            raise OutputFolderError(f"{path} {where}; move that file away or choose another --out.")
        check_claimable(path)


def write_json(path: Path, payload) -> Path:
    """Write JSON atomically: a partial file never replaces a complete one, and a file compsem
    did not write is never replaced (:func:`compsem.files.ownership.claim_file`)."""
    return write_text(path, json_text(payload))


def json_text(payload) -> str:
    """What :func:`write_json` writes."""
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def write_result(out: Path, result: dict, tag: str = "") -> Path:
    """Write ``result`` into ``out`` under :func:`result_name` (with ``tag``, if any)."""
    return write_json(Path(out) / result_name(result, tag), result)


def write_text(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically, unless a file compsem did not write is there."""
    return claim_file(Path(path), lambda partial: partial.write_text(text, encoding="utf-8"))


def rows_path(result_path: Path) -> Path:
    """Where a result's per-row outputs go: ``<result>.rows.jsonl`` beside it."""
    return Path(result_path).with_suffix(".rows.jsonl")


def write_rows(result_path: Path, rows) -> Path:
    """One JSON object per evaluated row (id, gold label, prediction, score(s)), as lm-eval's
    ``--log_samples`` keeps them: the numbers of a result can be recomputed or compared."""
    return write_text(rows_path(result_path), "".join(json.dumps(row) + "\n" for row in rows))


def row_ids(split) -> list:
    """The rows' stable ids, or their positions where a split has none."""
    return list(split["id"]) if "id" in split.column_names else list(range(len(split)))


@dataclass
class Found:
    """What one walk over result folders found: the results and their files, ``compsem embed``
    reports (file, report), analyses of saved runs (each with its ``file``), and the files that
    could not be read, each ``{"file", "reason"}``."""

    results: list[dict] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    embeds: list[tuple[str, dict]] = field(default_factory=list)
    analyses: list[dict] = field(default_factory=list)
    unreadable: list[dict] = field(default_factory=list)
    # The precision-recall curves beside score results, by result file.
    pr_curves: dict[str, dict] = field(default_factory=dict)


def pr_curve_path(result_file: str | Path) -> Path:
    """Where a score result's precision-recall curve sits: beside it."""
    return Path(result_file).with_name(Path(result_file).stem + PR_CURVE)


def read_result_files(paths) -> Found:
    """Every result file under the given folders (recursively) or files, validated, with the
    embed reports and analyses found on the way, and the files a folder holds that could not be
    read as a result (truncated or unreadable JSON, or a result that fails validation), so a
    report names them rather than silently leaving their runs out. A file named directly must
    be a valid result. Each file is read once."""
    found = Found()
    for path in map(Path, paths):
        if not path.exists():
            raise ValueError(f"no such run folder or result file: {path}")
        files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
        for file in files:
            try:
                kind, payload = _read_result(file)
            except ValueError as error:
                if not path.is_dir():
                    raise
                found.unreadable.append({"file": str(file), "reason": _reason(error, file)})
                continue
            if kind == "result":
                found.results.append(payload)
                found.sources.append(str(file))
                rows = rows_path(file)
                if rows.exists() or rows.is_symlink():
                    try:  # its rows are read later (report's answers): refuse a bad one now
                        check_file(rows, "rows")
                    except UnreadableFile as error:
                        found.unreadable.append({"file": str(rows), "reason": _reason(error, rows)})
            elif kind == "embed":
                found.embeds.append((str(file), payload))
            elif kind == "analysis":
                found.analyses.append({**payload, "file": str(file)})
            elif kind == "pr-curve":
                result = file.with_name(file.name.removesuffix(PR_CURVE) + ".json")
                found.pr_curves[str(result)] = payload
            elif not path.is_dir():
                raise ValueError(
                    f"{file} is not a compsem result file; pass the result files (or --out "
                    "folders) of compsem train, curve, llm, embed … runs."
                )
    if not found.results and not found.embeds and not found.analyses:
        problems = "".join(f"; {item['file']}: {item['reason']}" for item in found.unreadable)
        raise ValueError(
            f"no compsem result files under {', '.join(map(str, paths))}: pass the --out folders "
            f"of train, curve, zero-shot, prompt, score, llm or embed runs{problems}"
        )
    return found


def _reason(error: Exception, file: Path) -> str:
    """The message of ``error`` without the file's name in front (the report names it)."""
    return str(error).removeprefix(f"{file}: ").removeprefix(f"{file} ")


def _read_result(file: Path) -> tuple[str | None, dict | None]:
    """("result", the validated result), ("embed", a ``compsem embed`` report),
    ("analysis", an analysis of saved runs) or ("pr-curve", a score result's precision-recall
    curve) in ``file``; (None, None) for JSON that is none of them (a folder may hold other
    JSON); one ValueError for a file that cannot be read or parsed."""
    payload = read_json(file, "result")  # a regular file, bounded; one ValueError if not
    if isinstance(payload, dict) and MARKER in payload:
        return "result", validate_result(payload, str(file))
    if isinstance(payload, dict) and str(payload.get("command", "")).startswith("compsem embed"):
        if not isinstance(payload.get("models"), list):
            raise ValueError(f"{file} is a compsem embed report without its models")
        return "embed", payload
    if isinstance(payload, dict) and payload.get(ANALYSIS_MARKER) and "analysis" in payload:
        return "analysis", payload  # subwords, pmi: each says which it is
    if file.name.endswith(PR_CURVE):
        if not (isinstance(payload, dict) and {"recall", "precision"} <= set(payload)):
            raise ValueError(f"{file} is a precision-recall curve without its recall and precision")
        return "pr-curve", payload
    return None, None


def read_results(paths) -> list[dict]:
    """The results of ``read_result_files``."""
    return read_result_files(paths).results
