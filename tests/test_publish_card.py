"""Dataset cards: the Hub's metadata rules, every section the issue asks for, shared helpers."""

import re

import pytest
import yaml
from huggingface_hub import DatasetCard

from compsem.benchmark.card import (
    AUDIT_END,
    AUDIT_START,
    card_problems,
    compsem_bibtex,
    compsem_metadata,
    render_changelog,
    replace_audit_section,
    size_category,
)
from compsem.builders.plane.builder import Plane
from compsem.builders.plane.config import BUILDER_CONFIGS
from compsem.files.content_fingerprint import export_fingerprints


@pytest.mark.parametrize(
    "rows, category",
    [(0, "n<1K"), (999, "n<1K"), (1_000, "1K<n<10K"), (92_747, "10K<n<100K"), (10**6, "1M<n<10M")],
)
def test_size_category_follows_the_hub_buckets(rows, category):
    assert size_category(rows) == category


def test_changelog_is_newest_first_and_shows_a_missing_entry():
    text = render_changelog({"1.0.0": "first", "1.10.0": "tenth", "1.2.0": "second"}, "2.0.0")
    versions = re.findall(r"\*\*([\d.]+)\*\*", text)
    assert versions == ["2.0.0", "1.10.0", "1.2.0", "1.0.0"]
    assert "no changelog entry" in text.splitlines()[0]
    assert render_changelog(None, "1.0.0") == ""


def test_compsem_bibtex_names_the_version():
    entry = compsem_bibtex("1.2.3")
    assert entry.startswith("@software{compsem,") and "dataset version 1.2.3" in entry


def test_audit_section_replaces_between_markers_or_goes_before_the_citation():
    marked = f"# T\n\n## Audit\n\n{AUDIT_START}\nold\n{AUDIT_END}\n\n## Citation\n"
    once = replace_audit_section(marked, "new report")
    assert "old" not in once and once.count(AUDIT_START) == 1 and "new report" in once
    assert replace_audit_section(once, "newer") == once.replace("new report", "newer")
    unmarked = replace_audit_section("# T\n\nprose\n\n## Citation\n\nbib\n", "report")
    assert unmarked.index("## Audit") < unmarked.index("## Citation")
    assert replace_audit_section("# T\n", "report").rstrip().endswith(AUDIT_END)


@pytest.fixture(scope="module")
def card_text(plane_export):
    return (plane_export / "README.md").read_text()


@pytest.mark.slow
def test_plane_card_passes_the_hub_metadata_rules(card_text):
    assert card_problems(card_text) == []
    data = DatasetCard(card_text).data.to_dict()
    assert data["pretty_name"] and data["license"] == "other" and data["license_name"]
    assert data["language"] == ["en"] and data["task_categories"] == ["text-classification"]
    assert "compositionality" in data["tags"]
    assert data["size_categories"] == ["10K<n<100K"]  # the largest config, full: 92,747 rows
    defaults = [c["config_name"] for c in data["configs"] if c.get("default")]
    assert defaults == [Plane.DEFAULT_CONFIG_NAME]


@pytest.mark.slow
def test_plane_card_records_the_version_and_fingerprints_of_the_rows(plane_export, card_text):
    recorded = compsem_metadata(DatasetCard(card_text))
    assert recorded["benchmark"] == "plane" and recorded["version"] == str(Plane.VERSION)
    from_rows = {name: c["fingerprint"] for name, c in export_fingerprints(plane_export).items()}
    assert recorded["fingerprints"] == from_rows
    for name, fingerprint in from_rows.items():
        assert f"Content fingerprint: `{fingerprint}`" in card_text, name


@pytest.mark.slow
def test_plane_card_has_every_section(card_text):
    headings = re.findall(r"^#+ (.+)$", card_text, flags=re.MULTILINE)
    for heading in (
        "Label rules (Table 1)",
        "How it was generated",
        "Split regimes",
        "Configurations",
        "Provenance",
        "Changelog",
        "Limitations",
        "Audit",
        "Citation",
    ):
        assert heading in headings
    for regime_title in ("Full pool", "Generalise out of distribution", "One-IT"):
        assert any(h.startswith(regime_title) for h in headings), regime_title
    assert any(h.startswith("In-distribution") for h in headings)
    assert any(h.startswith("Two-shot prompts") for h in headings)
    assert not any(h.startswith("The published splits") for h in headings)  # none exported
    for config in BUILDER_CONFIGS:
        assert f"### `{config.name}`" in card_text
    changelog = card_text.split("## Changelog")[1].split("##")[0]
    assert f"**{Plane.VERSION}**" in changelog
    assert "@inproceedings{bertolini-etal-2022-testing" in card_text
    assert "@software{compsem," in card_text
    assert AUDIT_START in card_text and AUDIT_END in card_text
    two_shot = card_text.split("### `two_shot`")[1].split("Content fingerprint")[0]
    assert "| internal | external |" in two_shot  # prompts get their own table


def _broken(card_text: str, change) -> list[str]:
    front, body = card_text.split("---\n", 2)[1:]
    data = yaml.safe_load(front)
    change(data)
    return card_problems(f"---\n{yaml.safe_dump(data, sort_keys=False)}---\n{body}")


@pytest.mark.slow
@pytest.mark.parametrize(
    "change, problem",
    [
        (lambda d: d.update(size_categories=["huge"]), "size_categories: 'huge'"),
        (lambda d: d.update(language=["english"]), "language: 'english'"),
        (lambda d: d.update(task_categories=["entailment"]), "task_categories: 'entailment'"),
        (lambda d: d.pop("license_name"), "license 'other' needs a license_name"),
        (lambda d: d.pop("pretty_name"), "missing metadata: pretty_name"),
        (lambda d: d["configs"][2].update(default=True), "several default configs"),
        (lambda d: d["configs"][1].pop("default"), "exactly one default config, found none"),
        (lambda d: d["dataset_info"].pop(0), "configs and dataset_info name different configs"),
        (
            lambda d: d["dataset_info"][1]["features"].__setitem__(
                4, {"name": "label", "dtype": "int64"}
            ),
            "label is Value, not ClassLabel",
        ),
        (lambda d: d["configs"][1]["data_files"].pop(), "data_files splits"),
    ],
)
def test_card_problems_name_what_the_hub_would_reject(card_text, change, problem):
    problems = _broken(card_text, change)
    assert any(problem in p for p in problems), problems


def test_card_problems_catch_yaml_that_does_not_parse():
    assert card_problems("---\nlicense: [unclosed\n---\n# T\n")[0].startswith("YAML")
