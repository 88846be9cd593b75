"""Models evaluated without training (``commands``): ``zero-shot`` NLI with label mapping
(``label_mapping``), masked-LM two-shot prompts (``masked_lm``) and evidence scoring
(``evidence``)."""
