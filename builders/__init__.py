"""The benchmarks compsem builds, by name: each a package of ``builders/`` exposing its ``SPEC``.

Adding a benchmark is one package (its config, generation, builder, audit checks and spec) plus
one line here.
"""

from compsem.benchmark.spec import BenchmarkSpec
from compsem.builders import booqa, montague, plane, rnpc, seti

BENCHMARKS: dict[str, BenchmarkSpec] = {
    spec.name: spec for spec in (plane.SPEC, rnpc.SPEC, seti.SPEC, booqa.SPEC, montague.SPEC)
}


class UnknownBenchmarkError(ValueError):
    """A benchmark name that is not registered: the message lists those that are."""


def benchmark_spec(name: str) -> BenchmarkSpec:
    """The registered benchmark ``name``, or an error naming the ones there are."""
    if name not in BENCHMARKS:
        raise UnknownBenchmarkError(
            f"Unknown benchmark {name!r}; choose one of {', '.join(BENCHMARKS)}."
        )
    return BENCHMARKS[name]
