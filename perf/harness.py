"""Benchmark the harness's training and evaluation throughput against a plain PyTorch loop.

For each model (the offline MiniLM, and a BERT-base-sized model built from ``BertConfig()`` with
random weights), on CPU and on a GPU when there is one: training examples a second of the
harness's ``transformers.Trainer`` fine-tune and evaluation examples a second of its prediction
loop, against a hand-written loop doing the same work on the same tokenised PLANE rows (same
batch size, fused AdamW, linear decay, gradient clipping at 1.0, the same precision). Target: the harness
keeps ≥ 90% of the plain loop's throughput. Each side runs ``--repeats`` times, alternating, and
the best time counts (the machine may be shared).

The rows are PLANE items (Table 1 labels, real WordNet hypernyms) from the builder's own
``item_pool`` over the shipped adjective lexicon and common WordNet nouns, so no corpus parse is
needed; ``--dataset DIR --config NAME`` uses an exported config instead.

The ``smollm2`` row (``perf/harness_llm.py``) times ``compsem llm``'s scoring loop against a
plain loop of ``model(**batch)`` over the same padded batches, on ``--llm-rows`` PLANE rows.

Usage: python perf/harness.py [--train 512] [--eval 1024] [--threads N]
                              [--models minilm bert-base smollm2] [--llm-rows 256]
                              [--out perf/results/harness.json]
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
import time
from collections import Counter
from pathlib import Path

import datasets
import numpy as np
import torch
import transformers
from harness_llm import measure_llm  # perf/ is the script's folder, so on its import path
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification, BertConfig, DataCollatorWithPadding

from compsem.builders.plane.config import ITEM_FEATURES, LABEL_NAMES
from compsem.builders.plane.corpus.extraction import an_pair_table
from compsem.builders.plane.items.hypernyms import hypernym_table
from compsem.builders.plane.items.pool import item_pool
from compsem.harness.data.encode import encode
from compsem.harness.models.device import Placement, resolve
from compsem.harness.models.inference import autocast, predict_logits
from compsem.harness.models.loading import default_model
from compsem.harness.training.trainer import (
    TrainSettings,
    fine_tune,
    load_classifier,
    load_tokenizer,
)
from compsem.resources.lexicon import load_adjective_lexicon

# Evaluation is cheap next to training: time it more often, so a busy moment counts less.
EVAL_REPEATS = 3
NOUNS = (
    "gun dog car doctor house cat teacher chair knife horse ship coat bird apple river city "
    "student bottle table window student lawyer soldier painting bridge church garden engine"
).split()


def plane_rows(n: int, seed: int = 0) -> datasets.Dataset:
    """``n`` PLANE items of the shipped lexicon's adjectives with common nouns."""
    lexicon = load_adjective_lexicon()
    pairs = an_pair_table(Counter({(a, noun): 1 for a in lexicon.classes for noun in NOUNS}))
    pool = item_pool(pairs, lexicon.classes, hypernym_table(NOUNS, 3))
    rows = np.random.default_rng(seed).choice(len(pool), size=min(n, len(pool)), replace=False)
    table = pool.take(np.sort(rows)).cast(ITEM_FEATURES.arrow_schema)
    return datasets.Dataset(table, info=datasets.DatasetInfo(features=ITEM_FEATURES))


def exported_rows(folder: str, config: str, n_train: int, n_eval: int):
    from compsem.harness.data.benchmark import load_benchmark

    bench = load_benchmark(folder, config)
    train = bench.train_split()
    test = bench.split("test")
    return train.select(range(min(n_train, len(train)))), test.select(range(min(n_eval, len(test))))


def bert_base_folder(tokenizer, folder: Path) -> str:
    """A BERT-base-sized classifier (110M parameters) with random weights, saved to ``folder``."""
    transformers.set_seed(0)
    config = BertConfig(vocab_size=tokenizer.vocab_size, num_labels=len(LABEL_NAMES))
    AutoModelForSequenceClassification.from_config(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return str(folder)


def plain_training(model, tokenizer, encoded, settings: TrainSettings, placement: Placement, seed):
    """The same fine-tune, by hand: shuffled batches, AdamW, linear decay, clipping, autocast."""
    torch.manual_seed(seed)
    model.to(placement.device).train()
    loader = DataLoader(
        encoded.remove_columns(["length"]),
        batch_size=settings.batch_size,
        shuffle=True,
        collate_fn=DataCollatorWithPadding(tokenizer),
    )
    steps = math.ceil(len(loader) * settings.epochs)
    # Fused AdamW, as the Trainer's default optimiser (adamw_torch_fused) is.
    optimizer = torch.optim.AdamW(
        model.parameters(), lr=settings.learning_rate, weight_decay=0.0, fused=True
    )
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1 - step / steps)
    start = time.perf_counter()
    for _ in range(math.ceil(settings.epochs)):
        for batch in loader:
            batch = {name: tensor.to(placement.device) for name, tensor in batch.items()}
            with autocast(placement):
                loss = model(**batch).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
    if placement.device == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start


@torch.inference_mode()
def plain_evaluation(model, tokenizer, encoded, batch_size: int, placement: Placement):
    model.to(placement.device).eval()
    loader = DataLoader(
        encoded.remove_columns(["length", "labels"]),
        batch_size=batch_size,
        collate_fn=DataCollatorWithPadding(tokenizer),
    )
    start = time.perf_counter()
    outputs = []
    with autocast(placement):
        for batch in loader:
            batch = {name: tensor.to(placement.device) for name, tensor in batch.items()}
            outputs.append(model(**batch).logits.float().cpu())
    torch.cat(outputs)
    return time.perf_counter() - start


