"""Corpora on the Hugging Face Hub: ``hf://datasets/OWNER/NAME[@REVISION][/CONFIG]``.

Such a corpus is streamed, never downloaded whole, by datatrove's ``HuggingFaceDatasetReader``
(``datasets.load_dataset(OWNER/NAME, name=CONFIG, split=SPLIT, revision=REVISION,
streaming=True)``), which shares the dataset's files out to datatrove's tasks, so the same
extraction runs on one machine or on Slurm or Ray over a corpus of any size. The text is in
``text_column`` (and for news, the date in ``date_column``).

A Hub corpus is identified by its spec, split and columns, not by its content (reading it all to
hash it would defeat streaming): pin ``@REVISION`` (a tag or commit) for a reproducible build.

Tests run offline: ``datasets.load_dataset`` resolves ``OWNER/NAME`` to a local folder of that
relative path before it asks the Hub, so the tests give a local folder that name and read it
through this very reader; the Hub's own transport is not exercised here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from datatrove.pipeline.readers import HuggingFaceDatasetReader

from compsem.files.fingerprint import fingerprint
from compsem.pipeline.runner import CorpusError

HUB_PREFIX = "hf://datasets/"
_HUB_SPEC = re.compile(
    r"hf://datasets/(?P<owner>[\w.-]+)/(?P<name>[\w.-]+)(?:@(?P<revision>[\w./-]+?))?"
    r"(?:/(?P<config>[\w.-]+))?/?"
)


@dataclass(frozen=True)
class HubDataset:
    """A dataset on the Hub, one split of one config, read by streaming."""

    repo_id: str
    config: str | None = None
    revision: str | None = None
    split: str = "train"

    @property
    def spec(self) -> str:
        revision = f"@{self.revision}" if self.revision else ""
        config = f"/{self.config}" if self.config else ""
        return f"{HUB_PREFIX}{self.repo_id}{revision}{config}"

    @property
    def dataset_options(self) -> dict:
        """The keyword arguments of ``datasets.load_dataset`` besides the path."""
        options = {"name": self.config, "split": self.split, "revision": self.revision}
        return {key: value for key, value in options.items() if value is not None}

    def fingerprint(self, *columns: str) -> str:
        return fingerprint("hub", self.spec, self.split, list(columns))

    def reader(self, adapter: Callable, text_key: str = "text", **attributes):
        """datatrove's streaming reader of the split; ``attributes`` are set on the reader for
        the adapter to read (e.g. ``date_key``)."""
        reader = HuggingFaceDatasetReader(
            self.repo_id,
            dataset_options=self.dataset_options,
            streaming=True,
            adapter=adapter,
            text_key=text_key,
            doc_progress=True,
        )
        for key, value in attributes.items():
            setattr(reader, key, value)
        return reader


def is_hub_spec(spec: str) -> bool:
    return str(spec).startswith(HUB_PREFIX)


def parse_hub_spec(spec: str, split: str = "train") -> HubDataset:
    """The dataset a ``hf://datasets/...`` spec names; a malformed spec is a CorpusError."""
    match = _HUB_SPEC.fullmatch(str(spec))
    if match is None or not split:
        raise CorpusError(
            f"Cannot read Hub corpus {spec!r} (split {split!r}): write "
            "hf://datasets/OWNER/NAME, hf://datasets/OWNER/NAME/CONFIG or "
            "hf://datasets/OWNER/NAME@REVISION/CONFIG, and name a split (e.g. --split train)."
        )
    return HubDataset(
        repo_id=f"{match['owner']}/{match['name']}",
        config=match["config"],
        revision=match["revision"],
        split=split,
    )
