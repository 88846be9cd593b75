"""``compsem llm --generate`` measured: accuracy and unparsable share on a config's first rows,
the call cache (a second identical run: model calls and speed-up), and the agreement of parsed
answers between the OpenAI-compatible back end (against a real ``transformers serve``) and the
transformers back end, greedy, on the same rows.

    python perf/generation.py accuracy --export EXPORT --config spte --limit 500
    python perf/generation.py cache --export EXPORT --config spte --limit 500
    python perf/generation.py agreement --export EXPORT --config spte --limit 200

Each writes ``perf/measured/records/generation_<task>_<benchmark>_<config>.json``. ``cache`` runs
the command twice against an empty cache of its own; ``agreement`` reuses the cache for the
transformers side (an earlier run on the same rows answers it) and starts and stops the server.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import tempfile
import time
from pathlib import Path

import torch

from compsem.harness.data.benchmark import load_benchmark
from compsem.harness.llm.generate_run import Endpoint, run_generate
from compsem.harness.llm.generation import Decoding
from compsem.harness.llm.openai_api import transformers_serve
from compsem.harness.models.offline import model_path
from compsem.harness.report.leaderboard import ONE_ANSWER

RECORDS = Path(__file__).parent / "measured" / "records"


def generate(export: Path, config: str, limit: int, out: Path, **options) -> tuple[dict, list]:
    start = time.perf_counter()
    result = run_generate(
        str(export), config, out, "smollm2", Decoding(), device="cpu", limit=limit,
        progress=False, **options,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    rows = [json.loads(line) for line in next(Path(out).glob("*.rows.jsonl")).open()]
    return {**result, "wall_seconds": seconds}, rows


def machine() -> str:
    load = os.getloadavg()[0]
    return (
        f"{os.cpu_count()} shared CPU cores ({platform.processor() or platform.machine()}), "
        f"load average {load:.0f} at the start, torch threads {torch.get_num_threads()}"
    )


def record(task: str, export: Path, config: str, command: str, figures: dict, template) -> Path:
    bench = load_benchmark(str(export), config)
    benchmark = bench.card.get("benchmark")
    payload = {
        "command": command,
        "machine": machine(),
        "date": datetime.date.today().isoformat(),
        "versions": {benchmark: bench.card.get("version")},
        "figures": figures,
        "template": template,
    }
    path = RECORDS / f"generation_{task}_{benchmark}_{config}.json"
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    return path


def interval(pair) -> str:
    return f"[{pair[0]:.3f}, {pair[1]:.3f}]" if pair else "(none)"


def accuracy(args, work: Path, result: dict | None = None) -> Path:
    """The accuracy record of a run (``result``, else a run made now): accuracy (AUCnorm too
    where the config is ranked, as BoOQA's) with its 95% interval, the unparsable share, and
    the one-answer ⚠ where it applies."""
    if result is None:
        result, _ = generate(args.export, args.config, args.limit, work / "run")
    scores = result["scores"]
    top = max(scores["label_shares"].values())
    figures = {
        "config": args.config,
        "rows": result["settings"]["eval_examples"],
        "accuracy": round(scores["accuracy"], 3),
        "accuracy_ci": interval(scores.get("accuracy_ci")),
        "unparsable": f"{scores['unparsable']:.1%}",
        "top_share": f"{top:.0%}",
        "one_answer": f" ⚠ one answer to {top:.0%} of the rows: the accuracy is that answer's "
        "share, not skill."
        if top >= ONE_ANSWER
        else "",
    }
    template = (
        "SmolLM2-135M-Instruct, `compsem llm --generate`, greedy, on the first {rows} test rows "
        "of `{config}`: accuracy {accuracy} {accuracy_ci} (95% interval), unparsable "
        "{unparsable} (counted wrong), its most frequent answer {top_share} of rows"
    )
    if scores.get("aucnorm") is not None:
        figures["aucnorm"] = round(scores["aucnorm"], 3)
        figures["aucnorm_ci"] = interval(scores.get("aucnorm_ci"))
        figures["xi"] = round(scores["baseline_precision"], 3)
        template += (
            "; AUCnorm {aucnorm} {aucnorm_ci} over each row's vote share (one greedy answer: "
            "1 for True, 0 for False), ξ {xi}"
        )
    if result["settings"]["cached_rows"] == 0:  # a speed only where every row was generated now
        figures["rows_per_second"] = round(figures["rows"] / result["wall_seconds"], 2)
        template += "; {rows_per_second} rows/s on {machine}"
    command = COMMANDS[args.task]
    return record(
        "accuracy", args.export, args.config, command, figures, template + ".{one_answer}"
    )


def cache(args, work: Path) -> Path:
    os.environ["COMPSEM_CACHE"] = str(work / "cache")  # an empty cache: the first run fills it
    first, first_rows = generate(args.export, args.config, args.limit, work / "first")
    second, second_rows = generate(args.export, args.config, args.limit, work / "second")
    figures = {
        "rows": args.limit,
        "first_calls": first["settings"]["model_calls"],
        "first_seconds": round(first["wall_seconds"], 1),
        "second_calls": second["settings"]["model_calls"],
        "second_seconds": round(second["wall_seconds"], 2),
        "speedup": round(first["wall_seconds"] / second["wall_seconds"]),
        "same_rows": first_rows == second_rows,
    }
    template = (
        "The same `compsem llm --generate` run twice ({rows} rows, an empty cache at first): the "
        "first made {first_calls} batched generate calls in {first_seconds} s, the second "
        "{second_calls} calls in {second_seconds} s ({speedup}× faster, identical rows: "
        "{same_rows}), on {machine}."
    )
    return record("cache", args.export, args.config, COMMANDS["cache"], figures, template)


def agreement(args, work: Path) -> Path:
    """The agreement record; the transformers side's run also gives the accuracy record."""
    local, local_rows = generate(args.export, args.config, args.limit, work / "hf")
    accuracy(args, work, local)
    with transformers_serve(str(model_path("smollm2"))) as url:
        served, served_rows = generate(
            args.export, args.config, args.limit, work / "api", backend="openai",
            endpoint=Endpoint(url, concurrency=args.concurrency, timeout=300), cache=False,
        )  # fmt: skip
    same = [
        a["prediction"] == b["prediction"] for a, b in zip(local_rows, served_rows, strict=True)
    ]
    texts = [a["output"] == b["output"] for a, b in zip(local_rows, served_rows, strict=True)]
    figures = {
        "rows": len(same),
        "agreement": round(sum(same) / len(same), 3),
        "same_text": round(sum(texts) / len(texts), 3),
        "hf_accuracy": round(local["scores"]["accuracy"], 3),
        "api_accuracy": round(served["scores"]["accuracy"], 3),
        "server": served["settings"]["backend_version"],
    }
    template = (
        "Parsed answers of the OpenAI-compatible back end against `transformers serve` (same "
        "SmolLM2 folder, greedy) and of the transformers back end agree on {agreement} of "
        "{rows} rows (identical text on {same_text}); accuracy {api_accuracy} vs {hf_accuracy}."
    )
    return record("agreement", args.export, args.config, COMMANDS["agreement"], figures, template)


COMMANDS = {
    task: f"OMP_NUM_THREADS=1 python perf/generation.py {task} --export EXPORT --config CONFIG "
    "--limit N"
    for task in ("accuracy", "cache", "agreement")
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", choices=["accuracy", "cache", "agreement"])
    parser.add_argument("--export", type=Path, required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        path = {"accuracy": accuracy, "cache": cache, "agreement": agreement}[args.task](
            args, Path(work)
        )
    print(path.read_text())


if __name__ == "__main__":
    main()
