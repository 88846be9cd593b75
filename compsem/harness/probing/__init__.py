"""Models evaluated without training: ``commands`` (``zero-shot`` NLI with its label mapping,
``label_mapping``; masked-LM prompts, ``masked_lm``) and ``score`` (BoOQA's max over evidence,
``evidence``, or an entailment graph, ``graph``). ``likelihood_probe``
(``probe-likelihood``, RNPC App. C) probes pretrained LMs by sentence likelihoods
(``likelihood``). RNPC §7's probes of frozen encoders: ``edges`` (``probe-edges``, a linear probe
of modifier category) and ``scope`` (``probe-scope``, a privative M1's attention ratio), over
``phrases`` (a config's phrases, the encoder, a word's pieces), drawn by ``figures``."""
