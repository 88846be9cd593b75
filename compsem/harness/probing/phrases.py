"""What RNPC's §7 probes share: a config's phrases ``Det M1 M2 N`` (the columns its benchmark's
spec declares, ``modifier_probes``), an encoder that reads them, and each word's subword pieces.

A phrase is encoded in the first sentence column the config has that holds it (SPTE's premise,
EPC's second event), else alone. A word's pieces are the tokens whose characters overlap the
word's (a fast tokenizer's offsets), so any subword scheme (WordPiece, BPE, SentencePiece) maps.
"""

from __future__ import annotations

import datetime
import types
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from compsem.benchmark.spec import ModifierProbes
from compsem.builders import BENCHMARKS
from compsem.harness.data.benchmark import Benchmark, load_benchmark
from compsem.harness.models.loading import load_for_inference
from compsem.harness.models.offline import public_name
from compsem.harness.results.files import (
    ANALYSIS_MARKER,
    check_writable,
    environment,
    rows_path,
    write_json,
    write_rows,
)

WORDS = ("m1", "m2", "noun")


@dataclass(frozen=True)
class Phrase:
    """One distinct phrase of a config, as encoded: ``text`` and each word's character span."""

    id: str
    phrase: str
    text: str
    words: tuple[str, str, str]  # M1, M2 and the noun as written (a plural stays plural)
    categories: tuple[str, str]  # M1's and M2's
    spans: tuple[tuple[int, int], ...]  # M1, M2, noun in ``text``


def modifier_probes(bench: Benchmark) -> ModifierProbes:
    """The benchmark's declaration, or one clear error for a config without modifiers."""
    spec = BENCHMARKS.get(bench.benchmark)
    probes = spec.modifier_probes if spec else None
    declared = [name for name, spec in BENCHMARKS.items() if spec.modifier_probes]
    if probes is None:
        raise ValueError(
            f"config {bench.config!r} of {bench.path} ({bench.benchmark}) has no phrases with "
            f"modifier categories to probe; use a config of {', '.join(declared)} (e.g. spte)"
        )
    columns = set(next(iter(bench.splits.values())).column_names)
    needed = {probes.noun, probes.phrase, *(c for pair in probes.modifiers for c in pair)}
    if missing := sorted(needed - columns):
        raise ValueError(
            f"config {bench.config!r} of {bench.path} has no modifiers to probe (no column "
            f"{', '.join(missing)}); use a config whose rows are phrases Det M1 M2 N (spte, mpte, "
            "epc and their challenge configs)"
        )
    return probes


def open_probe(command: str, dataset: str, config: str, revision, out: Path):
    """A probe's start, before any model is loaded: its files' name (``COMMAND-CONFIG``) checked
    writable in ``out``, the config loaded, and its benchmark's declaration."""
    name = f"{command}-{config}"
    check_writable(analysis_files(out, name))
    bench = load_benchmark(dataset, config, revision)
    return name, bench, modifier_probes(bench)


def read_phrases(split, probes: ModifierProbes, limit: int | None) -> tuple[list[Phrase], int]:
    """The split's distinct phrases in its order (at most ``limit``), and how many could not be
    read word by word (a phrase whose modifiers are not its words in order)."""
    (m1, c1), (m2, c2) = probes.modifiers
    sentence = next((c for c in probes.sentences if c in split.column_names), None)
    ids = split["id"] if "id" in split.column_names else range(len(split))
    columns = [split[c] for c in (probes.phrase, m1, m2, c1, c2)]
    texts = split[sentence] if sentence else columns[0]
    phrases, seen, skipped = [], set(), 0
    for row_id, text, phrase, w1, w2, k1, k2 in zip(ids, texts, *columns, strict=True):
        if phrase in seen:
            continue
        seen.add(phrase)
        spans = word_spans(text, phrase, w1, w2)
        if spans is None:
            skipped += 1
            continue
        words = (w1, w2, text[spans[2][0] : spans[2][1]])
        phrases.append(Phrase(str(row_id), phrase, text, words, (k1, k2), spans))
        if limit is not None and len(phrases) >= limit:
            break
    return phrases, skipped


def word_spans(text: str, phrase: str, m1: str, m2: str) -> tuple | None:
    """(M1, M2, noun) character spans in ``text``: the phrase found in it (its first letter in
    either case), M1 and M2 its words before the last, in order; None where they are not."""
    start = text.find(phrase)
    if start < 0 and phrase:
        start = text.find(phrase[0].swapcase() + phrase[1:])
    words = phrase.split(" ")
    if start < 0 or len(words) < 3 or words[-3:-1] != [m1, m2]:
        return None
    end = start + len(phrase)
    noun = (end - len(words[-1]), end)
    second = (noun[0] - 1 - len(m2), noun[0] - 1)
    return (second[0] - 1 - len(m1), second[0] - 1), second, noun


