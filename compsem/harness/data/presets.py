"""The preset for a config: the one its benchmark's spec declares, found by the config's columns
(or named with ``--preset``); ``default`` for a dataset of no registered benchmark."""

from __future__ import annotations

import datasets

from compsem.benchmark.presets import Preset
from compsem.builders import BENCHMARKS

DEFAULT = Preset(name="default", note="Trainer defaults, batch 16, length 128")
PRESETS = {
    **{name: spec.preset for name, spec in BENCHMARKS.items() if spec.preset is not None},
    "default": DEFAULT,
}


def detect_preset(features: datasets.Features) -> Preset:
    """The preset whose signature columns the features hold, else ``default``."""
    for preset in PRESETS.values():
        if preset.signature and preset.signature <= set(features):
            return preset
    return DEFAULT


def get_preset(name: str, features: datasets.Features) -> Preset:
    """``auto`` detects the preset from the features; otherwise the named one."""
    if name == "auto":
        return detect_preset(features)
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; choose auto or one of {', '.join(PRESETS)}")
    return PRESETS[name]