def measure(model_name, tokenizer, train, test, settings, placement, repeats) -> dict:
    encoded_train = encode(train, tokenizer, ("sentence",), settings.max_length)
    encoded_test = encode(test, tokenizer, ("sentence",), settings.max_length)
    labels = tuple(LABEL_NAMES)
    times = {"harness_train": [], "plain_train": [], "harness_eval": [], "plain_eval": []}
    # Warm-up (first-call allocations, kernel selection) so neither side pays it.
    warm = load_classifier(model_name, labels)
    plain_training(
        warm,
        tokenizer,
        encoded_train.select(range(2 * settings.batch_size)),
        settings,
        placement,
        0,
    )
    plain_evaluation(
        warm,
        tokenizer,
        encoded_test.select(range(settings.eval_batch_size)),
        settings.eval_batch_size,
        placement,
    )
    del warm

    def harness(seed: int) -> None:
        transformers.set_seed(seed)
        model = load_classifier(model_name, labels)
        with tempfile.TemporaryDirectory() as scratch:
            stats = fine_tune(
                model, tokenizer, encoded_train, settings, seed, placement, Path(scratch), False
            )
        times["harness_train"].append(stats["seconds"])
        for _ in range(EVAL_REPEATS):
            start = time.perf_counter()
            predict_logits(model, tokenizer, encoded_test, settings.eval_batch_size, placement)
            times["harness_eval"].append(time.perf_counter() - start)

    def plain(seed: int) -> None:
        transformers.set_seed(seed)
        model = load_classifier(model_name, labels)
        times["plain_train"].append(
            plain_training(model, tokenizer, encoded_train, settings, placement, seed)
        )
        for _ in range(EVAL_REPEATS):
            times["plain_eval"].append(
                plain_evaluation(
                    model, tokenizer, encoded_test, settings.eval_batch_size, placement
                )
            )

    for repeat in range(repeats):  # alternate which side goes first
        for side in (plain, harness) if repeat % 2 == 0 else (harness, plain):
            side(repeat)
    model = load_classifier(model_name, labels)
    best = {name: min(values) for name, values in times.items()}
    trained = len(train) * settings.epochs
    result = {
        "parameters": sum(p.numel() for p in model.parameters()),
        "train_examples": len(train),
        "eval_examples": len(test),
        "harness_train_examples_per_second": trained / best["harness_train"],
        "plain_train_examples_per_second": trained / best["plain_train"],
        "harness_eval_examples_per_second": len(test) / best["harness_eval"],
        "plain_eval_examples_per_second": len(test) / best["plain_eval"],
        "seconds": times,
    }
    result["train_ratio"] = best["plain_train"] / best["harness_train"]
    result["eval_ratio"] = best["plain_eval"] / best["harness_eval"]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=512, help="training examples")
    parser.add_argument("--eval", type=int, default=1024, help="evaluation examples")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--max-length", type=int, default=12, help="PLANE §6.1's input length")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--devices", nargs="+", default=None, help="default: cpu, and cuda if any")
    parser.add_argument("--models", nargs="+", default=["minilm", "bert-base", "smollm2"])
    parser.add_argument("--llm-rows", type=int, default=256, help="PLANE rows for smollm2")
    parser.add_argument("--dataset", help="an export folder to read rows from instead")
    parser.add_argument("--config", default="goood_split_1")
    parser.add_argument("--out", type=Path, default=Path("perf/results/harness.json"))
    parser.add_argument(
        "--threads",
        type=int,
        help="torch CPU threads (default: torch's); 1 gives steady numbers on a shared machine",
    )
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    datasets.disable_progress_bars()
    if args.dataset:
        train, test = exported_rows(args.dataset, args.config, args.train, args.eval)
    else:
        rows = plane_rows(args.train + args.eval)
        train, test = rows.select(range(args.train)), rows.select(range(args.train, len(rows)))
    devices = args.devices or ["cpu", *(["cuda"] if torch.cuda.is_available() else [])]
    minilm = default_model()
    tokenizer = load_tokenizer(minilm)
    results = {
        "data": "PLANE items" if not args.dataset else f"{args.dataset}:{args.config}",
        "threads": torch.get_num_threads(),
        "target_ratio": 0.9,
        "runs": [],
    }
    with tempfile.TemporaryDirectory() as scratch:
        names = {"minilm": minilm, "bert-base": bert_base_folder(tokenizer, Path(scratch) / "bert")}
        for device in devices:
            placement = resolve(device)
            settings = TrainSettings(
                epochs=1.0,
                batch_size=args.batch_size,
                learning_rate=5e-5,
                max_length=args.max_length,
                eval_batch_size=max(64, 2 * args.batch_size),
            )
            if "smollm2" in args.models:
                run = measure_llm(
                    test.select(range(min(args.llm_rows, len(test)))), placement, 32, args.repeats
                )
                results["runs"].append(run)
                print(
                    f"smollm2   {placement.describe():>20s}: score "
                    f"{run['harness_rows_per_second']:8.1f} vs "
                    f"{run['plain_rows_per_second']:8.1f} rows/s ({run['ratio']:.0%})"
                )
            for model in (m for m in args.models if m != "smollm2"):
                run = measure(
                    names[model], tokenizer, train, test, settings, placement, args.repeats
                )
                run.update(model=model, device=placement.describe())
                results["runs"].append(run)
                print(
                    f"{model:9s} {placement.describe():>20s}: train "
                    f"{run['harness_train_examples_per_second']:8.1f} vs "
                    f"{run['plain_train_examples_per_second']:8.1f} ex/s "
                    f"({run['train_ratio']:.0%}); eval "
                    f"{run['harness_eval_examples_per_second']:8.1f} vs "
                    f"{run['plain_eval_examples_per_second']:8.1f} ex/s ({run['eval_ratio']:.0%})"
                )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
