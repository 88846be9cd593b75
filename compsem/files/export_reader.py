"""The one reader of an export folder's card: which data files each config and split names.

``compsem.load``, every harness command (through ``load_config``), ``audit``, ``lm-eval-tasks``
and ``push`` read an export's card here, so the card is validated in one place, the same way for
each of them:

- the card (``README.md``) is a regular file inside the folder, read bounded
  (:mod:`compsem.files.bounded_read`);
- config and split names are well-formed (:func:`compsem.files.names.check_name`);
- every data file pattern is relative and without ``..``, and every file it matches lies inside
  the folder once symbolic links are resolved;
- every matched file is a regular file (a FIFO, device or socket is refused, never opened);
- a pattern that matches no file is named.

Each refusal is one ``ExportError`` (a ``ValueError``) naming the card, the file and the fix.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from pathlib import Path

from datasets.utils.metadata import MetadataConfigs
from huggingface_hub import DatasetCard

from compsem.files.bounded_read import UnreadableFile, read_text
from compsem.files.names import check_name

CARD = "README.md"


class ExportError(ValueError):
    """An export folder whose card cannot be trusted or read; the message says what to do."""


# The card's compsem block names the configs `compsem push` adds as views of others (Inspect's
# rows, ``{view: config}``): their files are read and checked like any config's, but they are
# not configs of the benchmark, so no reader hands them out as one.
VIEWS_KEY = "inspect_views"


@dataclass(frozen=True)
class ExportFiles:
    """An export's card and, per config and split, the data files it names; ``views``: the
    same for the configs that only present another config's rows (``inspect_views``)."""

    folder: Path
    card: DatasetCard
    configs: dict[str, dict[str, list[Path]]]
    views: dict[str, dict[str, list[Path]]] = field(default_factory=dict)


def view_names(card: DatasetCard) -> set[str]:
    """The configs ``card`` declares as views of other configs (none in a built export)."""
    block = card.data.to_dict().get("compsem")
    views = block.get(VIEWS_KEY) if isinstance(block, dict) else None
    return set(views) if isinstance(views, dict) else set()


def _inside(path: Path, folder: Path, source: str, what: str) -> Path:
    resolved = path.resolve()
    if not resolved.is_relative_to(folder):
        raise ExportError(
            f"{source}: {what} {path.name!r} resolves to {resolved}, outside {folder} (through "
            "a link or '..'); a card may name only files of its own folder: rebuild the export."
        )
    return resolved


def read_export_card(folder: str | Path) -> DatasetCard:
    """The card of ``folder``: a regular ``README.md`` inside it, read bounded."""
    folder = Path(folder).resolve()
    path = folder / CARD
    if not path.exists() and not path.is_symlink():
        raise ExportError(
            f"{folder} has no {CARD} card: point at a folder written by `compsem build`."
        )
    _inside(path, folder, f"the card of {folder}", "the card")
    try:
        return DatasetCard(read_text(path, "card"))
    except UnreadableFile as error:
        raise ExportError(str(error)) from None
    except ValueError as error:  # the YAML header is not valid YAML
        raise ExportError(
            f"{path} has a YAML header that cannot be read ({str(error).splitlines()[0][:120]}); "
            "rebuild the export."
        ) from None


def _splits(entry, source: str) -> dict[str, list[str]]:
    """``{split: [pattern, ...]}`` of one config's ``data_files`` (all four YAML forms)."""
    if isinstance(entry, str):
        entry = [entry]
    if not isinstance(entry, list):
        raise ExportError(f"{source} has data_files {repr(entry)[:80]}; rebuild the export.")
    splits: dict[str, list[str]] = {}
    for item in entry:
        if isinstance(item, dict):
            split, paths = item.get("split"), item.get("path")
        else:
            split, paths = "train", item
        split = check_name(split, "split", source)
        paths = paths if isinstance(paths, list) else [paths]
        splits.setdefault(split, []).extend(paths)
    return splits


def _files(folder: Path, pattern, source: str) -> list[Path]:
    """The regular files ``pattern`` matches, each inside ``folder``; none is an error."""
    if (
        not isinstance(pattern, str)
        or not pattern.strip()
        or "\x00" in pattern
        or Path(pattern).is_absolute()
        or ".." in Path(pattern).parts
    ):
        raise ExportError(
            f"{source} lists the data files {repr(pattern)[:80]}, which is not a path inside "
            f"{folder}; a card may name only files of its own folder: rebuild the export."
        )
    found = []
    for path in sorted(folder.glob(pattern)):
        resolved = _inside(path, folder, source, "the data file")
        mode = resolved.stat().st_mode
        if stat.S_ISDIR(mode):
            continue
        if not stat.S_ISREG(mode):
            raise ExportError(
                f"{source}: the data file {path} is not a regular file (a FIFO, device or "
                "socket); rebuild the export."
            )
        found.append(path)
    if not found:
        raise ExportError(
            f"{source} lists {pattern!r} but no such file is in {folder}: rebuild the export "
            "(compsem build) or download it again."
        )
    return found


def read_export(folder: str | Path, only: list[str] | None = None) -> ExportFiles:
    """The card of the export ``folder`` and the data files of its configs (of those in
    ``only`` when given), validated as the module says."""
    folder = Path(folder).resolve()
    card = read_export_card(folder)
    try:
        declared = MetadataConfigs.from_dataset_card_data(card.data)
    except ValueError as error:
        raise ExportError(
            f"the card of {folder} declares its configs wrongly "
            f"({str(error).strip().splitlines()[0][:120]}); rebuild the export."
        ) from None
    configs: dict[str, dict[str, list[Path]]] = {}
    views: dict[str, dict[str, list[Path]]] = {}
    presented = view_names(card)
    for name, config in declared.items():
        source = f"the card of {folder}"
        check_name(name, "config", source)
        if only is not None and name not in only:
            continue
        source = f"{source}, config {name}"
        (views if name in presented else configs)[name] = {
            split: [path for pattern in patterns for path in _files(folder, pattern, source)]
            for split, patterns in _splits(config.get("data_files", []), source).items()
        }
    return ExportFiles(folder, card, configs, views)


def check_folder_files(folder: str | Path) -> None:
    """For a folder without a card (``datasets`` then reads every data file under it): each
    file, hidden ones aside, lies inside the folder once links are resolved and is a regular
    file, so nothing outside is read and nothing blocks."""
    folder = Path(folder).resolve()
    for path in sorted(folder.rglob("*")):
        if any(part.startswith(".") for part in path.relative_to(folder).parts):
            continue
        resolved = _inside(path, folder, f"the folder {folder}", "the file")
        mode = resolved.stat().st_mode
        if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
            raise ExportError(
                f"{path} is not a regular file (a FIFO, device or socket); remove it from "
                f"{folder} or pass an export folder."
            )
