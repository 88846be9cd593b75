"""``compsem probe-edges`` and ``compsem probe-scope`` (RNPC §7) with the offline MiniLM on a few
generated RNPC phrases: the Appendix E.3 grid, the modifier split, a word's pieces, the scope
ratio against a direct computation, the page's figures, and the refusals."""

import json

import numpy as np
import pytest
import torch
from transformers import (
    AutoModel,
    AutoTokenizer,
    GPT2Config,
    GPT2LMHeadModel,
    MambaConfig,
    MambaModel,
)

from compsem.builders.rnpc.evaluation.probes import MODIFIER_PROBES
from compsem.cli import main
from compsem.harness.models.offline import model_path
from compsem.harness.probing.edges import GRID, Item, candidates, modifier_split, run_probe_edges
from compsem.harness.probing.phrases import modifier_probes, pieces, word_spans
from compsem.harness.probing.scope import attention_to, run_probe_scope
from compsem.harness.report import page as report_page
from compsem.harness.results.model import read
from compsem.publish.export import export_benchmark

pytestmark = pytest.mark.usefixtures("one_thread")
# four of Appendix E.3's settings: the end-to-end runs check the pipeline, not the search
SMALL_GRID = {**{k: v[:1] for k, v in GRID.items()}, "loss": ["hinge", "log_loss"]}
SMALL_GRID["alpha"] = [0.0001, 0.01]


