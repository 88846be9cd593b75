"""``compsem llm`` (``run``): causal LMs on multiple-choice prompts (``prompts``) scored
by log-likelihood (``loglikelihood``), with transformers or vLLM (``vllm``); with ``--generate``
(``generate_run``), answers generated under a chat template (``generation``) or by an
OpenAI-compatible endpoint (``openai_api``), parsed and scored (``gen_scores``; a ranked config
such as BoOQA's by AUCnorm over each row's vote share, ``gen_ranking``), cached (``cache``) and
re-scorable from their rows (``rescore``)."""
