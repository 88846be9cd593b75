"""The reference harness: fine-tuning, few-shot curves, zero-shot NLI, masked-LM prompting,
BoOQA scoring and embedding consistency of any model on any compsem config, on CPU or GPU.

Everything is read from the config itself (input columns, ClassLabel names, grouping fields,
the paper's preset), so a new benchmark needs no harness code. Modules, one job each:

- ``data``: load a config from a Hub id or an export folder, with its fingerprint.
- ``schema`` / ``presets``: inputs, labels, grouping fields; the papers' settings.
- ``device``: device and precision (bf16 / fp16 on GPUs, fp32 on CPU).
- ``encode`` / ``inference`` / ``training`` / ``evaluation``: tokenise (cached by ``datasets``),
  predict, fine-tune with ``transformers.Trainer``, score overall and per group.
- ``label_mapping``, ``prompting``, ``scoring``: zero-shot, two-shot prompts, BoOQA.
- ``results`` / ``report`` / ``plots``: result files, mean ± std tables, PNG plots.
- ``common``, ``finetune`` (train, curve), ``probing`` (zero-shot, prompt, score): the commands
  as functions, gathered in ``commands``; ``cli``: their argparse front end.
- ``embed_models`` / ``embed`` / ``embed_report`` / ``embed_cli``: ``compsem embed``, the
  Montague consistency tests on sentence-embedding models, with its tables and heatmaps.
- ``leaderboard`` / ``report_page`` / ``page_html`` / ``svg``: the results page of
  ``compsem report --out``.
- ``baselines`` / ``baseline_runs``: ``compsem baselines``, the offline reference runs of every
  benchmark (declared once) and their page.

Example::

    from compsem.harness.commands import run_train
    results = run_train("hub/plane", "goood_split_1", out="runs/plane", seeds=[1, 2, 3])
"""
