"""The harness on real exports of RNPC and SETI, as a third party runs it on a build: the schema,
preset and grouping fields come from the exported features, not from test fixtures.

MiniLM is fine-tuned on a few rows only: these tests check that each command reads these
benchmarks end to end and books its scores per group, not how well MiniLM does.
"""

import pytest

from compsem.builders.rnpc.labels.rules import EPC_LABELS
from compsem.harness.results.files import read_results
from compsem.publish.export import export_benchmark
from tests.harness_data import compsem, minilm_with_head

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_thread")]
# An ADEPT-style plausibility model's labels, which RNPC §5 mapped onto EPC's three classes.
ADEPT_LABELS = ["impossible", "less_likely", "equally_likely", "more_likely", "necessarily_true"]
SMALL = "--device cpu --seeds 1 --epochs 1 --max-train-examples 16"


@pytest.fixture(scope="module")
def rnpc(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports") / "rnpc"
    export_benchmark("rnpc", out, ["spte", "epc"])
    return out


@pytest.fixture(scope="module")
def seti(tmp_path_factory):
    out = tmp_path_factory.mktemp("exports") / "seti"
    export_benchmark("seti", out, ["task1_nontrivial"])
    return out


def check_groups(scores: dict, field: str) -> dict:
    """The per-group scores of ``field`` partition the evaluated rows and average to the total."""
    groups = scores["by_group"][field]
    assert sum(g["n"] for g in groups.values()) == scores["n"]
    weighted = sum(g["n"] * g["accuracy"] for g in groups.values()) / scores["n"]
    assert weighted == pytest.approx(scores["accuracy"])
    return groups


def test_train_on_rnpc_spte_reads_pairs_and_scores_each_combo(rnpc, tmp_path):
    assert (
        compsem(f"train --config spte {SMALL} --max-eval-examples 64", dataset=rnpc, out=tmp_path)
        == 0
    )
    (result,) = read_results([tmp_path])
    settings = result["settings"]
    assert settings["inputs"] == ["premise", "hypothesis"]
    assert (settings["max_length"], settings["learning_rate"]) == (128, 1e-5)  # RNPC preset
    assert settings["preset_note"].startswith("RNPC")
    assert settings["preset_note"].endswith("overridden here: epochs 1 (preset 3)")
    combos = check_groups(result["scores"], "combo")
    assert len(combos) >= 2 and all("+" in combo or combo for combo in combos)
    assert 0 <= result["scores"]["macro_f1"] <= 1


def test_zero_shot_on_rnpc_epc_maps_plausibility_labels_onto_its_classes(rnpc, tmp_path):
    model = minilm_with_head(tmp_path / "adept-minilm", ADEPT_LABELS)
    compsem(
        "zero-shot --config epc --device cpu --max-eval-examples 48",
        dataset=rnpc,
        model=model,
        out=tmp_path / "run",
    )
    (result,) = read_results([tmp_path / "run"])
    assert result["scores"]["n"] == 48
    assert result["settings"]["label_mapping"] == {
        "impossible": "less_plausible",
        "less_likely": "less_plausible",
        "equally_likely": "equally_plausible",
        "more_likely": "more_plausible",
        "necessarily_true": "more_plausible",
    }
    assert set(result["settings"]["label_mapping"].values()) == set(EPC_LABELS)
    check_groups(result["scores"], "combo")


def test_curve_on_seti_fine_tunes_on_train_then_draws_shots_from_few_shot(seti, tmp_path):
    compsem(
        f"curve --config task1_nontrivial --shots 0 4 {SMALL} --max-eval-examples 32",
        dataset=seti,
        out=tmp_path,
    )
    (result,) = read_results([tmp_path])
    settings = result["settings"]
    assert (settings["pool_split"], settings["base_split"]) == ("few_shot", "train")
    assert settings["inputs"] == ["premise", "hypothesis"] and settings["max_length"] == 128
    points = result["scores"]["points"]
    assert [p["shots"] for p in points] == [0, 4]
    for point in points:
        check_groups(point, "rule")
    assert (tmp_path / "curve-task1_nontrivial.png").read_bytes()[:4] == b"\x89PNG"
