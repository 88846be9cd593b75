"""A paper's training and evaluation settings, which the harness applies to a benchmark's configs.

Each benchmark's spec holds its preset (``compsem.builders.<name>.spec``); the harness picks one
by the columns of the config it runs (``compsem/harness/data/presets.py``). Where a paper is silent
the preset keeps the Hugging Face Trainer defaults the papers report fine-tuning with ("the
default setting", SETI Appendix C): learning rate 5e-5, no warm-up, no weight decay.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from compsem.benchmark.prompts import PromptPatterns


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
        prompt_patterns: what ``train --method ss`` puts a pair of propositions into (BoOQA's
            S&S), for any config with their columns; None where the paper has none.
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
    prompt_patterns: PromptPatterns | None = None
    note: str = ""

    def note_for(self, settings: dict, command: str = "train") -> str:
        """The note, plus every fine-tuning setting of ``settings`` that differs from this
        preset's (a result's note then says what was actually run)."""
        expected = {
            "epochs": self.curve_epochs if command == "curve" else self.epochs,
            "batch_size": self.batch_size,
            "learning_rate": self.learning_rate,
            "max_length": self.max_length,
        }
        changed = [
            f"{name} {settings[name]:g} (preset {value:g})"
            for name, value in expected.items()
            if name in settings and settings[name] != value
        ]
        return f"{self.note}; overridden here: {', '.join(changed)}" if changed else self.note

    def with_overrides(self, **overrides) -> Preset:
        """A copy with the given settings replaced; ``None`` values are ignored."""
        return replace(
            self, **{key: value for key, value in overrides.items() if value is not None}
        )
