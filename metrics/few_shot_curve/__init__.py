"""The `few_shot_curve` evaluate metric: its script and card (evaluate loads the script on its own)."""
