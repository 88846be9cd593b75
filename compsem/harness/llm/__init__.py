"""``compsem llm`` (``run``): causal LMs on multiple-choice prompts (``prompts``) scored
by log-likelihood (``loglikelihood``), with transformers or vLLM (``vllm``)."""
