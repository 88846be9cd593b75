"""The generation tasks compsem exports for its peers, run by the real peers: ``compsem
inspect-tasks`` (Inspect AI's ``inspect eval``, ``hf`` provider) and the lm-eval task folder's
``generate_until`` variants (``lm_eval``), each on the first rows of RNPC ``spte`` with the offline
SmolLM2, greedy, against ``compsem llm --generate`` on the same rows; and bad input to
``inspect-tasks``: one clear line, exit 2, nothing written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from compsem.benchmark.answers import parse_answer
from compsem.cli.program import main
from compsem.harness.inspect_export.runtime import choice_samples, config_rows, generate_samples
from compsem.harness.inspect_export.tasks import write_inspect_tasks
from compsem.harness.llm.generate_run import run_generate
from compsem.harness.llm.generation import Decoding, conversation
from compsem.harness.lm_eval_export.tasks import write_tasks
from compsem.publish.export import export_benchmark

pytestmark = pytest.mark.slow  # an RNPC export; the peers' runs load SmolLM2
ROWS = 10
BIN = Path(sys.executable).parent
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}


@pytest.fixture(scope="module")
def rnpc(tmp_path_factory):
    folder = tmp_path_factory.mktemp("exports") / "rnpc"
    export_benchmark("rnpc", folder, ["spte"])
    return folder


@pytest.fixture(scope="module")
def ours(rnpc, smollm2, tmp_path_factory, one_thread):
    """``compsem llm --generate`` on the first rows: each row's input and parsed answer."""
    out = tmp_path_factory.mktemp("ours")
    run_generate(
        str(rnpc), "spte", out, str(smollm2), Decoding(), limit=ROWS, device="cpu", progress=False
    )
    return [json.loads(line) for line in next(out.glob("*.rows.jsonl")).open()]


def test_inspect_samples_are_compsems_questions(rnpc):
    benchmark, prompt, rows = config_rows(rnpc, "spte")
    assert benchmark == "rnpc" and rows
    generated = generate_samples(prompt, rows[:3], None)
    for sample, row in zip(generated, rows, strict=False):
        expected = conversation(prompt, row, (), None)
        assert [(m.role, m.content) for m in sample.input] == [
            (m["role"], m["content"]) for m in expected
        ]
        assert sample.target == str(row["label"]) and sample.metadata["choices"] == [
            "False",
            "True",
        ]
    lettered = choice_samples(prompt, rows[:3])
    assert [s.target for s in lettered] == ["AB"[row["label"]] for row in rows[:3]]


def test_bad_input_is_one_clear_line_and_writes_nothing(rnpc, tmp_path, capsys):
    out = tmp_path / "tasks"
    assert main(["inspect-tasks", str(tmp_path / "missing"), "--out", str(out)]) == 2
    assert main(["inspect-tasks", str(rnpc), "--out", str(out), "--config", "nope"]) == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 2 and "Traceback" not in "".join(errors)
    assert "no export folder" in errors[0] and "no config 'nope'" in errors[1]
    assert "choose among spte" in errors[1]
    assert not out.exists() or not any(out.rglob("*.py"))


def test_inspect_eval_agrees_with_compsem_and_reads_a_moved_export(rnpc, ours, smollm2, tmp_path):
    written = write_inspect_tasks(rnpc, tmp_path / "tasks")
    assert written.tasks == ["compsem_rnpc_spte", "compsem_rnpc_spte_generate"]
    moved = shutil.copytree(rnpc, tmp_path / "elsewhere" / "rnpc")
    command = [str(BIN / "inspect"), "eval", f"{written.file}@compsem_rnpc_spte_generate"]
    command += [f"{written.file}@compsem_rnpc_spte", "-T", f"limit={ROWS}", "-T", f"export={moved}"]
    command += ["--model", "hf/local", "-M", f"model_path={smollm2}", "-M", "device=cpu"]
    command += ["--log-dir", str(tmp_path / "logs"), "--display", "none"]
    subprocess.run(command, env=ENV, check=True, capture_output=True)
    from inspect_ai.log import read_eval_log

    logs = {
        log.eval.task: log
        for log in map(read_eval_log, map(str, (tmp_path / "logs").glob("*.eval")))
    }
    generated = logs["compsem_rnpc_spte_generate"]
    assert generated.status == "success" and len(generated.samples) == ROWS
    by_id = {str(sample.id): sample for sample in generated.samples}
    parsed = [by_id[str(row["id"])].scores["parsed_answer"].metadata["parsed"] for row in ours]
    agreement = sum(a == row["prediction"] for a, row in zip(parsed, ours, strict=True)) / ROWS
    assert agreement >= 0.9, (parsed, [row["prediction"] for row in ours])
    metrics = generated.results.scores[0].metrics
    gold = [row["label"] for row in ours]
    assert metrics["accuracy"].value == pytest.approx(
        sum(a == g for a, g in zip(parsed, gold, strict=True)) / ROWS
    )
    assert metrics["unparsable"].value == sum(a is None for a in parsed) / ROWS
    choice = logs["compsem_rnpc_spte"]
    assert choice.status == "success" and len(choice.samples) == ROWS
    assert {sample.target for sample in choice.samples} <= {"A", "B"}


def test_lm_eval_generate_until_agrees_with_compsem(rnpc, ours, smollm2, tmp_path):
    folder = write_tasks(str(rnpc), tmp_path / "tasks").folder
    task = yaml.safe_load(
        (folder / "compsem_rnpc_spte_generate.yaml").read_text().replace("!function ", "")
    )
    assert task["output_type"] == "generate_until" and task["tag"] == ["compsem_rnpc_generate"]
    assert [m["parser"] for m in task["metric_list"]] == ["choices", "choices"]
    command = [str(BIN / "lm_eval"), "--model", "hf", "--model_args"]
    command += [f"pretrained={smollm2},dtype=float32", "--include_path", str(tmp_path / "tasks")]
    command += ["--tasks", "compsem_rnpc_spte_generate", "--apply_chat_template", "--limit"]
    command += [
        str(ROWS),
        "--device",
        "cpu",
        "--log_samples",
        "--output_path",
        str(tmp_path / "out"),
    ]
    subprocess.run(command, env=ENV, check=True, capture_output=True)
    samples = sorted(
        (json.loads(line) for line in next((tmp_path / "out").rglob("samples_*.jsonl")).open()),
        key=lambda sample: int(sample["doc_id"]),
    )
    assert [sample["arguments"]["gen_args_0"]["arg_0"] for sample in samples] == [
        row["input"] for row in ours
    ]
    parsed = [parse_answer("choices", s["filtered_resps"][0], ["False", "True"]) for s in samples]
    agreement = sum(a == row["prediction"] for a, row in zip(parsed, ours, strict=True)) / ROWS
    assert agreement >= 0.9, (parsed, [row["prediction"] for row in ours])
    gold = [row["label"] for row in ours]
    assert [s["acc"] for s in samples] == [float(a == g) for a, g in zip(parsed, gold, strict=True)]
    assert [s["unparsable"] for s in samples] == [float(a is None) for a in parsed]
