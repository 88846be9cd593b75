"""Corpus processing the builders share: the datatrove runner and its cached shards
(``runner``), corpus readers (``corpus_readers``), the same steps on a Ray cluster
(``ray_extraction``), and worker processes that die with their command (``process_guard``,
``fork_server_guard``)."""
