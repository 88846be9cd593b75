"""Fine-tuning a sequence classifier with ``transformers.Trainer``."""

from __future__ import annotations

import time
from contextlib import nullcontext
from dataclasses import asdict, dataclass
from pathlib import Path

import datasets
import torch
import transformers
from transformers import (
    AutoModelForSequenceClassification,
    AutoTokenizer,
    DataCollatorWithPadding,
    PrinterCallback,
    ProgressCallback,
    Trainer,
    TrainingArguments,
)

from compsem.harness.models.cpu_allocator import freed_memory_kept
from compsem.harness.models.device import Placement, out_of_memory


class BarOnlyProgress(ProgressCallback):
    """The Trainer's progress bar without the metrics dict it writes under the bar at the end:
    the harness reports loss, time and throughput in its own results."""

    def on_log(self, args, state, control, logs=None, **kwargs):
        pass


@dataclass(frozen=True)
class TrainSettings:
    """What a fine-tune does; recorded verbatim in every result file."""

    epochs: float
    batch_size: int
    learning_rate: float
    max_length: int
    eval_batch_size: int = 64
    weight_decay: float = 0.0
    warmup: float = 0.0

    def as_dict(self) -> dict:
        return asdict(self)


def load_tokenizer(model_name: str):
    """The model's tokenizer; one without a padding token (GPT-2) pads with its end token."""
    try:
        tokenizer = AutoTokenizer.from_pretrained(model_name)
    except (OSError, ValueError) as error:
        raise OSError(
            f"cannot load the tokenizer of {model_name!r}: {_first_line(error)}"
        ) from None
    if tokenizer.pad_token is None and tokenizer.eos_token is not None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer


def align_padding(model, tokenizer):
    """Tell a model without a padding id (GPT-2) which one the batches use."""
    if getattr(model.config, "pad_token_id", None) is None:
        model.config.pad_token_id = tokenizer.pad_token_id
    return model


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


def load_classifier(model_name: str, label_names: tuple[str, ...]):
    """A sequence classifier with one output per label; a head of another size is replaced."""
    try:
        # A head of another size (a base model, an NLI model's 3 ways) starts fresh; transformers
        # warns about it, which is noise here.
        verbosity = transformers.logging.get_verbosity()
        transformers.logging.set_verbosity_error()
        return AutoModelForSequenceClassification.from_pretrained(
            model_name,
            num_labels=len(label_names),
            id2label=dict(enumerate(label_names)),
            label2id={name: index for index, name in enumerate(label_names)},
            ignore_mismatched_sizes=True,
        )
    except (OSError, ValueError) as error:
        raise OSError(f"cannot load {model_name!r} as a classifier: {_first_line(error)}") from None
    finally:
        transformers.logging.set_verbosity(verbosity)


def training_arguments(
    settings: TrainSettings, seed: int, placement: Placement, output_dir: Path, progress: bool
) -> TrainingArguments:
    return TrainingArguments(
        output_dir=str(output_dir),
        num_train_epochs=settings.epochs,
        per_device_train_batch_size=settings.batch_size,
        per_device_eval_batch_size=settings.eval_batch_size,
        learning_rate=settings.learning_rate,
        weight_decay=settings.weight_decay,
        warmup_steps=settings.warmup,
        seed=seed,
        data_seed=seed,
        bf16=placement.precision == "bf16",
        fp16=placement.precision == "fp16",
        use_cpu=placement.device == "cpu",
        eval_strategy="no",
        save_strategy="no",
        logging_strategy="no",
        report_to="none",
        disable_tqdm=not progress,
        dataloader_pin_memory=placement.device == "cuda",
    )


def fine_tune(
    model,
    tokenizer,
    train: datasets.Dataset,
    settings: TrainSettings,
    seed: int,
    placement: Placement,
    output_dir: Path,
    progress: bool = True,
    collator=None,
    trainer_class=Trainer,
) -> dict:
    """Train ``model`` in place on an encoded split; returns loss, time and throughput.
    ``collator`` and ``trainer_class`` replace the padding collator and ``Trainer`` for a
    model trained otherwise (S&S's patterns, ``compsem.harness.training.patterns``)."""
    if len(train) == 0:
        raise ValueError("the training split is empty: nothing to fine-tune on")
    transformers.set_seed(seed)
    args = training_arguments(settings, seed, placement, output_dir, progress)
    collator = collator or DataCollatorWithPadding(
        tokenizer, pad_to_multiple_of=8 if placement.device == "cuda" else None
    )
    trainer = trainer_class(
        model=model,
        args=args,
        train_dataset=train,
        data_collator=collator,
        processing_class=tokenizer,
    )
    if progress:
        trainer.remove_callback(ProgressCallback)
        trainer.add_callback(BarOnlyProgress)
    else:
        trainer.remove_callback(PrinterCallback)  # it prints the final metrics dict
    start = time.perf_counter()
    try:
        with freed_memory_kept() if placement.device == "cpu" else nullcontext():
            output = trainer.train()
    except torch.OutOfMemoryError:
        raise out_of_memory(
            model.name_or_path, placement, settings.batch_size, settings.max_length
        ) from None
    seconds = time.perf_counter() - start
    examples = len(train) * settings.epochs
    return {
        "training_loss": float(output.training_loss),
        "steps": int(output.global_step),
        "seconds": seconds,
        "examples_per_second": examples / seconds,
    }
