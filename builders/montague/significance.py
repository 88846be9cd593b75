"""Do adjective types differ? A test of the paper's reading of its Tables 2 and 5 (§4.2: "adjective
type differences display relatively low compositional effects on broad intersectivity and
subsectivity"), on any report's or the shipped reference scores.

The test is Pearson's chi-square test of homogeneity over the adjective types (AN phrases) or type
pairs (AAN phrases) × {the property holds, it fails}. It fits because the per-phrase tests score
each phrase 0 or 1 (eq. 3 and eq. 7 hold for a phrase or not), so the question "is the share that
holds the same for every type?" is one of independence in a k × 2 table; the Kruskal-Wallis test
over those 0/1 scores is the same statistic up to its tie correction (H = (N − 1)/N · χ²). It needs
only each type's share and count, which the shipped reference scores hold. Pair intersectivity
(eq. 5) is left out: its cases are quadruples of phrases that share phrases, far from independent.
Phrases of one type share their adjectives and nouns, too, so the p-values are optimistic: read a
large p as no evidence of a difference, a small one as a difference worth checking per adjective.
"""

from __future__ import annotations

import math

from compsem.text.escape import markdown_text

ALL_TYPES = "all"  # the row of all phrases, beside one row per type (tables.ALL_TYPES)
# The per-phrase tests: each phrase holds (1) or fails (0), so a type's count is its phrases.
PER_PHRASE = (("an", "intersectivity"), ("an", "non_subsectivity"), ("aan", "intersectivity"))
TEST_NAMES = {
    ("an", "intersectivity"): "intersectivity (eq. 3), AN, by type",
    ("an", "non_subsectivity"): "non-subsectivity (eq. 7), AN, by type",
    ("aan", "intersectivity"): "intersectivity (eq. 3), AAN, by type pair",
}


def chi2_sf(statistic: float, dof: int) -> float:
    """P(χ²_dof ≥ statistic): the regularised upper gamma Q(dof/2, statistic/2), in closed form
    (a finite sum for even dof; erfc plus a finite sum for odd dof)."""
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {dof}")
    x = statistic / 2.0
    if dof % 2 == 0:
        term = total = 1.0
        for i in range(1, dof // 2):
            term *= x / i
            total += term
        return min(1.0, math.exp(-x) * total)
    term = math.sqrt(x) / math.gamma(1.5)
    total = 0.0
    for i in range((dof - 1) // 2):
        total += term
        term *= x / (i + 1.5)
    return min(1.0, math.erfc(math.sqrt(x)) + math.exp(-x) * total)


def homogeneity(groups: dict[str, tuple[float, int]]) -> dict:
    """Chi-square test that every group holds the property at the same rate, from each group's
    ``(share that holds, count)``. With every phrase holding (or failing) there is no variation
    to test: statistic 0, p-value 1."""
    groups = {name: (share, count) for name, (share, count) in groups.items() if count}
    held = {name: round(share * count) for name, (share, count) in groups.items()}
    total = sum(count for _, count in groups.values())
    rate = sum(held.values()) / total
    statistic, smallest = 0.0, math.inf
    if 0.0 < rate < 1.0:
        for name, (_, count) in groups.items():
            for observed, expected in (
                (held[name], count * rate),
                (count - held[name], count * (1.0 - rate)),
            ):
                statistic += (observed - expected) ** 2 / expected
                smallest = min(smallest, expected)
    dof = len(groups) - 1
    return {
        "statistic": statistic,
        "dof": dof,
        "p_value": chi2_sf(statistic, dof) if statistic > 0 else 1.0,
        "phrases": total,
        "groups": len(groups),
        "smallest_expected": None if smallest == math.inf else smallest,
    }


def type_tests(rows: list[dict]) -> list[dict]:
    """Per model and per-phrase test, the chi-square test across adjective types, from long-format
    score rows ``(model, phrase_set, test, types, score, count)``."""
    results = []
    for model in dict.fromkeys(row["model"] for row in rows):
        for phrase_set, test in PER_PHRASE:
            groups = {
                row["types"]: (float(row["score"]), int(row["count"]))
                for row in rows
                if row["model"] == model
                and row["phrase_set"] == phrase_set
                and row["test"] == test
                and row["types"] != ALL_TYPES
            }
            if len(groups) > 1:
                results.append(
                    {"model": model, "phrase_set": phrase_set, "test": test} | homogeneity(groups)
                )
    return results


def markdown(rows: list[dict], level: str = "###") -> str:
    """The tests as a Markdown section (empty when the rows hold no per-type scores)."""
    tests = type_tests(rows)
    if not tests:
        return ""
    lines = [
        f"{level} Do adjective types differ? (chi-square test of homogeneity)",
        "",
        "Per model and per-phrase test, Pearson's chi-square test that every adjective type (AAN: "
        "type pair) holds the property at the same rate (§4.2 reads Tables 2 and 5 as small "
        "differences between types). p below 0.05: the types differ. Phrases of a type share "
        "words, so p is optimistic.",
        "",
        "| model | test | phrases | groups | χ² | dof | p |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for t in tests:
        lines.append(
            f"| {markdown_text(t['model'])} | {TEST_NAMES[(t['phrase_set'], t['test'])]} | "
            f"{t['phrases']:,} | "
            f"{t['groups']} | {t['statistic']:.1f} | {t['dof']} | {format_p(t['p_value'])} |"
        )
    return "\n".join(lines) + "\n"


def format_p(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"
