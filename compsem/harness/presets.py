"""The papers' settings as presets, picked by a config's features (or named with ``--preset``).

Where a paper is silent the preset keeps the Hugging Face Trainer defaults the papers report
fine-tuning with ("the default setting", SETI Appendix C): learning rate 5e-5, no warm-up, no
weight decay.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import datasets


@dataclass(frozen=True)
class Preset:
    """Training and evaluation settings of one paper.

    Attributes:
        name: the benchmark.
        signature: columns whose presence identifies the benchmark's configs.
        input_form: ``single``, ``pair`` or ``auto`` (see ``schema.infer_schema``).
        epochs, batch_size, learning_rate, max_length: fine-tuning settings.
        shots: the few-shot grid of ``curve``.
        curve_epochs: epochs of each few-shot fine-tune.
        curve_base_split: a split to fine-tune on before the shots (SETI §5.2), else None.
        curve_pool_splits: where the k-shot sets come from, first present wins (prefixes).
        max_evidence: evidence per hypothesis in ``score`` (BoOQA Appendix G).
        note: where the settings come from.
    """

    name: str
    signature: frozenset[str] = field(default_factory=frozenset)
    input_form: str = "auto"
    epochs: float = 3.0
    batch_size: int = 16
    learning_rate: float = 5e-5
    max_length: int = 128
    shots: tuple[int, ...] = (0, 10, 25, 50, 100)
    curve_epochs: float = 3.0
    curve_base_split: str | None = None
    curve_pool_splits: tuple[str, ...] = ("few_shot", "train")
    max_evidence: int = 3200
    note: str = ""

    def with_overrides(self, **overrides) -> Preset:
        """A copy with the given settings replaced; ``None`` values are ignored."""
        return replace(
            self, **{key: value for key, value in overrides.items() if value is not None}
        )


PRESETS = {
    "plane": Preset(
        name="plane",
        signature=frozenset({"adjective_class", "inference_type"}),
        input_form="single",
        epochs=1.0,
        batch_size=8,
        max_length=12,
        note="PLANE §6.1: BERT-base sequence classification on `sentence`, 1 epoch, input "
        "length 12; batch size and learning rate the Trainer defaults (the paper is silent)",
    ),
    "rnpc": Preset(
        name="rnpc",
        signature=frozenset({"combo"}),
        input_form="pair",
        epochs=3.0,
        batch_size=16,
        learning_rate=1e-5,
        max_length=128,
        shots=(0, 10, 25, 50, 75, 100, 125, 150, 175, 200),
        curve_epochs=3.0,
        note="RNPC §6 and Appendix C: 10 to 200 examples (prefixes of train); batch, learning "
        "rate, epochs and length from the paper's search ranges (16, 1e-5, 3, 128)",
    ),
    "seti": Preset(
        name="seti",
        signature=frozenset({"kind", "rule"}),
        input_form="pair",
        epochs=3.0,
        batch_size=16,
        max_length=128,
        shots=(0, 1, 2, 4, 8, 16, 32, 64, 128),
        curve_epochs=3.0,
        curve_base_split="train",
        note="SETI §4.2 and §5.2: batch 16, max length 128, Trainer defaults otherwise; few-shot "
        "0 to 128 shots from `few_shot` after training on `train`, 3 epochs each",
    ),
    "booqa": Preset(
        name="booqa",
        signature=frozenset({"evidence"}),
        input_form="auto",
        max_length=128,
        note="BoOQA §4.2 and Appendix G: max over up to 3,200 pieces of evidence; H-only "
        "training on `hypothesis` (Appendix E.1)",
    ),
    "default": Preset(name="default", note="Trainer defaults, batch 16, length 128"),
}


def detect_preset(features: datasets.Features) -> Preset:
    """The preset whose signature columns the features hold, else ``default``."""
    for preset in PRESETS.values():
        if preset.signature and preset.signature <= set(features):
            return preset
    # BoOQA H-only configs mask evidence away but keep the bundles and windows.
    if {"bundle_id", "window"} <= set(features):
        return PRESETS["booqa"]
    return PRESETS["default"]


def get_preset(name: str, features: datasets.Features) -> Preset:
    """``auto`` detects the preset from the features; otherwise the named one."""
    if name == "auto":
        return detect_preset(features)
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; choose auto or one of {', '.join(PRESETS)}")
    return PRESETS[name]
