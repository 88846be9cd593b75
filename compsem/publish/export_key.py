"""When an export may be kept as it is: a key over everything its content depends on.

``compsem demo`` keeps an export whose marker holds the key it would be built with now and
whose files are as they were written, the way ``datasets`` reuses a prepared dataset whose
config, version and builder code are unchanged. The key covers the benchmark, its version, the
configs and the settings (with the size and modification time of any file a setting names);
the bytes of every file of compsem's code and data (a change without a version bump counts);
and the version of every installed distribution (the spaCy model, ``datasets``, NLTK ...). Inputs outside those are trusted as compsem's caches trust them: the
embedded corpora are pinned by checksum in the code, WordNet by its version. ``compsem build``
always builds.
"""

from __future__ import annotations

import os
from importlib import metadata, util
from pathlib import Path

from compsem.benchmark.spec import BenchmarkSpec
from compsem.files.fingerprint import file_fingerprint, fingerprint

# The packages of ``package-dir`` in pyproject.toml, each its own folder in a checkout.
CODE_PACKAGES = (
    "compsem",
    "compsem.builders",
    "compsem.loading_scripts",
    "compsem.metrics",
    "compsem.cards",
)


def code_folders() -> list[Path]:
    """The folders of compsem's packages, wherever they are installed from (found, not
    imported: the builders sit above this module)."""
    return [
        Path(folder)
        for name in CODE_PACKAGES
        for folder in util.find_spec(name).submodule_search_locations
    ]


def _code_files(folder: Path):
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            yield path


def build_key(spec: BenchmarkSpec, configs: list[str], settings: dict) -> str:
    """The fingerprint of what an export of ``spec`` built now with these configs and settings
    depends on."""
    return fingerprint(
        "export",
        spec.name,
        spec.version,
        configs,
        {name: [repr(value), _named_files(value)] for name, value in sorted(settings.items())},
        sorted(f"{dist.metadata['Name']}=={dist.version}" for dist in metadata.distributions()),
        [
            [index, str(path.relative_to(folder)), file_fingerprint(path)]
            for index, folder in enumerate(code_folders())
            for path in _code_files(folder)
        ],
    )


def _stamp(path: Path) -> list[int]:
    status = path.stat()
    return [status.st_size, status.st_mtime_ns]


def _named_files(value) -> dict[str, list[int]]:
    """The stamps of the file or folder a setting names (a corpus, a lexicon), else none."""
    if not isinstance(value, str | os.PathLike) or not str(value).strip():
        return {}
    path = Path(value).expanduser()
    if path.is_file():
        return {str(path.resolve()): _stamp(path)}
    return file_stamps(path) if path.is_dir() else {}


def file_stamps(folder: Path, skip: str | None = None) -> dict[str, list[int]]:
    """``{relative path: [size, modification time in ns]}`` of every file under ``folder``
    but ``skip``: an export edited or damaged since it was written no longer matches."""
    return {
        str(path.relative_to(folder)): _stamp(path)
        for path in sorted(Path(folder).rglob("*"))
        if path.is_file() and path.name != skip
    }
