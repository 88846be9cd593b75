"""Generation against the peers, side by side on the same rows, model, batch budget and threads:
``compsem llm --generate`` vs lm-eval's ``generate_until`` task (``compsem lm-eval-tasks``) vs
``inspect eval`` of the ``..._generate`` task (``compsem inspect-tasks``, ``hf`` provider), all
greedy with the offline SmolLM2 folder on the CPU. Agreement is the share of rows whose parsed
answer (the benchmark's parser, applied the same way to each harness's text) is compsem's;
speed is rows per second of each whole command (start, model load and generation).

    OMP_NUM_THREADS=1 python perf/generation_peers.py --export EXPORT --config spte --limit 200

Writes ``perf/measured/records/generation_peers_<benchmark>_<config>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch
from generation import record  # perf/generation.py, beside this script

from compsem.benchmark.answers import parse_answer
from compsem.benchmark.card import compsem_metadata
from compsem.files.export_reader import read_export_card
from compsem.harness.models.offline import model_path

BIN = Path(sys.executable).parent


def timed(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return seconds


def compsem_run(args, work: Path, env: dict) -> tuple[float, list[dict], str]:
    out = work / "compsem"
    command = [str(BIN / "compsem"), "llm", "--generate", "--dataset", str(args.export)]
    command += ["--config", args.config, "--model", "smollm2", "--limit", str(args.limit)]
    command += ["--batch-size", str(args.batch_size), "--no-cache", "--device", "cpu"]
    seconds = timed([*command, "--out", str(out)], env)
    rows = [json.loads(line) for line in next(out.glob("*.rows.jsonl")).open()]
    result = next(p for p in out.glob("llm-*.json") if not p.name.endswith(".rows.jsonl"))
    return seconds, rows, json.loads(result.read_text())["settings"]["parser"]


def lm_eval_run(args, work: Path, env: dict, model: str) -> tuple[float, list[dict]]:
    tasks = work / "tasks"
    subprocess.run(
        [str(BIN / "compsem"), "lm-eval-tasks", str(args.export), "--out", str(tasks)],
        env=env, check=True, capture_output=True,
    )  # fmt: skip
    command = [str(BIN / "lm_eval"), "--model", "hf", "--model_args"]
    command += [f"pretrained={model},dtype=float32", "--include_path", str(tasks), "--tasks"]
    command += [f"compsem_{args.benchmark}_{args.config}_generate", "--apply_chat_template"]
    command += ["--limit", str(args.limit), "--batch_size", str(args.batch_size), "--device"]
    command += ["cpu", "--log_samples", "--output_path", str(work / "lm_eval")]
    seconds = timed(command, env)
    samples = next((work / "lm_eval").rglob("samples_*.jsonl"))
    rows = sorted((json.loads(line) for line in samples.open()), key=lambda s: s["doc_id"])
    return seconds, rows


def inspect_run(args, work: Path, env: dict, model: str) -> tuple[float, list]:
    from inspect_ai.log import read_eval_log

    tasks = work / "inspect"
    subprocess.run(
        [str(BIN / "compsem"), "inspect-tasks", str(args.export), "--out", str(tasks),
         "--config", args.config],
        env=env, check=True, capture_output=True,
    )  # fmt: skip
    task_file = tasks / args.benchmark / f"compsem_{args.benchmark}.py"
    command = [str(BIN / "inspect"), "eval"]
    command += [f"{task_file}@compsem_{args.benchmark}_{args.config}_generate"]
    command += ["--model", "hf/local", "-M", f"model_path={model}", "-M", "device=cpu"]
    command += ["-T", f"limit={args.limit}", "--max-connections", str(args.batch_size)]
    command += ["--log-dir", str(work / "logs"), "--display", "none"]
    seconds = timed(command, env)
    log = read_eval_log(str(next((work / "logs").glob("*.eval"))))
    return seconds, sorted(log.samples, key=lambda s: s.metadata.get("index", 0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--export", type=Path, required=True)
    parser.add_argument("--config", default="spte")
    parser.add_argument("--limit", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    args.benchmark = compsem_metadata(read_export_card(args.export))["benchmark"]
    torch.set_num_threads(args.threads)
    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads), "MKL_NUM_THREADS": str(args.threads)}
    env |= {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    model = model_path("smollm2")
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        compsem_seconds, rows, parser_name = compsem_run(args, work, env)
        lm_seconds, lm_samples = lm_eval_run(args, work, env, model)
        inspect_seconds, samples = inspect_run(args, work, env, model)
    ours = [row["prediction"] for row in rows]
    lm = [
        parse_answer(
            parser_name, sample["filtered_resps"][0], rows[int(sample["doc_id"])]["choices"]
        )
        for sample in lm_samples
    ]
    by_id = {str(sample.id): sample for sample in samples}
    inspect = [by_id[str(row["id"])].scores["parsed_answer"].metadata["parsed"] for row in rows]
    same_lm_input = [
        sample["arguments"]["gen_args_0"]["arg_0"] == rows[int(sample["doc_id"])]["input"]
        for sample in lm_samples
    ]
    n = len(rows)
    rates = {
        "compsem": n / compsem_seconds,
        "lm_eval": n / lm_seconds,
        "inspect": n / inspect_seconds,
    }
    figures = {
        "rows": n,
        "batch_size": args.batch_size,
        "threads": args.threads,
        "agreement_lm_eval": sum(a == b for a, b in zip(ours, lm, strict=True)) / n,
        "agreement_inspect": sum(a == b for a, b in zip(ours, inspect, strict=True)) / n,
        "same_input_lm_eval": sum(same_lm_input) / n,
        **{f"{name}_rows_per_second": round(rate, 3) for name, rate in rates.items()},
        "compsem_seconds": round(compsem_seconds, 1),
        "lm_eval_seconds": round(lm_seconds, 1),
        "inspect_seconds": round(inspect_seconds, 1),
        "speedup_over_faster_peer": round(
            rates["compsem"] / max(rates["lm_eval"], rates["inspect"]), 2
        ),
    }
    command = (
        "OMP_NUM_THREADS=1 python perf/generation_peers.py --export EXPORT --config "
        f"{args.config} --limit {args.limit} --batch-size {args.batch_size}"
    )
    template = (
        "Greedy generation with SmolLM2-135M-Instruct on the first {rows} test rows, batch "
        "budget {batch_size}, torch threads {threads}: parsed answers of lm-eval's "
        "`generate_until` task agree with `compsem llm --generate` on {agreement_lm_eval} of "
        "rows (identical model input on {same_input_lm_eval}), and `inspect eval` (hf provider) "
        "on {agreement_inspect}. Whole commands, rows/s: compsem {compsem_rows_per_second}, "
        "lm_eval {lm_eval_rows_per_second}, inspect {inspect_rows_per_second} "
        "(compsem {speedup_over_faster_peer}× the faster peer). Measured on {machine}, {date}."
    )
    print(json.dumps(figures, indent=2))
    print(record("peers", args.export, args.config, command, figures, template))


if __name__ == "__main__":
    main()
