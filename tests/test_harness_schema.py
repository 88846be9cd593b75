"""The harness reads inputs, labels, grouping fields and presets from a config's features; maps a
model's labels by its id2label; scores overall and per group (no model needed)."""

import datasets
import numpy as np
import pytest

from compsem.builders.plane.config import ITEM_FEATURES
from compsem.builders.plane.prompts import PROMPT_FEATURES
from compsem.builders.rnpc.config import FEATURES as RNPC_FEATURES
from compsem.harness.data.presets import PRESETS, detect_preset, get_preset
from compsem.harness.data.schema import infer_schema
from compsem.harness.models.device import resolve
from compsem.harness.probing.label_mapping import label_mapping, parse_overrides
from compsem.harness.results.scores import OTHER, grouped_scores, scores

BINARY = datasets.ClassLabel(names=["non_entailment", "entailment"])
TEXT = datasets.Value("string")
RNPC_SPTE = datasets.Features(
    {"premise": TEXT, "hypothesis": TEXT, "label": BINARY, "combo": TEXT, "rule": TEXT}
)
RNPC_EPC = datasets.Features(
    {
        "event1": TEXT,
        "event2": TEXT,
        "label": datasets.ClassLabel(
            names=["less_plausible", "equally_plausible", "more_plausible"]
        ),
        "combo": TEXT,
    }
)
SETI = datasets.Features(
    {
        "premise": TEXT,
        "hypothesis": TEXT,
        "label": BINARY,
        "kind": TEXT,
        "inference_type": TEXT,
        "rule": TEXT,
        "setting": TEXT,
    }
)
BOOQA_H_ONLY = datasets.Features(
    {
        "hypothesis": TEXT,
        "label": datasets.ClassLabel(names=["false", "true"]),
        "bundle_id": TEXT,
        "window": TEXT,
    }
)
MNLI = {0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"}


def test_plane_trains_on_the_single_sentence_and_groups_by_class_and_inference_type():
    preset = detect_preset(ITEM_FEATURES)
    schema = infer_schema(ITEM_FEATURES, preset.input_form)
    assert preset.name == "plane" and (preset.epochs, preset.max_length) == (1.0, 12)
    assert schema.inputs == ("sentence",)
    assert schema.pair == ("premise", "hypothesis")
    assert schema.group_fields == ("adjective_class", "inference_type")
    assert schema.label_names == ("non_entailment", "entailment")
    assert schema.positive_label == 1
    assert infer_schema(ITEM_FEATURES, "pair").inputs == ("premise", "hypothesis")


def test_plane_two_shot_is_a_prompt_config_grouped_by_template_and_verbaliser():
    schema = infer_schema(PROMPT_FEATURES)
    assert schema.prompt == "prompt"
    assert schema.group_fields == ("adjective_class", "inference_type", "template", "verbaliser")


def test_rnpc_seti_and_booqa_are_read_from_their_columns():
    spte = infer_schema(RNPC_SPTE, detect_preset(RNPC_SPTE).input_form)
    assert detect_preset(RNPC_SPTE).name == "rnpc"
    assert spte.inputs == ("premise", "hypothesis") and spte.group_fields == ("combo", "rule")
    epc = infer_schema(RNPC_EPC)
    assert epc.inputs == ("event1", "event2") and epc.positive_label is None
    assert len(epc.label_names) == 3
    # generated EPC rows are also scored by the stance of their event (RNPC 3.5.0)
    assert infer_schema(RNPC_FEATURES["epc"]).group_fields == ("combo", "rule", "event_stance")
    seti = detect_preset(SETI)
    assert seti.name == "seti" and (seti.batch_size, seti.max_length) == (16, 128)
    assert seti.curve_base_split == "train" and seti.shots[-1] == 128
    assert infer_schema(SETI).group_fields == ("inference_type", "rule", "setting", "kind")
    h_only = infer_schema(BOOQA_H_ONLY)
    assert detect_preset(BOOQA_H_ONLY).name == "booqa"
    assert h_only.inputs == ("hypothesis",) and h_only.positive_label == 1


def test_schema_errors_name_the_columns():
    unlabeled = datasets.Features({"sentence": TEXT, "label": datasets.Value("int64")})
    with pytest.raises(ValueError, match="no ClassLabel 'label'"):
        infer_schema(unlabeled)
    with pytest.raises(ValueError, match="--input pair needs premise/hypothesis"):
        infer_schema(BOOQA_H_ONLY, "pair")
    with pytest.raises(ValueError, match="unknown preset 'glue'"):
        get_preset("glue", ITEM_FEATURES)
    assert get_preset("seti", ITEM_FEATURES) is PRESETS["seti"]


def test_preset_overrides_replace_only_given_settings():
    preset = PRESETS["plane"].with_overrides(epochs=2.0, batch_size=None)
    assert (preset.epochs, preset.batch_size, preset.max_length) == (2.0, 8, 12)


def test_the_preset_note_says_which_settings_a_run_overrode():
    plane = PRESETS["plane"]
    ran = {"epochs": 1.0, "batch_size": 8, "learning_rate": 5e-5, "max_length": 12}
    assert plane.note_for(ran) == plane.note
    note = plane.note_for({**ran, "epochs": 3.0, "max_length": 128})
    assert note.startswith(plane.note)
    assert note.endswith("overridden here: epochs 3 (preset 1), max_length 128 (preset 12)")
    assert plane.note_for({**ran, "epochs": plane.curve_epochs}, "curve") == plane.note


def test_nli_labels_map_to_entailment_against_the_sum_of_the_others():
    matrix = label_mapping(MNLI, ["non_entailment", "entailment"])
    probabilities = np.array([[0.5, 0.2, 0.3], [0.1, 0.3, 0.6]])
    ours = probabilities @ matrix
    np.testing.assert_allclose(ours, [[0.7, 0.3], [0.4, 0.6]])
    # BoOQA: an entailed hypothesis is true.
    np.testing.assert_array_equal(label_mapping(MNLI, ["false", "true"]), [[1, 0], [1, 0], [0, 1]])


def test_adept_labels_map_onto_epc_by_summing():
    adept = {
        0: "impossible",
        1: "less likely",
        2: "equally likely",
        3: "more likely",
        4: "necessarily true",
    }
    matrix = label_mapping(adept, ["less_plausible", "equally_plausible", "more_plausible"])
    np.testing.assert_array_equal(matrix.argmax(1), [0, 0, 1, 2, 2])


def test_unmappable_labels_are_a_clear_error():
    with pytest.raises(
        ValueError, match=r"cannot map the model's label\(s\) 'LABEL_0'.*--label-map"
    ):
        label_mapping({0: "LABEL_0", 1: "LABEL_1"}, ["non_entailment", "entailment"])
    epc = ["less_plausible", "equally_plausible", "more_plausible"]
    with pytest.raises(ValueError, match="cannot map .*'ENTAILMENT'"):
        label_mapping(MNLI, epc)  # an NLI model does not rate plausibility
    with pytest.raises(ValueError, match="no label of the model .* maps to equally_plausible"):
        label_mapping({0: "impossible", 1: "more likely"}, epc)
    overrides = parse_overrides(["LABEL_0=non_entailment", "LABEL_1=entailment"])
    matrix = label_mapping(
        {0: "LABEL_0", 1: "LABEL_1"}, ["non_entailment", "entailment"], overrides
    )
    np.testing.assert_array_equal(matrix, np.eye(2))
    with pytest.raises(ValueError, match="MODEL_LABEL=OUR_LABEL"):
        parse_overrides(["LABEL_0"])
    with pytest.raises(ValueError, match="not labels of this config"):
        label_mapping(MNLI, ["non_entailment", "entailment"], {"neutral": "maybe"})


def test_scores_count_predictions_outside_the_labels_as_errors():
    references = np.array([1, 1, 0, 0, 1])
    predictions = np.array([1, OTHER, 0, 1, 1])
    result = scores(references, predictions, ["non_entailment", "entailment"])
    assert result["accuracy"] == pytest.approx(3 / 5)
    # entailment: tp 2, predicted 3, actual 3 → 2/3; non_entailment: tp 1, predicted 1, actual 2.
    assert result["f1"] == pytest.approx({"entailment": 2 / 3, "non_entailment": 2 / 3})
    assert result["macro_f1"] == pytest.approx(2 / 3)
    assert result["weighted_f1"] == pytest.approx(2 / 3)


def test_grouped_scores_break_down_by_each_field():
    references = [1, 1, 0, 0]
    predictions = [1, 0, 0, 0]
    result = grouped_scores(
        references, predictions, ["no", "yes"], {"adjective_class": ["I", "I", "O", "S"]}
    )
    groups = result["by_group"]["adjective_class"]
    assert groups["I"]["accuracy"] == 0.5 and groups["I"]["n"] == 2
    assert groups["O"]["accuracy"] == 1.0 and groups["S"]["n"] == 1
    assert groups["I"]["macro_f1"] is None  # both its rows are "yes": one true class
    with pytest.raises(ValueError, match="3 predictions for 4 references"):
        scores(references, predictions[:3], ["no", "yes"])


def test_f1_is_null_for_a_group_holding_one_true_class():
    """A constant predictor of a one-class group would score macro-F1 1.0; it gets None, and
    accuracy (which means what it says) stays."""
    constant = [1, 1, 1, 1]
    result = grouped_scores(
        [1, 1, 0, 0], constant, ["no", "yes"], {"adjective_class": ["I", "I", "O", "O"]}
    )
    assert result["macro_f1"] == pytest.approx(1 / 3)  # 0 for "no", 2/3 for "yes"
    for group in result["by_group"]["adjective_class"].values():
        assert group["macro_f1"] is None and group["weighted_f1"] is None
    assert result["by_group"]["adjective_class"]["I"]["accuracy"] == 1.0
    alone = scores([0, 0, 0], [0, 0, 1], ["no", "yes"])
    assert alone["f1"] is None and alone["macro_f1"] is None
    assert alone["accuracy"] == pytest.approx(2 / 3)


def test_cpu_placement_is_fp32_and_impossible_requests_are_refused():
    placement = resolve("cpu")
    assert (placement.device, placement.precision) == ("cpu", "fp32")
    with pytest.raises(ValueError, match="fp16 is not supported on CPU"):
        resolve("cpu", "fp16")
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        resolve("tpu")
    import torch

    if not torch.cuda.is_available():
        with pytest.raises(RuntimeError, match="no CUDA device"):
            resolve("cuda")
        assert resolve("auto").device in ("cpu", "mps")
    else:
        bf16 = torch.cuda.is_bf16_supported()
        assert resolve("auto").precision == ("bf16" if bf16 else "fp16")


@pytest.mark.parametrize("has_bf16, expected", [(True, "bf16"), (False, "fp16")])
def test_gpus_get_bf16_where_they_have_it_and_fp16_otherwise(monkeypatch, has_bf16, expected):
    """The choice of precision on a GPU, with torch's view of the device patched: no GPU is
    lent to CI, so this is the only check of the decision there."""
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *args, **kwargs: has_bf16)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *args: "Tesla V100")
    placement = resolve("auto")
    assert (placement.device, placement.precision) == ("cuda", expected)
    assert placement.describe() == f"Tesla V100 ({expected})"
    assert resolve("cuda", "fp32").precision == "fp32"
    if not has_bf16:
        with pytest.raises(RuntimeError, match="Tesla V100 has no bf16; use --precision fp16"):
            resolve("cuda", "bf16")
