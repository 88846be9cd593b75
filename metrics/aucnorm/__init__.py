"""The `aucnorm` evaluate metric: its script and card (evaluate loads the script on its own)."""