def pieces(offsets, span: tuple[int, int]) -> list[int]:
    """The tokens whose characters overlap ``span`` (special tokens have empty offsets)."""
    return [i for i, (a, b) in enumerate(offsets) if b > a and a < span[1] and b > span[0]]


@dataclass
class Encoder:
    """A model's encoder (a classifier's head left off) and its fast tokenizer."""

    name: str
    model: object
    tokenizer: object
    device: str
    untrained: list

    def encode(self, phrases: list[Phrase], attentions: bool = False):
        """Per phrase: its hidden states (layers + 1, tokens, width), its attentions (layers,
        heads, tokens, tokens) when asked, and each word's pieces."""
        import torch  # torch takes seconds to import: only the probes' runs pay for it

        batch = self.tokenizer(
            [p.text for p in phrases], return_offsets_mapping=True, padding=True,
            return_tensors="pt",
        )  # fmt: skip
        offsets = batch.pop("offset_mapping").tolist()
        inputs = {k: v.to(self.device) for k, v in batch.items()}
        options = {"output_attentions": True} if attentions else {}
        with torch.no_grad():
            try:
                out = self.model(**inputs, output_hidden_states=True, **options)
            except TypeError:  # a model whose forward takes no output_attentions
                out = None
        if out is None or (attentions and not getattr(out, "attentions", None)):
            raise ValueError(
                f"{self.name} returns no {'attention weights' if attentions else 'hidden states'}; "
                "the probes need a Transformer encoder (BERT, RoBERTa, MiniLM …)"
            )
        hidden = torch.stack(out.hidden_states, dim=1).float().cpu().numpy()
        weights = torch.stack(out.attentions, dim=1).float().cpu().numpy() if attentions else None
        for index, phrase in enumerate(phrases):
            found = [pieces(offsets[index], span) for span in phrase.spans]
            yield hidden[index], None if weights is None else weights[index], found


def load_encoder(name: str, placement, attentions: bool = False) -> Encoder:
    """The encoder of ``name`` (any Hub id or folder, a ``compsem train --save-model`` output
    included), with eager attention where its weights are read; one clear error otherwise."""
    from transformers import AutoConfig, AutoModel, AutoTokenizer  # deferred: heavy imports

    try:
        config = AutoConfig.from_pretrained(name)
        tokenizer = AutoTokenizer.from_pretrained(name)
    except (OSError, ValueError) as error:
        raise OSError(f"cannot load {name!r}: {str(error).strip().splitlines()[0]}") from None
    if not tokenizer.is_fast:
        raise ValueError(f"{name} has no fast tokenizer: the probes need its character offsets")
    causal = any(a.endswith(("ForCausalLM", "LMHeadModel")) for a in config.architectures or [])
    if attentions and (causal or getattr(config, "is_decoder", False)):
        raise ValueError(
            f"{name} is a causal LM: M1 cannot attend to the M2 and N after it; probe-scope "
            "needs an encoder that reads both ways (BERT, RoBERTa, MiniLM …)"
        )
    options = {"attn_implementation": "eager"} if attentions else {}
    loader = types.SimpleNamespace(from_pretrained=partial(AutoModel.from_pretrained, **options))
    model, info = load_for_inference(name, loader, placement)
    if getattr(config, "is_encoder_decoder", False):
        model = model.get_encoder()
    model.eval()
    return Encoder(name, model, tokenizer, placement.device, sorted(info["missing_keys"]))


def in_batches(items: list, size: int):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def model_label(name: str) -> str:
    """A model as results name it: an offline model by its published name, a folder by its
    last two parts (``spte/model-seed1``), a Hub id as is."""
    if public := public_name(name):
        return public
    path = Path(name)
    return "/".join(path.parts[-2:]) if path.exists() else name


def write_analysis(out: Path, name: str, payload: dict, rows, placement) -> Path:
    """``NAME.json`` (the analysis, with the environment and the time it was made) and its
    per-row file ``NAME.rows.jsonl`` beside it, each written atomically."""
    payload = {
        ANALYSIS_MARKER: 1,  # an analysis: read by the results page, not leaderboards
        **payload,
        "environment": environment(placement),
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
    }
    path = write_json(Path(out) / f"{name}.json", payload)
    write_rows(path, rows)
    return path


def analysis_files(out: Path, name: str) -> list[Path]:
    """What :func:`write_analysis` and the summary write, for ``check_writable``."""
    path = Path(out) / f"{name}.json"
    return [path, rows_path(path), Path(out) / "summary.md"]
