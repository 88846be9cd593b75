"""compsem: compositional-semantics benchmarks as versioned Hugging Face datasets.

``compsem.load("plane", "goood_split_2", version="v1.0.0")`` loads a published benchmark at a
pinned tag (offline too, once downloaded). Submodules are imported lazily: ``import compsem``
stays cheap.
"""


def load(name_or_repo, config=None, version=None, **kwargs):
    """A compsem dataset at a pinned version; see :func:`compsem.publish.hub.load`."""
    from compsem.publish.hub import (
        load as _load,  # `import compsem` stays cheap: datasets loads here
    )

    return _load(name_or_repo, config, version, **kwargs)
