"""What a benchmark package declares, as one typed object: :class:`BenchmarkSpec`.

Each package in ``builders/`` exposes ``SPEC``; ``compsem.builders.BENCHMARKS`` lists them. Export,
audit, Hub publishing, ``compsem build`` and the harness read a benchmark only through its spec,
so adding a benchmark is one package plus one registry line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import datasets

from compsem.benchmark.audit_checks import Check
from compsem.benchmark.presets import Preset
from compsem.benchmark.prompts import LLMPrompt


def no_files(config: datasets.BuilderConfig, provenance: dict) -> dict[str, str]:
    return {}


def nothing_to_prepare(configs: list[datasets.BuilderConfig]) -> None:
    return None


@dataclass(frozen=True)
class TaskFamily:
    """Configs whose scores may be averaged into one number: one task, one label space, one
    kind of split (e.g. the five seeded resamples of PLANE's GOoD). ``compsem lm-eval-tasks``
    writes each family as an lm-eval group; a config in no family is only a task.

    Attributes:
        name: the group's suffix (``compsem_<benchmark>_<name>``).
        configs: the member configs; a family never holds an in-distribution control, a
            hypothesis-only config or a config whose rows lie inside another member's.
        description: what the family tests, for the task folder's README.
    """

    name: str
    configs: tuple[str, ...]
    description: str


# The seeds of a reference run over seeds, and the one seed of the quick set.
SEEDS = (1, 2, 3)
ONE_SEED = {"seeds": (1,)}

# The row caps each command takes, which a test-only ``--max-rows`` lowers.
ROW_CAPS = {
    "train": ("max_train_examples", "max_eval_examples"),
    "curve": ("max_train_examples", "max_eval_examples"),
    "llm": ("limit",),
    "score": ("max_eval_examples",),
    "embed": (),
}


@dataclass(frozen=True)
class Baseline:
    """One reference run: a harness command on one or more configs of a benchmark's export.

    Attributes:
        name: its folder under ``--out``.
        benchmark: the export it reads.
        command: ``train``, ``curve``, ``llm``, ``score`` (the harness commands') or ``embed``.
        configs: the configs (``embed``: the phrase sets), one harness call each.
        options: the command's keyword arguments (seeds, shots, row caps, models …).
        quick: None to leave it out of ``--quick``; else the settings that replace
            ``configs`` and ``options`` entries there.
    """

    name: str
    benchmark: str
    command: str
    configs: tuple[str, ...]
    options: Mapping = field(default_factory=dict)
    quick: Mapping | None = None

    def settings(self, quick: bool, max_rows: int | None = None) -> tuple[tuple[str, ...], dict]:
        """The configs and options of this run in the chosen set; ``max_rows`` caps every row
        count the command takes (tests)."""
        chosen = {"configs": self.configs, **self.options, **((self.quick or {}) if quick else {})}
        configs = tuple(chosen.pop("configs"))
        if max_rows is not None:
            for name in ROW_CAPS[self.command]:
                chosen[name] = min(chosen.get(name) or max_rows, max_rows)
        return configs, chosen


@dataclass(frozen=True)
class Heatmap:
    """A grid of scores a benchmark's report section asks the results page to draw (cells by
    (row, column) label; a missing cell is left blank)."""

    title: str
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: Mapping[tuple[str, str], float]


@dataclass(frozen=True)
class EmbeddingTests:
    """How ``compsem embed`` reads a benchmark of phrase sets and reports on it (Montague's
    consistency tests): the harness computes the scores; the benchmark declares its configs,
    its tables and what its reports hold.

    Attributes:
        phrase_configs: ``{vocabulary: {phrase set: config}}``; the first vocabulary is the
            default.
        report_kind: the marker kind of a report folder (``compsem embed --out``).
        write_report: ``(report, out, command, force) -> files``: the report folder.
        tables: ``(report, level) -> Markdown``: the paper's tables of a report, headed at
            ``level`` (``"###"``).
        demo_table: ``report -> Markdown``: one model's scores in one table (``compsem demo``).
        heatmaps: ``report -> [Heatmap]``: the grids the results page draws for a report.
        lexicon: ``(read, vocabulary) -> [(word, type, synonym)]``: the words a vocabulary's
            phrase sets were built from, where ``read(config, split)`` gives a config's rows.
    """

    phrase_configs: Mapping[str, Mapping[str, str]]
    report_kind: str
    write_report: Callable[..., list[Path]]
    tables: Callable[[dict, str], str]
    demo_table: Callable[[dict], str]
    heatmaps: Callable[[dict], list[Heatmap]]
    lexicon: Callable[[Callable[[str, str], Any], str], list[tuple[str, str, str]]]


@dataclass(frozen=True)
class HarmDetection:
    """A zero-shot extrinsic use of a benchmark's tasks (RNPC §8): a how-to query is harmful
    when it names a harmful entity, judged from the noun phrases whose head is a keyword by a
    model fine-tuned on the benchmark. The templates take ``{np}`` (the phrase with an
    indefinite article: "a toy gun") and ``{noun}`` (its head, likewise: "a gun"); a template
    that starts with either capitalises it.

    Attributes:
        spte: (premise, hypothesis): the query is harmful when the premise entails the
            hypothesis ("This is a toy gun." ⇒ "This is a gun.").
        spte_labels: every label an SPTE model must have.
        spte_positive: the label of an entailment in an SPTE model's ``id2label``.
        epc: (event 1, event 2): harmful when event 2 (the phrase) is as plausible as event 1
            (the bare noun) or more ("A gun is harmful." vs "A toy gun is harmful.").
        epc_harmful: the labels of an EPC model under which the query is harmful.
        epc_labels: every label an EPC model must have.
        epc_same: the label of an EPC pair whose two events are one sentence (a phrase that is
            its bare head, "a gun"): equally plausible by definition, as an SPTE pair of one
            sentence is an entailment; such pairs are decided without the model.
        llm: the zero-shot baseline's question to a causal LM over ``{{ query }}``; its
            first choice says harmful.
        source: where the classifiers and the prompt come from.
    """

    spte: tuple[str, str]
    spte_labels: tuple[str, ...]
    spte_positive: str
    epc: tuple[str, str]
    epc_harmful: tuple[str, ...]
    epc_labels: tuple[str, ...]
    epc_same: str
    llm: LLMPrompt
    source: str = ""


@dataclass(frozen=True)
class SubwordAnalysis:
    """What ``compsem subwords`` reads of a benchmark's rows (PLANE §6.1, Figs. 2–3): the word
    columns a tokenizer may split, the modifier first, and the column that groups the items."""

    words: tuple[str, ...]
    by: str


@dataclass(frozen=True)
class PaperResult:
    """One headline number of the benchmark's paper, as the paper prints it. The leaderboards
    and the results page show it beside compsem's runs of the same configs and metric, marked
    "reported in the paper, not rerun", and never pool it into compsem's lines or rankings.

    Attributes:
        source: the table or figure that prints it (``"Table 6"``).
        model: the model as the paper names it.
        configs: compsem's configs holding the rows the paper scored (every resample of a
            family the paper averaged over).
        metric: a leaderboard column (``accuracy``, ``macro-F1``, ``AUCnorm`` …) or, for
            phrase-set tests (``compsem embed``), the test (``intersectivity``).
        value: the number as printed.
        spread: the ± printed beside it, or None.
        spread_of: what the spread is over (``"std over 5 splits"``).
        scale: printed units per unit of compsem's scores (100: a percentage).
        group: the group a per-group cell scores (Montague: an adjective type), or "".
    """

    source: str
    model: str
    configs: tuple[str, ...]
    metric: str
    value: float
    spread: float | None = None
    spread_of: str = ""
    scale: float = 1.0
    group: str = ""

    @property
    def reported(self) -> str:
        """The number as the paper prints it, with its unit."""
        unit = " %" if self.scale == 100 else ""
        spread = "" if self.spread is None else f" ± {self.spread:g}"
        return f"{self.value:g}{spread}{unit}"


@dataclass(frozen=True)
class ModifierProbes:
    """What ``compsem probe-edges`` and ``compsem probe-scope`` read of a benchmark's rows (RNPC
    §7): phrases ``Det M1 M2 N``, each modifier with its semantic category.

    Attributes:
        categories: the categories a modifier has (the probe's classes), in order.
        modifiers: ``(word column, category column)`` per modifier position, M1 first.
        noun: the column of the head noun (lemma); the phrase's last word is its form.
        phrase: the column holding the phrase as written ("a former American diplomat").
        sentences: the columns that hold the phrase in a sentence the tasks' models read; a
            config's first one it has is encoded, the phrase alone where it has none.
        scope_category: the category of the M1 whose scope ``probe-scope`` reads (privative).
        figure_modifiers: the M1 words the paper's scope figure shows, drawn first.
        source: where the probes come from.
    """

    categories: tuple[str, ...]
    modifiers: tuple[tuple[str, str], ...]
    noun: str
    phrase: str
    sentences: tuple[str, ...] = ()
    scope_category: str = ""
    figure_modifiers: tuple[str, ...] = ()
    source: str = ""


@dataclass(frozen=True)
class BenchmarkSpec:
    """One benchmark.

    Attributes:
        name: the registry name (``compsem build NAME``, Hub repo ``compsem/NAME``).
        title: one line for ``--help`` and the demo's headings.
        builder: the ``datasets`` builder class; its ``BUILDER_CONFIG_CLASS`` declares every
            build setting (``compsem.benchmark.settings``).
        card_template: the Jinja template of the export's README.md.
        card_metadata: the card's YAML metadata (pretty name, licence, task categories…).
        describe_config: a config's one-paragraph description for the card.
        provenance: what the card records of a config's inputs beyond its settings
            (fingerprints, resource versions, derived statistics).
        optional_configs: configs built only when a setting is given, by setting name (e.g.
            ``original_release``: the original release's configs); the rest are the defaults.
        statistics_fields: columns whose value distribution the card tabulates per split.
        vocabulary_fields: columns whose distinct values the card counts per split.
        audit_checks: ``{regime: [check, …]}`` (``"*"``: any other regime), see
            ``compsem/benchmark/audit_checks.py``.
        audit_input_fields: the columns that make a row's model input (duplicate checks);
            default ``premise`` + ``hypothesis``, else the first of ``sentence``/``prompt``/``text``.
        audit_hypothesis_fields: the columns a hypothesis-only probe may read: each config's
            probe reads the first of them it has (RNPC: EPC's ``event``, without its NP).
        audit_validation_as_test: the regimes whose validation is drawn the way test is, so
            the audit promises the hypothesis-only probe scores it like test (within
            ``compsem.publish.audit.VALIDATION_PROBE_GAP``); other configs with both splits get the same
            line, reported but not promised.
        preset: the paper's training and evaluation settings for the harness, if it has any.
        changelog: ``{version: change}``, rendered on the card newest first.
        demo_settings: builder keyword arguments for ``compsem demo`` that change how fast the
            build runs but not what it holds.
        card_context: extra names the card template uses (e.g. BoOQA's bucket labels).
        export_files: ``(config, provenance) -> {file name: text}``, files written at the top of
            an export beside its card (RNPC: ``rule_agreement.json``).
        prepare: work the configs of an export share, done once before the first is built
            (PLANE: every GOoD and One-IT vocabulary search, in parallel, into the cache).
        llm_prompts: ``((columns, prompts), …)``: the questions ``compsem llm`` and the lm-eval
            tasks ask a causal LM; a config gets the prompts of the first entry whose columns it
            has, the first prompt being the default.
        task_families: the families of configs whose scores may be averaged (lm-eval groups).
        parses_corpus: whether a build parses a text corpus with spaCy (minutes on a first run,
            cached after): ``compsem demo`` builds and evaluates the others first.
        short_title: the heading of the benchmark's part of the results page and of its
            leaderboard (default: its name).
        paper_tables: the paper's table each report section mirrors, by section (``aucnorm``:
            BoOQA's Table 5), named in that section's heading.
        embedding: how ``compsem embed`` reads and reports a benchmark of phrase sets (Montague).
        subword_analysis: the columns ``compsem subwords`` reads (PLANE), or None.
        likelihood_sanity: a TSV of sentence pairs (``sentence_a``, ``sentence_b``,
            ``more_likely``: a or b) ``compsem probe-likelihood`` checks a model on first (RNPC
            Appendix C.3), or None.
        baselines: the reference runs of ``compsem baselines`` on this benchmark (the quick set:
            those with a ``quick`` entry).
        aucnorm: the configs whose rows the paper ranks by P(positive) and scores by AUCnorm
            (BoOQA §2, §4.2): True for every config of the benchmark, or the set of config
            names. Every evaluation of such a config (``train``, ``zero-shot``, ``score``,
            ``llm``, the lm-eval tasks) reports AUCnorm, AUC_ξ and AUC50% (see
            ``reports_aucnorm``).
        cluster_fields: the columns whose values together name the item a row was made from
            (RNPC: its source NP): rows of one item are not independent, so the harness
            resamples items, not rows, for the intervals of every score
            (``compsem/harness/results/intervals.py``); empty: every row is its own item.
        harm_detection: the paper's zero-shot harm detection with models trained on its tasks
            (``compsem harm-detection``; RNPC §8), if it has one.
        curve_panels: configs whose learning curves the page draws in another config's plot
            (RNPC §6: the release's ``inoculation_spte`` beside the generated ``spte``).
        paper_results: the paper's headline numbers as it reports them, shown beside compsem's
            runs of the same configs and metric (``compsem.harness.report.reference``).
        modifier_probes: the phrases and modifier categories of ``compsem probe-edges`` and
            ``compsem probe-scope`` (RNPC §7), if it has them.
    """

    name: str
    title: str
    builder: type[datasets.DatasetBuilder]
    card_template: Path
    card_metadata: Mapping[str, Any]
    describe_config: Callable[[datasets.BuilderConfig], str]
    provenance: Callable[[datasets.BuilderConfig], dict]
    preset: Preset | None = None
    optional_configs: Mapping[str, Sequence[str]] = field(default_factory=dict)
    statistics_fields: tuple[str, ...] = ()
    vocabulary_fields: tuple[str, ...] = ()
    audit_checks: Mapping[str, Sequence[Check]] = field(default_factory=dict)
    audit_input_fields: tuple[str, ...] | None = None
    audit_hypothesis_fields: tuple[str, ...] = ("hypothesis",)
    audit_validation_as_test: frozenset[str] = frozenset()
    changelog: Mapping[str, str] = field(default_factory=dict)
    demo_settings: Callable[[], dict] = dict
    card_context: Mapping[str, Any] = field(default_factory=dict)
    export_files: Callable[[datasets.BuilderConfig, dict], dict[str, str]] = no_files
    prepare: Callable[[list[datasets.BuilderConfig]], None] = nothing_to_prepare
    llm_prompts: tuple[tuple[frozenset[str], tuple[LLMPrompt, ...]], ...] = ()
    task_families: tuple[TaskFamily, ...] = ()
    aucnorm: bool | frozenset[str] = False
    cluster_fields: tuple[str, ...] = ()
    parses_corpus: bool = False
    short_title: str = ""
    paper_tables: Mapping[str, str] = field(default_factory=dict)
    embedding: EmbeddingTests | None = None
    subword_analysis: SubwordAnalysis | None = None
    likelihood_sanity: Path | None = None
    baselines: tuple[Baseline, ...] = ()
    harm_detection: HarmDetection | None = None
    paper_results: tuple[PaperResult, ...] = ()
    modifier_probes: ModifierProbes | None = None
    curve_panels: dict[str, str] = field(default_factory=dict)

    @property
    def heading(self) -> str:
        return self.short_title or self.name

    @property
    def version(self) -> str:
        return str(self.builder.VERSION)

    @property
    def config_class(self) -> type[datasets.BuilderConfig]:
        return self.builder.BUILDER_CONFIG_CLASS

    @property
    def original_configs(self) -> list[str]:
        """The configs read from a benchmark's original release, if it has a reader."""
        return list(self.optional_configs.get("original_release", ()))

    def default_config_names(self, settings: Mapping[str, Any]) -> list[str]:
        """Every config that the given settings make available, in declaration order."""
        optional = {
            name
            for setting, names in self.optional_configs.items()
            if not settings.get(setting)
            for name in names
        }
        return [c.name for c in self.builder.BUILDER_CONFIGS if c.name not in optional]

    def config_regime(self, config_name: str) -> str | None:
        """The split regime of a config (its ``regime`` attribute, else its name); None for a
        config the builder does not know."""
        config = self.builder.builder_configs.get(config_name)
        if config is None:
            return None
        return getattr(config, "regime", None) or config_name

    def prompts_for(self, columns) -> tuple[LLMPrompt, ...]:
        """The LLM prompts for a config with these columns (none where the benchmark has none)."""
        columns = set(columns)
        return next((prompts for needed, prompts in self.llm_prompts if needed <= columns), ())

    def regime_checks(self, regime: str | None) -> list[Check]:
        return list(self.audit_checks.get(regime, self.audit_checks.get("*", [])))

    def reports_aucnorm(self, config_name: str) -> bool:
        """Whether evaluations of the config report AUCnorm, AUC_ξ and AUC50%: every config
        when ``aucnorm`` is True, else the configs it names."""
        if isinstance(self.aucnorm, bool):
            return self.aucnorm
        return config_name in self.aucnorm
