"""docs/papers.md covers every numbered table and figure of the five papers, each with a
status, and every card links its paper's section."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The papers sit beside the repository (DESIGN.md: ``../shared/seeds/``).
SEEDS = ROOT.parent / "shared" / "seeds"
COVERAGE = ROOT / "docs" / "papers.md"
PAPERS = {  # paper file → (section heading, anchor, card)
    "plane_paper.txt": ("PLANE", "plane", "plane"),
    "rnpc_paper.txt": ("RNPC", "rnpc", "rnpc"),
    "seti_paper.txt": ("SETI", "seti", "seti"),
    "booqa_paper.txt": ("BoOQA", "booqa", "booqa"),
    "montague_consistency_paper.txt": (
        "Montague consistency",
        "montague-consistency",
        "montague",
    ),
}
STATUSES = (
    "runs",
    "part",
    "not yet built",
    "being built",
    "data not redistributable",
    "paid API",
    "out of scope",
)
MENTION = re.compile(r"\b(Tables?|Figures?|Figs?\.)\s*(\d+(?:\s*(?:,|and|&)\s*\d+)*)")


def mentions(text: str) -> set[str]:
    """'Table N' and 'Figure N' for every table and figure the text names ('Fig. 2',
    'Tables 6 and 7', 'Figures 2–3' count too)."""
    found = set()
    for kind, numbers in MENTION.findall(text):
        word = "Table" if kind.startswith("Table") else "Figure"
        found |= {f"{word} {n}" for n in re.findall(r"\d+", numbers)}
    for kind, first, last in re.findall(r"\b(Tables|Figures|Figs\.)\s*(\d+)\s*[–-]\s*(\d+)", text):
        word = "Table" if kind.startswith("Table") else "Figure"
        found |= {f"{word} {n}" for n in range(int(first), int(last) + 1)}
    return found


def sections() -> dict[str, list[list[str]]]:
    """The rows (cells) of each paper's table in docs/papers.md, by section heading."""
    result, current = {}, None
    for line in COVERAGE.read_text().splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            result[current] = []
        elif current and line.startswith("|") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            if cells[0] != "paper":
                result[current].append(cells)
    return result


@pytest.fixture(scope="module")
def papers() -> dict[str, str]:
    if not SEEDS.is_dir():
        pytest.skip(f"the papers are not beside the repository ({SEEDS.name} missing)")
    return {name: (SEEDS / name).read_text() for name in PAPERS}


def test_mentions_reads_the_forms_the_papers_use():
    text = "see Table 2, Fig. 5 and Figures 2–3; Tables 6 and 7 (Figure 10)"
    assert mentions(text) == {
        "Table 2",
        "Table 6",
        "Table 7",
        "Figure 2",
        "Figure 3",
        "Figure 5",
        "Figure 10",
    }


@pytest.mark.parametrize("paper", PAPERS)
def test_every_table_and_figure_the_paper_mentions_has_a_row(papers, paper):
    heading = PAPERS[paper][0]
    rows = sections()[heading]
    covered = set().union(*(mentions(cells[0]) for cells in rows))
    named = mentions(papers[paper])
    assert named, f"no table or figure found in {paper}"
    missing = sorted(named - covered, key=lambda m: (m.split()[0], int(m.split()[1])))
    assert not missing, f"docs/papers.md's {heading} section lacks {missing}"


def test_every_row_has_a_command_column_and_a_known_status():
    for heading, rows in sections().items():
        for cells in rows:
            assert len(cells) == 4, (heading, cells)
            status = cells[3]
            assert any(s in status for s in STATUSES), (heading, cells[0], status)


def test_every_section_is_there_and_every_card_links_its_part():
    assert {heading for heading, _, _ in PAPERS.values()} <= set(sections())
    for heading, anchor, card in PAPERS.values():
        text = (ROOT / "cards" / f"{card}.md").read_text()
        assert f"docs/papers.md#{anchor}" in text, card
        # the anchor is the one a Markdown renderer gives the heading
        assert heading.lower().replace(" ", "-") == anchor
