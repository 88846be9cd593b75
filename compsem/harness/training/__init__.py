"""``compsem train`` and ``compsem curve`` (``finetune``): one classifier per seed
(``classifier``), fine-tuned with ``transformers.Trainer`` (``trainer``)."""
