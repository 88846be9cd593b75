"""Zero-shot harm detection with models trained on a benchmark's tasks (RNPC §8)."""
