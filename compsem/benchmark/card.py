"""Dataset-card helpers every benchmark's card shares: size category, changelog, compsem's BibTeX,
the machine-readable ``compsem`` metadata block, the audit section, and local card validation.

The Hub validates a card's YAML on its side (``DatasetCard.validate``, an HTTP call that
``compsem push`` makes before uploading). :func:`card_problems` applies the same rules offline to
the fields compsem writes, with the enumerations ``datasets`` ships (languages, size categories,
creators, multilinguality, task categories) and ``datasets``' own parsers for ``configs`` and
``dataset_info``, so a card that would be rejected fails a test, not a push.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

import yaml
from datasets.features import ClassLabel
from datasets.info import DatasetInfosDict
from datasets.utils.metadata import MetadataConfigs, known_task_ids
from huggingface_hub import DatasetCard

from compsem.files.export_reader import read_export_card

COMPSEM_YEAR = 2026
# The machine-readable block of a card's YAML that compsem itself reads back (push, load, audit).
METADATA_KEY = "compsem"
AUDIT_START = "<!-- compsem-audit:start -->"
AUDIT_END = "<!-- compsem-audit:end -->"
NOT_AUDITED = "Not audited yet: run `compsem audit DIR` on this folder to add the audit here."

# Upper bounds of the Hub's size categories (``datasets/utils/resources/size_categories.json``).
_SIZE_BOUNDS = [
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
    (100_000_000, "10M<n<100M"),
    (1_000_000_000, "100M<n<1B"),
    (10_000_000_000, "1B<n<10B"),
    (100_000_000_000, "10B<n<100B"),
    (1_000_000_000_000, "100B<n<1T"),
]
REQUIRED_METADATA = (
    "pretty_name",
    "license",
    "language",
    "task_categories",
    "tags",
    "size_categories",
    "configs",
    "dataset_info",
)
_LICENSE_ID = re.compile(r"^[a-z0-9][a-z0-9.+-]*$")


class CardError(ValueError):
    """A dataset card is missing or breaks the Hub's metadata rules: the message lists what."""


def size_category(rows: int) -> str:
    """The Hub's ``size_categories`` value for a dataset of ``rows`` examples."""
    for bound, name in _SIZE_BOUNDS:
        if rows < bound:
            return name
    return "n>1T"


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", str(version)))


def render_changelog(entries: Mapping[str, str] | None, current: str) -> str:
    """A Markdown list of ``{version: change}`` entries, newest first. Empty when there are none;
    a current version without an entry is listed so the gap is visible, not hidden."""
    entries = dict(entries or {})
    if not entries:
        return ""
    entries.setdefault(str(current), "no changelog entry was written for this version.")
    lines = [
        f"- **{version}**: {' '.join(str(entries[version]).split())}"
        for version in sorted(entries, key=_version_key, reverse=True)
    ]
    return "\n".join(lines)


def compsem_bibtex(version: str) -> str:
    """The BibTeX entry for compsem itself, pinned to the dataset version that was generated."""
    return (
        "@software{compsem,\n"
        '    title = "compsem: compositional-semantics benchmarks as versioned datasets",\n'
        '    author = "{The compsem developers}",\n'
        f'    year = "{COMPSEM_YEAR}",\n'
        f'    note = "dataset version {version}",\n'
        "}"
    )


def read_card(folder: str | os.PathLike):
    """The ``DatasetCard`` of an export folder, with a clear error when there is none, is not a
    regular file inside it, or is too large (see :mod:`compsem.files.export_reader`)."""
    return read_export_card(folder)


def compsem_metadata(card) -> dict:
    """The card's ``compsem`` block (benchmark, version, content fingerprints); {} if absent."""
    block = card.data.to_dict().get(METADATA_KEY)
    return dict(block) if isinstance(block, Mapping) else {}


def replace_audit_section(text: str, section: str) -> str:
    """``text`` with the audit section between the markers replaced by ``section``; a card
    without markers gets them before its ``## Citation`` heading, or at the end."""
    block = f"{AUDIT_START}\n{section.strip()}\n{AUDIT_END}"
    start, end = text.find(AUDIT_START), text.find(AUDIT_END)
    if 0 <= start < end:
        return text[:start] + block + text[end + len(AUDIT_END) :]
    block = f"## Audit\n\n{block}\n\n"
    citation = re.search(r"^## Citation\b", text, flags=re.MULTILINE)
    if citation:
        return text[: citation.start()] + block + text[citation.start() :]
    return text.rstrip("\n") + "\n\n" + block


