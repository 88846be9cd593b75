"""The papers' headline numbers each benchmark declares (``BenchmarkSpec.paper_results``): they
name configs the benchmark builds and metrics compsem reports, and the page sets them beside
compsem's runs of the same config (PLANE Table 6, BoOQA Table 5, Montague Table 2)."""

from compsem.builders import BENCHMARKS
from compsem.harness.analysis.reference import reference_parts
from compsem.harness.report.cells import SCORES


def test_each_declared_result_names_a_built_config_and_a_reported_metric():
    declared = {name: spec.paper_results for name, spec in BENCHMARKS.items()}
    assert {name for name, results in declared.items() if results} >= {"plane", "booqa"}
    for name, results in declared.items():
        spec = BENCHMARKS[name]
        configs = {config.name for config in spec.builder.BUILDER_CONFIGS}
        for result in results:
            assert set(result.configs) <= configs, (name, result)
            tests = {"intersectivity", "pair_intersectivity", "non_subsectivity"}
            assert result.metric in (tests if spec.embedding else dict(SCORES)), (name, result)
            assert 0 <= result.value / result.scale <= 1, (name, result)


def test_plane_table_6_is_read_against_every_goood_split():
    (goood, one_it) = BENCHMARKS["plane"].paper_results
    assert goood.configs == tuple(f"goood_split_{n}" for n in range(1, 6))
    assert (goood.value, goood.spread, one_it.value, one_it.spread) == (0.85, 0.05, 0.86, 0.01)


def test_montague_table_2_stands_beside_an_embed_reports_score_of_the_same_type():
    report = {
        "benchmark": "montague",
        "vocabulary": "paper",
        "models": [
            {
                "label": "GloVe",
                "results": {
                    "an": {"intersectivity": {"score": 0.9, "by_type": {"NS-Pr": {"score": 0.25}}}}
                },
            }
        ],
    }
    heading, table, note = reference_parts("montague", embeds=[("r.json", report)])
    assert heading == "### Reported in the paper, not rerun" and "not rerun" in note
    row = next(r for r in table.splitlines() if "| GloVe | an | intersectivity, NS-Pr |" in r)
    assert row.endswith("| 1 | GloVe: 0.250 |")
    other = {**report, "vocabulary": "plane"}  # PLANE's vocabulary is another config
    assert "GloVe: 0.250" not in reference_parts("montague", embeds=[("r.json", other)])[1]
