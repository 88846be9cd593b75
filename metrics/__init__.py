"""compsem's `evaluate` metric modules: load them, install them for bare-name loading, publish them.

Each metric is a self-contained folder `<name>/` holding `<name>.py` (plain numpy functions and a
thin `evaluate.Metric`) and a `README.md` metric card, so `evaluate.load` works on the folder:

    from compsem import metrics
    aucnorm = metrics.load("aucnorm")   # evaluate.load on the installed folder
    metrics.install()                   # afterwards evaluate.load("aucnorm") works, offline too
    metrics.push("my-org")              # Hub Spaces my-org/aucnorm, my-org/consistency, …

`install` relies on evaluate's fallback for a bare name it cannot fetch from the Hub: the newest
`<HF_MODULES_CACHE>/evaluate_modules/metrics/evaluate-metric--<name>/<64-hex hash>/<name>.py`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

import huggingface_hub

from compsem.files.ownership import file_in_the_way

METRICS = ("aucnorm", "consistency", "few_shot_curve")
ROOT = Path(__file__).resolve().parent

# What a Hub Space needs beside the script and card: a Gradio widget and its requirements.
_SPACE_APP = """\
from pathlib import Path

import evaluate
from evaluate.utils import launch_gradio_widget

module = evaluate.load(str(Path(__file__).resolve().parent / "{name}.py"))
launch_gradio_widget(module)
"""
_SPACE_REQUIREMENTS = {
    "aucnorm": ["evaluate>=0.4.6", "numpy"],
    "consistency": ["evaluate>=0.4.6", "numpy", "sentence-transformers"],
    "few_shot_curve": ["evaluate>=0.4.6", "numpy"],
}


def _names(names: Iterable[str] | None) -> list[str]:
    names = list(METRICS if not names else names)
    unknown = [name for name in names if name not in METRICS]
    if unknown:
        raise ValueError(f"unknown metrics {unknown}: choose from {list(METRICS)}")
    return names


def module_folder(name: str) -> Path:
    """The folder of metric `name` (its script and card), wherever compsem is installed."""
    return ROOT / _names([name])[0]


def load(name: str, **kwargs):
    """`evaluate.load` on the installed module `name`; `kwargs` go to `evaluate.load`."""
    import evaluate  # imports transformers and torch: over ten seconds, so only when used

    return evaluate.load(str(module_folder(name)), **kwargs)


def _modules_cache(modules_cache: str | os.PathLike | None) -> Path:
    if modules_cache is not None:
        return Path(modules_cache)
    from evaluate import config  # imports transformers and torch: over ten seconds

    return Path(config.HF_MODULES_CACHE)


def install(
    names: Iterable[str] | None = None, modules_cache: str | os.PathLike | None = None
) -> list[Path]:
    """Place the metrics where `evaluate.load("<name>")`, by bare name, finds them offline.

    Offline, or when the Hub has no `evaluate-metric/<name>`, evaluate loads the newest script in
    its module cache under `evaluate_modules/metrics/evaluate-metric--<name>/<hash>/`; that is
    where each script goes (`modules_cache` defaults to evaluate's `HF_MODULES_CACHE`, normally
    `~/.cache/huggingface/modules`). Returns the installed scripts.
    """
    cache = _modules_cache(modules_cache)
    where = file_in_the_way(cache)
    if where:
        raise ValueError(
            f"the modules cache {cache} {where}; pass a folder (new or existing) as "
            "--modules-cache, or unset it to use evaluate's own."
        )
    package = cache / "evaluate_modules"
    installed = []
    for name in _names(names):
        source = module_folder(name) / f"{name}.py"
        digest = hashlib.sha256(source.read_bytes()).hexdigest()  # 64 hex digits, as evaluate's
        target = package / "metrics" / f"evaluate-metric--{name}" / digest
        try:
            target.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a file on the way (evaluate_modules, …), no permission
            raise ValueError(
                f"cannot create {target} ({error.strerror}); pass a folder you can write to as "
                "--modules-cache."
            ) from None
        for folder in (package, package / "metrics", target.parent, target):
            (folder / "__init__.py").touch()
        shutil.copyfile(source, target / source.name)
        shutil.copyfile(source.with_name("README.md"), target / "README.md")
        os.utime(target / source.name)  # evaluate takes the newest script: make it this one
        installed.append(target / source.name)
    return installed


def _space_folder(name: str, folder: Path) -> Path:
    """The files of metric `name`'s Space, written into `folder`."""
    source = module_folder(name)
    shutil.copyfile(source / f"{name}.py", folder / f"{name}.py")
    shutil.copyfile(source / "README.md", folder / "README.md")
    (folder / "app.py").write_text(_SPACE_APP.format(name=name))
    (folder / "requirements.txt").write_text("\n".join(_SPACE_REQUIREMENTS[name]) + "\n")
    return folder


def push(
    namespace: str,
    names: Iterable[str] | None = None,
    token: str | None = None,
    private: bool = False,
) -> list[str]:
    """Publish the metrics as Hub Spaces `<namespace>/<name>` (Gradio, as evaluate's own are).

    Afterwards `evaluate.load("<namespace>/<name>")` loads them from the Hub. Returns the URLs.
    """
    if not namespace or "/" in namespace:
        raise ValueError(f"namespace must be a Hub user or organisation name; got {namespace!r}")
    api = huggingface_hub.HfApi(token=token)
    urls = []
    for name in _names(names):
        repo_id = f"{namespace}/{name}"
        api.create_repo(
            repo_id, repo_type="space", space_sdk="gradio", private=private, exist_ok=True
        )
        with tempfile.TemporaryDirectory() as folder:
            api.upload_folder(
                repo_id=repo_id,
                repo_type="space",
                folder_path=str(_space_folder(name, Path(folder))),
                commit_message=f"Upload the {name} metric from compsem",
            )
        urls.append(f"https://huggingface.co/spaces/{repo_id}")
    return urls
