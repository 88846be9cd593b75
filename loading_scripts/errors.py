"""The error every corpus reader raises, in a module of its own so that the readers of the
embedded and Hub corpora can raise it without importing the module that dispatches to them."""


class CorpusError(ValueError):
    """A corpus cannot be read: the message names the file (and line) and what to do."""
