"""``compsem llm --generate``, its answer parsers, the call cache and ``compsem rescore``, with
the real offline SmolLM2-135M-Instruct (the transformers back end) and, for the OpenAI-compatible
back end, real HTTP: ``transformers serve`` in the slow test, a local ``http.server`` answering
401 and 429 in the error tests (no OpenAI server is reachable here)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import httpx
import pytest

from compsem.benchmark.answers import (
    PARSERS,
    answer_score,
    majority,
    parse_answer,
    strip_reasoning,
)
from compsem.builders import BENCHMARKS
from compsem.cli.program import main
from compsem.harness.llm.cache import CallCache, model_revision
from compsem.harness.llm.generation import Decoding, generate_texts
from compsem.harness.llm.openai_api import transformers_serve
from compsem.publish.export import export_benchmark

NLI = ["False", "True"]
EPC = ["less", "equally", "more"]


def test_reasoning_blocks_are_stripped_closed_open_or_half_opened():
    assert strip_reasoning("<think>True? no.</think> False") == "False"
    assert strip_reasoning("False <reasoning>maybe True") == "False"
    assert strip_reasoning("it is True, so</think>False") == "False"
    assert strip_reasoning("<scratch>True</scratch> False", ["scratch"]) == "False"


@pytest.mark.parametrize(
    ("parser", "text", "choices", "expected"),
    [
        ("choices", "True.", NLI, 1),
        ("choices", "False. This is a rifle, so True is wrong.", NLI, 0),
        ("choices", "<think>It is true.</think>\nfalse", NLI, 0),
        ("choices", "Untrue", NLI, None),
        ("choices", "a good example", ["poor example of a gun.", "good example of a gun."], 1),
        ("letters", "Answer: B", NLI, 1),
        ("letters", "(A) seems right", NLI, 0),
        ("yes_no", "Yes, it follows.", NLI, 1),
        ("yes_no", "No.", NLI, 0),
        ("three_way", "Event 2 is as plausible as Event 1.", EPC, 1),
        ("three_way", "It is more likely.", EPC, 2),
        ("three_way", "less", EPC, 0),
        ("three_way", "I do not know.", EPC, None),
        ("score", "0.8", NLI, 1),
        ("score", "30%", NLI, 0),
        ("score", "True", NLI, 1),
    ],
)
def test_each_parser_reads_its_answers_and_none_when_unparsable(parser, text, choices, expected):
    assert parse_answer(parser, text, choices) == expected


def test_scores_votes_and_an_unknown_parser():
    assert answer_score("about 75%") == 0.75 and answer_score("none") is None
    assert majority([None, 1, 0, 1]) == 1 and majority([0, 1]) == 0 and majority([None]) is None
    with pytest.raises(ValueError, match="unknown parser 'regex'; choose one of choices"):
        parse_answer("regex", "True", NLI)
    with pytest.raises(ValueError, match="--samples 3 with greedy decoding gives 3 identical"):
        Decoding(samples=3)
    assert Decoding(samples=3, temperature=0.7, seed=5).settings()["seed"] == 5
    assert Decoding().settings()["seed"] is None  # greedy answers do not depend on the seed


def test_every_declared_prompt_names_a_registered_parser_epc_the_three_way_one():
    declared = {
        prompt.name: prompt.parser
        for spec in BENCHMARKS.values()
        for _, prompts in spec.llm_prompts
        for prompt in prompts
    }
    assert set(declared.values()) <= set(PARSERS)
    assert declared["epc"] == "three_way" and declared["nli"] == "choices"


@pytest.fixture(scope="module")
def rnpc(tmp_path_factory):
    folder = tmp_path_factory.mktemp("rnpc") / "rnpc"
    export_benchmark("rnpc", folder, ["spte", "epc"])
    return folder


def run(rnpc, out, *extra, config="spte", limit=6):
    argv = ["llm", "--generate", "--dataset", str(rnpc), "--config", config, "--limit"]
    return main([*argv, str(limit), "--out", str(out), "--device", "cpu", *extra])


def read_result(out):
    (result,) = [p for p in out.glob("llm-*.json")]
    rows = [json.loads(line) for line in result.with_suffix(".rows.jsonl").open()]
    return json.loads(result.read_text()), rows


@pytest.mark.slow
def test_batched_left_padded_greedy_generation_equals_one_row_at_a_time(smollm2):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(smollm2)
    model = AutoModelForCausalLM.from_pretrained(smollm2).eval()
    questions = ["Is a fake gun a gun? Answer yes or no.", "Say True.", "2+2=? Reply briefly."]
    prompts = [
        tokenizer.apply_chat_template(
            [{"role": "user", "content": q}], tokenize=False, add_generation_prompt=True
        )
        for q in questions
    ]
    decoding = Decoding(max_new_tokens=8)
    together, alone = {}, {}
    assert (
        generate_texts(model, tokenizer, prompts, decoding, 3, "cpu", together.update, False) == 1
    )
    for index, prompt in enumerate(prompts):
        found = {}
        generate_texts(model, tokenizer, [prompt], decoding, 1, "cpu", found.update, False)
        alone[index] = found[0]
    assert together == alone


@pytest.mark.slow
def test_pruned_greedy_decoding_gives_generates_tokens_and_keeps_generate_where_it_must(
    smollm2, monkeypatch
):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from compsem.harness.llm import greedy

    tokenizer = AutoTokenizer.from_pretrained(smollm2)
    model = AutoModelForCausalLM.from_pretrained(smollm2).eval()
    questions = [
        "Is a fake gun a gun? Answer yes or no.",
        "Say True.",
        "Name three rivers in Europe.",  # runs to the token budget while the others end
        "A small red car is a car. True or False?",
        "Hi",
    ]
    prompts = [
        tokenizer.apply_chat_template(
            [{"role": "user", "content": q}], tokenize=False, add_generation_prompt=True
        )
        for q in questions
    ]
    assert greedy.prunes(model)
    encoded = [tokenizer(p, add_special_tokens=False)["input_ids"] for p in prompts]
    assert 10 < greedy.common_prefix(encoded) < min(map(len, encoded))  # the template's head
    decoding = Decoding(max_new_tokens=24)
    pruned, generated = {}, {}
    generate_texts(model, tokenizer, prompts, decoding, 5, "cpu", pruned.update, False)
    monkeypatch.setattr(greedy, "PRUNED_FAMILIES", frozenset())  # generate() itself
    assert not greedy.prunes(model)
    generate_texts(model, tokenizer, prompts, decoding, 5, "cpu", generated.update, False)
    assert pruned == generated
    lengths = sorted(found["output_tokens"][0] for found in pruned.values())
    assert lengths[0] < 8 and lengths[-1] == 24  # rows did end at different steps
    monkeypatch.undo()
    model.generation_config.repetition_penalty = 1.3  # generate would change the logits
    assert not greedy.prunes(model)


@pytest.mark.slow
def test_generate_writes_auditable_rows_caches_calls_and_rescores_to_the_same_numbers(
    rnpc, tmp_path, capsys
):
    assert run(rnpc, tmp_path / "a", "--system", "Answer True or False.") == 0
    result, rows = read_result(tmp_path / "a")
    settings, scores = result["settings"], result["scores"]
    assert settings["model_revision"].startswith("content:")
    assert settings["backend_version"].startswith("transformers ")
    assert settings["parser"] == "choices" and settings["model_calls"] >= 1
    assert 0 <= scores["unparsable"] <= 1 and "accuracy" in scores
    assert "unparsable" in (tmp_path / "a" / "summary.md").read_text()
    for row in rows:
        assert row["input"].startswith("<|im_start|>system\nAnswer True or False.<|im_end|>")
        assert row["input"].endswith("<|im_start|>assistant\n")
        assert row["prediction"] == parse_answer("choices", row["output"][0], NLI)
        assert row["prompt_tokens"] > 10 and row["label"] in (0, 1)
    # The same run again: every answer from the cache, no model call, the same numbers.
    assert run(rnpc, tmp_path / "b", "--system", "Answer True or False.") == 0
    again, again_rows = read_result(tmp_path / "b")
    assert again["settings"]["model_calls"] == 0 and again["settings"]["cached_rows"] == 6
    assert again["scores"] == scores and again_rows == rows
    # Rescoring from the rows, without a model: the run's numbers.
    rows_file = next((tmp_path / "a").glob("*.rows.jsonl"))
    assert main(["rescore", str(rows_file), "--out", str(tmp_path / "c")]) == 0
    assert read_result(tmp_path / "c")[0]["scores"] == scores


@pytest.mark.slow
def test_epc_answers_are_read_three_ways(rnpc, tmp_path):
    assert run(rnpc, tmp_path / "epc", config="epc", limit=4) == 0
    result, rows = read_result(tmp_path / "epc")
    assert result["settings"]["parser"] == "three_way"
    assert all(r["choices"] == EPC for r in rows)
    assert set(result["scores"]["label_shares"]) == {
        "less_plausible",
        "equally_plausible",
        "more_plausible",
    }


class _Reply(BaseHTTPRequestHandler):
    """A local endpoint: 401 for a wrong key; 429 once, then a chat completion."""

    calls: list = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers["Content-Length"]))
        _Reply.calls.append(self.headers.get("Authorization"))
        if self.headers.get("Authorization") != "Bearer right":
            status, body = 401, {"error": {"message": "Incorrect API key"}}
        elif len(_Reply.calls) == 1:
            status, body = 429, {"error": {"message": "slow down"}}
        else:
            status = 200
            body = {"choices": [{"message": {"content": "True"}, "finish_reason": "stop"}]}
        payload = json.dumps(body).encode()
        self.send_response(status)
        if status == 429:
            self.send_header("Retry-After", "0")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint():
    server = HTTPServer(("127.0.0.1", 0), _Reply)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _Reply.calls = []
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def api_run(rnpc, out, url, key_env="KEY"):
    argv = ["llm", "--generate", "--backend", "openai", "--base-url", url, "--model", "m"]
    argv += ["--dataset", str(rnpc), "--config", "spte", "--limit", "3", "--out", str(out)]
    return main([*argv, "--api-key-env", key_env, "--no-cache", "--concurrency", "2"])


def test_the_endpoint_retries_a_rate_limit_and_rows_rescore_without_a_model(
    rnpc, endpoint, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("KEY", "right")
    assert api_run(rnpc, tmp_path / "ok", endpoint) == 0
    result, rows = read_result(tmp_path / "ok")
    assert len(_Reply.calls) == 4  # the first answered 429, then retried
    assert [r["prediction"] for r in rows] == [1, 1, 1]
    assert result["settings"]["backend"] == "openai" and result["settings"]["model_calls"] == 3
    # Rescored from the rows without a model: the same numbers; by another parser, its own.
    rows_file = next((tmp_path / "ok").glob("*.rows.jsonl"))
    assert main(["rescore", str(rows_file), "--out", str(tmp_path / "same")]) == 0
    assert read_result(tmp_path / "same")[0]["scores"] == result["scores"]
    assert (
        main(["rescore", str(rows_file), "--out", str(tmp_path / "yn"), "--parser", "yes_no"]) == 0
    )
    again, again_rows = read_result(tmp_path / "yn")
    assert again["settings"]["parser"] == "yes_no" and again["settings"]["model_calls"] == 0
    assert [r["prediction"] for r in again_rows] == [1, 1, 1]
    # A damaged rows file: one line naming it, nothing written.
    rows_file.write_text(rows_file.read_text()[:-20])
    out = tmp_path / "damaged"
    capsys.readouterr()
    code = main(["rescore", str(rows_file), "--out", str(out)])
    _one_error_nothing_written(code, capsys, out, "line 3 is not valid JSON")


def _one_error_nothing_written(code, capsys, out, pattern):
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1 and pattern in err, err
    assert not out.exists() or not any(out.iterdir())


def test_bad_input_is_one_line_exit_2_and_no_result(
    rnpc, endpoint, smollm2, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("KEY", "wrong")
    out = tmp_path / "out"
    _one_error_nothing_written(
        api_run(rnpc, out, endpoint), capsys, out, "refused the API key (401)"
    )
    monkeypatch.setenv("KEY", "right")
    code = api_run(rnpc, out, "http://127.0.0.1:9/v1")
    _one_error_nothing_written(code, capsys, out, "cannot reach http://127.0.0.1:9/v1")
    code = run(rnpc, out, "--model", "minilm")
    _one_error_nothing_written(code, capsys, out, "has no chat template")
    code = run(rnpc, out, "--parser", "regex")
    _one_error_nothing_written(code, capsys, out, "unknown parser 'regex'; choose one of")
    monkeypatch.delenv("KEY")
    _one_error_nothing_written(api_run(rnpc, out, endpoint), capsys, out, "KEY: that environment")
    bad = tmp_path / "llm-spte-seed1.rows.jsonl"
    bad.write_text('{"label": 1}\n')
    code = main(["rescore", str(bad), "--out", str(out)])
    _one_error_nothing_written(code, capsys, out, "beside the rows")


def test_the_call_cache_survives_a_torn_line_and_a_folder_revision_follows_its_content(tmp_path):
    cache = CallCache("content:abc", "hf")
    cache.put_many({"k1": {"texts": ["True"]}})
    with open(cache.path, "a") as handle:
        handle.write('{"key": "k2", "val')  # a run killed mid-write
    resumed = CallCache("content:abc", "hf")
    assert resumed.get("k1") == {"texts": ["True"]} and resumed.get("k2") is None
    resumed.put_many({"k2": {"texts": ["False"]}})
    assert CallCache("content:abc", "hf").entries == {
        "k1": {"texts": ["True"]},
        "k2": {"texts": ["False"]},
    }
    assert CallCache("content:abc", "openai").get("k1") is None  # another back end's cache
    assert not CallCache("content:abc", "hf", enabled=False).get("k1")
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    before = model_revision(str(folder))
    assert before.startswith("content:") and model_revision(str(folder)) == before
    (folder / "config.json").write_text('{"a": 1}')
    assert model_revision(str(folder)) != before
    assert model_revision("gpt-4o-mini") == "name:gpt-4o-mini"


@pytest.mark.slow
def test_the_openai_back_end_against_a_real_transformers_serve_agrees_with_transformers(
    rnpc, smollm2, tmp_path
):
    with transformers_serve(str(smollm2)) as url:
        server = url
        argv = ["--backend", "openai", "--base-url", url, "--model", str(smollm2), "--no-cache"]
        assert run(rnpc, tmp_path / "api", *argv, limit=4) == 0
    with pytest.raises(httpx.ConnectError):  # the server is gone with the block
        httpx.get(server.removesuffix("/v1") + "/health", timeout=2)
    assert run(rnpc, tmp_path / "hf", limit=4) == 0
    served, served_rows = read_result(tmp_path / "api")
    local, local_rows = read_result(tmp_path / "hf")
    assert served["settings"]["backend"] == "openai" and served["settings"]["model_calls"] == 4
    assert served["settings"]["model_revision"] == local["settings"]["model_revision"]
    assert [r["prediction"] for r in served_rows] == [r["prediction"] for r in local_rows]
    assert all(r["input"][-1]["role"] == "user" for r in served_rows)
