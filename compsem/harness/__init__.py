"""The reference harness: any model on any compsem config, on CPU or GPU, one folder per job.

Everything is read from the config itself (input columns, ClassLabel names, grouping fields,
the paper's preset declared by its benchmark's spec), so a new benchmark needs no harness code.

- ``data``: a config from a Hub id or an export folder, its schema, preset and row sampling.
- ``models``: device and precision, batched inference, the offline models, loading a model.
- ``training``: ``train`` and ``curve``, fine-tuning with ``transformers.Trainer``.
- ``probing``: ``zero-shot`` (NLI), ``prompt`` (masked-LM two-shot) and ``score`` (evidence).
- ``llm``: ``llm``, causal LMs scored by log-likelihood (transformers or vLLM).
- ``embed``: ``embed``, the Montague consistency tests on embedding models.
- ``results``: result and row files, scores, which runs may be pooled, reproduce commands.
- ``report``: ``report``, tables, leaderboards and the results page.
- ``lm_eval_export``: ``lm-eval-tasks``, configs as lm-evaluation-harness task folders.
- ``baselines``: ``baselines``, the offline reference runs of every benchmark.
- ``analysis``: ``subwords``, the papers' analyses of saved runs (PLANE's subword analysis).

The argparse front ends live in ``compsem.cli``. Example::

    from compsem.harness.training.finetune import run_train
    results = run_train("hub/plane", "goood_split_1", out="runs/plane", seeds=[1, 2, 3])
"""