@pytest.fixture(scope="module")
def rnpc(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports") / "rnpc"
    export_benchmark("rnpc", out, ["spte"])
    return out


def test_the_grid_is_appendix_e3s_distinct_probes():
    settings = candidates()
    assert len(settings) == 1620  # 4,320 combinations less warm_start and eta0 under optimal
    for key, values in GRID.items():  # one fit on a fresh probe: warm_start changes nothing
        assert {s[key] for s in settings} == ({True} if key == "warm_start" else set(values))
    eta0_of_optimal = {s["eta0"] for s in settings if s["learning_rate"] == "optimal"}
    assert len(eta0_of_optimal) == 1


@pytest.mark.parametrize(
    ("text", "phrase", "m1", "m2", "noun"),
    [
        ("He is a former American diplomat.", "a former American diplomat", "former", "American", "diplomat"),
        ("A fake black gun fires blanks.", "a fake black gun", "fake", "black", "gun"),
        ("These are urban imitation houses.", "urban imitation houses", "urban", "imitation", "houses"),
    ],
)  # fmt: skip
def test_word_spans_find_m1_m2_and_the_noun_in_the_sentence(text, phrase, m1, m2, noun):
    spans = word_spans(text, phrase, m1, m2)
    assert [text[a:b] for a, b in spans] == [m1, m2, noun]


def test_word_spans_refuse_a_phrase_whose_modifiers_are_not_its_words():
    assert word_spans("This is a big red car.", "a big red car", "red", "big") is None
    assert word_spans("This is a car.", "a big red car", "big", "red") is None


def test_a_words_pieces_are_the_tokens_overlapping_it():
    offsets = [(0, 0), (0, 2), (3, 7), (7, 10), (11, 14), (0, 0)]  # [CLS] He dipl omat was [SEP]
    assert pieces(offsets, (3, 10)) == [2, 3]
    assert pieces(offsets, (11, 14)) == [4]


def test_the_modifier_split_keeps_each_word_in_one_split_and_every_category_in_each():
    items = [
        Item(p, pos, f"{category}{w}", category)
        for category in MODIFIER_PROBES.categories
        for w in range(5)
        for p in range(3)
        for pos in (0, 1)
    ]
    splits = modifier_split(items, MODIFIER_PROBES.categories, seed=0)
    split_of = {}
    for item, split in zip(items, splits, strict=True):
        assert split_of.setdefault(item.word, split) == split
    assert {(s, i.category) for s, i in zip(splits, items, strict=True)} == {
        (s, c) for s in ("train", "validation", "test") for c in MODIFIER_PROBES.categories
    }
    with pytest.raises(ValueError, match="too few modifier words"):
        modifier_split(items[:12], MODIFIER_PROBES.categories, seed=0)


def test_attention_to_a_word_sums_its_pieces_and_averages_heads_and_m1s_pieces():
    weights = np.zeros((1, 2, 4, 4))
    weights[0, 0, 0] = [0.1, 0.2, 0.3, 0.4]  # head 0, from token 0
    weights[0, 1, 0] = [0.4, 0.3, 0.2, 0.1]
    assert attention_to(weights, [0], [2, 3])[0] == pytest.approx(0.5)
    assert attention_to(weights, [0, 1], [2, 3])[0] == pytest.approx(0.25)  # token 1 attends 0


def test_a_config_without_modifiers_is_refused_by_name():
    class Split:
        column_names = ["id", "premise", "hypothesis", "label"]

    class Bench:
        benchmark, config, path, splits = "rnpc", "other", "hub/x", {"test": Split()}

    with pytest.raises(ValueError, match="has no modifiers to probe .*np"):
        modifier_probes(Bench())

    Bench.benchmark = "seti"
    with pytest.raises(ValueError, match="no phrases with modifier categories"):
        modifier_probes(Bench())


@pytest.mark.slow
def test_probe_edges_keeps_modifiers_apart_and_scores_its_rows(rnpc, tmp_path):
    out = tmp_path / "edges"
    minilm = str(model_path("minilm"))
    analysis = run_probe_edges(
        str(rnpc), "spte", out, [minilm], max_phrases=40, layers=[0, -1], grid=SMALL_GRID
    )
    split = analysis["modifier_split"]
    assert not set(split["test"]) & (set(split["train"]) | set(split["validation"]))
    model = analysis["models"][0]
    assert [layer["layer"] for layer in model["layers"]] == [0, 6]
    assert analysis["settings"]["grid_fitted"] == 4
    rows = [json.loads(line) for line in (out / "probe-edges-spte.rows.jsonl").open()]
    assert len(rows) == analysis["items"]["test"] and {r["modifier"] for r in rows} <= set(
        split["test"]
    )
    name = model["model"]
    right = np.mean([r["predictions"][name] == r["label"] for r in rows])
    assert model["accuracy"] == pytest.approx(right)
    assert json.loads((out / "probe-edges-spte.json").read_text())["compsem_analysis"] == 1


@pytest.mark.slow
def test_probe_scope_ratio_equals_a_direct_computation_and_is_on_the_page(rnpc, tmp_path):
    out = tmp_path / "scope"
    minilm = str(model_path("minilm"))
    analysis = run_probe_scope(str(rnpc), "spte", out, [minilm], max_phrases=6)
    rows = [json.loads(line) for line in (out / "probe-scope-spte.rows.jsonl").open()]
    assert len(rows) == analysis["settings"]["phrases"] == 6
    assert all(r["m1"] in analysis["modifiers"] for r in rows)
    row = rows[0]
    tokenizer = AutoTokenizer.from_pretrained(minilm)
    model = AutoModel.from_pretrained(minilm, attn_implementation="eager").eval()
    encoded = tokenizer(row["text"], return_offsets_mapping=True, return_tensors="pt")
    offsets = encoded.pop("offset_mapping")[0].tolist()
    with torch.no_grad():
        last = model(**encoded, output_attentions=True).attentions[-1][0].mean(0).numpy()
    start = row["text"].find(row["phrase"])
    words = row["phrase"].split(" ")[-3:]
    spans, at = [], start + len(row["phrase"]) - len(" ".join(words))
    for word in words:
        spans.append((at, at + len(word)))
        at += len(word) + 1
    m1, m2, noun = (pieces(offsets, span) for span in spans)
    to_m2, to_noun = (last[m1][:, target].sum(1).mean() for target in (m2, noun))
    assert row["r"][analysis["models"][0]["model"]][-1] == pytest.approx(
        to_m2 / (to_m2 + to_noun), abs=1e-5
    )
    assert len(analysis["models"][0]["layers"]) == model.config.num_hidden_layers

    edges = tmp_path / "edges"
    run_probe_edges(str(rnpc), "spte", edges, [minilm], max_phrases=30, grid=SMALL_GRID)
    results = read([tmp_path])  # the report's one walk finds the analyses, with no run beside
    assert sorted(a["analysis"] for a in results.analyses) == ["probe-edges", "probe-scope"]
    markdown, plots = report_page.build(results, tmp_path / "page")
    assert "Edge probing of modifier category (RNPC §7, Fig. 4)" in markdown
    assert "Modifier scope, attention ratio r (RNPC §7, Fig. 5)" in markdown
    assert {"probe-edges-spte.svg", "probe-scope-spte.svg"} <= set(plots)
    assert all(text.startswith("<svg") for text in plots.values())


@pytest.mark.slow
def test_bad_models_are_one_clear_error_and_nothing_is_written(rnpc, tmp_path, capsys):
    causal = tmp_path / "causal"
    config = GPT2Config(n_layer=1, n_head=2, n_embd=8, vocab_size=30522, n_positions=64)
    GPT2LMHeadModel(config).save_pretrained(causal)
    AutoTokenizer.from_pretrained(str(model_path("minilm"))).save_pretrained(causal)
    recurrent = tmp_path / "mamba"  # a state-space model: no attention at all
    MambaModel(
        MambaConfig(vocab_size=30522, hidden_size=8, num_hidden_layers=1, state_size=2)
    ).save_pretrained(recurrent)
    AutoTokenizer.from_pretrained(str(model_path("minilm"))).save_pretrained(recurrent)
    cases = [
        ("probe-scope", str(causal), "is a causal LM: M1 cannot attend"),
        ("probe-scope", str(recurrent), "returns no attention weights"),
        ("probe-edges", "nobody/no-such-model", "cannot load 'nobody/no-such-model'"),
    ]
    capsys.readouterr()  # the saving's progress bars
    for command, model, message in cases:
        out = tmp_path / f"out-{command}"
        argv = [command, "--dataset", str(rnpc), "--config", "spte", "--model", model]
        assert main([*argv, "--max-phrases", "40", "--out", str(out)]) == 2
        err = capsys.readouterr().err  # after the loading's progress bars: one line
        errors = [line for line in err.splitlines() if line.startswith(f"compsem {command}")]
        assert len(errors) == 1 and message in errors[0] and "Traceback" not in err
        assert not out.exists() or not any(out.iterdir())
    with pytest.raises(SystemExit) as stopped:
        main(["probe-edges", "--dataset", str(rnpc), "--config", "spte", "--model", "./nope",
              "--out", str(tmp_path / "x")])  # fmt: skip
    assert stopped.value.code == 2 and "not found" in capsys.readouterr().err
