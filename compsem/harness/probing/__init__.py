"""Models evaluated without training: ``commands`` (``zero-shot`` NLI with its label mapping,
``label_mapping``; masked-LM prompts, ``masked_lm``) and ``score`` (BoOQA's max over evidence,
``evidence``, or an entailment graph, ``graph``). ``likelihood_probe``
(``probe-likelihood``, RNPC App. C) probes pretrained LMs by sentence likelihoods
(``likelihood``)."""
