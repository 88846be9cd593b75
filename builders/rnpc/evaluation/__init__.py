"""What RNPC declares for evaluating models on it, beside building it: the causal-LM prompts and
likelihood-probe sanity pairs (``llm_prompts``), §7's probes (``probes``), §8's harm detection
(``harm_detection``), the reference baselines (``baselines``) and the paper's own numbers
(``paper_results``)."""