def write_text_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``, keeping its permissions."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        if path.exists():
            os.chmod(partial, stat.S_IMODE(path.stat().st_mode))
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def _resource(name: str):
    return json.loads(
        (resources.files("datasets.utils") / "resources" / name).read_text(encoding="utf-8")
    )


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def _enumerated_problems(data: dict) -> list[str]:

    allowed = {
        "language": set(_resource("languages.json")),
        "size_categories": set(_resource("size_categories.json")),
        "multilinguality": set(_resource("multilingualities.json")),
        "language_creators": set(_resource("creators.json")["language"]),
        "annotations_creators": set(_resource("creators.json")["annotations"]),
        "task_categories": set(known_task_ids),
    }
    problems = []
    for key, values in allowed.items():
        for value in _as_list(data.get(key)):
            if value not in values:
                problems.append(f"{key}: {value!r} is not one of the Hub's values")
    return problems


def _license_problems(data: dict) -> list[str]:
    problems = []
    for license_id in _as_list(data.get("license")):
        if not isinstance(license_id, str) or not _LICENSE_ID.match(license_id):
            problems.append(f"license: {license_id!r} is not a Hub license identifier")
    if "other" in _as_list(data.get("license")):
        name, link = data.get("license_name"), data.get("license_link")
        if not (isinstance(name, str) and _LICENSE_ID.match(name)):
            problems.append("license 'other' needs a license_name (lowercase, dashes)")
        if not (isinstance(link, str) and link.startswith(("http://", "https://", "LICENSE"))):
            problems.append("license 'other' needs a license_link (a URL or a LICENSE file)")
    return problems


def _config_problems(card) -> list[str]:

    try:
        configs = MetadataConfigs.from_dataset_card_data(card.data)
        infos = DatasetInfosDict.from_dataset_card_data(card.data)
        configs.get_default_config_name()
    except (ValueError, TypeError, KeyError) as error:
        return [f"configs/dataset_info: {error}"]
    problems = []
    defaults = [name for name, config in configs.items() if config.get("default")]
    if len(configs) > 1 and len(defaults) != 1:
        problems.append(f"configs: expected exactly one default config, found {defaults or 'none'}")
    if set(configs) != set(infos):
        problems.append(
            f"configs and dataset_info name different configs: {sorted(set(configs) ^ set(infos))}"
        )
    for name, info in infos.items():
        if not info.splits:
            problems.append(f"dataset_info {name}: no splits with sizes")
        declared = {entry["split"] for entry in configs.get(name, {}).get("data_files", [])}
        if info.splits and declared and set(info.splits) != declared:
            problems.append(
                f"config {name}: data_files splits {declared} ≠ sizes {set(info.splits)}"
            )
        label = (info.features or {}).get("label")
        if label is not None and not isinstance(label, ClassLabel):
            problems.append(f"dataset_info {name}: label is {type(label).__name__}, not ClassLabel")
    return problems


def card_problems(text: str) -> list[str]:
    """What in a card's text the Hub's metadata validation would reject (empty when it passes)."""

    try:
        card = DatasetCard(text)
    except (ValueError, yaml.YAMLError) as error:  # YAML that does not parse, or no mapping
        return [f"YAML: {' '.join(str(error).split())}"]
    data = card.data.to_dict()
    problems = [f"missing metadata: {key}" for key in REQUIRED_METADATA if not data.get(key)]
    problems += _enumerated_problems(data)
    problems += _license_problems(data)
    problems += _config_problems(card)
    if len(_as_list(data.get("size_categories"))) > 1:
        problems.append("size_categories: give one category")
    if not card.text.strip():
        problems.append("the card has metadata but no prose")
    return problems


def check_card(text: str, where: str = "README.md") -> None:
    """Raise :class:`CardError` listing every problem :func:`card_problems` finds."""
    problems = card_problems(text)
    if problems:
        raise CardError(f"{where} fails the Hub's card metadata rules: " + "; ".join(problems))


# Card metadata of every dataset derived from WordNet 3.0, under WordNet's own licence.
WORDNET_LICENSE = {
    "license": "other",
    "license_name": "wordnet-3.0",
    "license_link": "https://wordnet.princeton.edu/license-and-commercial-use",
}


def template_path(name: str) -> Path:
    """The path of a card template shipped in ``cards/`` (``compsem.cards``)."""
    return Path(str(resources.files("compsem.cards") / name))
