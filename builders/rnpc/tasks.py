"""RNPC task items (SPTE, MPTE, EPC) from sampled recursive noun phrases, labelled by
:mod:`compsem.builders.rnpc.labels.rules`, and balanced by down-sampling (RNPC §4).

Phrases are sampled in equal numbers for every pair of modifier *strata* (the categories and, per
task, the subsective kind, what a privative negates, or the event effect), so all nine category
combinations and every rule occur. Each candidate (phrase × hypothesis; for MPTE × the N'
relation) is labelled from its modifiers' categories, kinds and attributes; each label is then
down-sampled to an equal share spread evenly over (combo, rule) cells (some rules are one
cell whatever the combo, :data:`SINGLE_CELL_RULES`; SPTE and MPTE: mostly in pairs from strata
a model reads at a glance, M1's attribute and the hypothesis, that hold both labels,
:mod:`compsem.builders.rnpc.shortcut_balance`), and only the chosen candidates are realised as
sentences.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from compsem.benchmark.grouping import in_representative_order
from compsem.builders.rnpc.labels.rules import (
    EPC_LABELS,
    MPTE_HYPOTHESES,
    RELATIONS,
    SPTE_HYPOTHESES,
    SPTE_LABELS,
    Slot,
)
from compsem.builders.rnpc.labels.rules import epc as epc_rule
from compsem.builders.rnpc.labels.rules import mpte as mpte_rule
from compsem.builders.rnpc.labels.rules import spte as spte_rule
from compsem.builders.rnpc.realisation import (
    EPC_SOURCES,
    EPC_STANCES,
    Candidates,
    TaskInputs,
    realise,
)
from compsem.builders.rnpc.shortcut_balance import balance_mpte, balance_spte
from compsem.builders.rnpc.words.noun_phrases import (
    Vocabulary,
    sample_phrases,
)
from compsem.builders.rnpc.words.second_nouns import second_noun_choices
from compsem.resources.modifiers import ABSTRACT_SUPERSENSES, CATEGORY_CODES

TASKS = ("spte", "mpte", "epc")
LABEL_NAMES = {"spte": SPTE_LABELS, "mpte": SPTE_LABELS, "epc": EPC_LABELS}
# MPTE's candidates are (kept modifier, N' relation) pairs: "m1:hypernym" …
HYPOTHESES = {
    "spte": SPTE_HYPOTHESES,
    "mpte": tuple(f"{h}:{r}" for h in MPTE_HYPOTHESES for r in RELATIONS),
    # an event E in keeping with N as it is or denied (cannot, does not), one against N, or one
    # of what a privative keeps
    "epc": ("", "denied", "against", "kept"),
}
# (beings and objects, abstract nouns): the weights of SPTE's and EPC's draws. About two-thirds of
# the heads of RNPC's phrases are abstract (an expected financial surge, a mock trial), and
# compsem's 59 abstract nouns, drawn with its 429 others, would be a few percent of the
# phrases. EPC draws them half the time, for 21% of its items (the probe on its event alone:
# 0.630 in 3.9.0, bound 0.68); its transfer to people's labels (issue 25, 5 seeds) was 0.517
# against 0.514 without them, and drawn two-thirds of the time 0.523 against 0.526 (4.0.0, over
# 8 builds of 3 seeds on an H200). SPTE keeps to beings and objects: drawn for a fifth or a third of its
# draws, they made its hypothesis tell more of the label (over four build seeds 0.690 and
# 0.697, the default seed 0.701 and 0.705, against 0.681 without them; issue 25's bound: 0.70)
# for a transfer within the seeds' spread (0.843, 0.849; 0.840)
ABSTRACT_WEIGHTS = {"spte": (1, 0), "epc": (1, 1)}
# tasks balanced so that no visible stratum tells the label (shortcut_balance)
_SHORTCUT_BALANCE = {"spte": balance_spte, "mpte": balance_mpte}


def _mpte_candidate_rule(hypothesis: str, m1: Slot, m2: Slot, person: bool):
    kept, relation = hypothesis.split(":")
    return mpte_rule(kept, m1, m2, relation, person)


RULE_FUNCTIONS = {
    "spte": spte_rule,
    "mpte": _mpte_candidate_rule,
    "epc": lambda hypothesis, m1, m2, person: epc_rule(m1, m2, EPC_STANCES[hypothesis]),
}
# EPC: the share of the denials drawn (a defining event said not to happen: a fake gun does not
# fire bullets) that stay candidates. Every phrase offers a denial and a stated event against N,
# so with all of them half of EPC's events against N were denials; RNPC's are mostly stated (34
# of the 117 events of issue 25's development half that read against N deny, 29%). Keeping half
# leaves a third denials. MiniLM's transfer to the human rows (five seeds) moves within its
# spread: 0.524 on the default build, 0.529 on another draw, against 0.517 with all kept
DENIAL_KEEP = 0.5
MAX_ROUNDS = 6
MAX_DRAWS_PER_ITEM = 32  # bounds the search when a lexicon cannot fill every label


def usable(task: str, inputs: TaskInputs) -> np.ndarray:
    """Modifiers a task may use: those that fit a noun the task draws (MPTE's nouns need a
    second noun, so a modifier of events alone has no place in it); EPC also leaves out unclear
    effects and determiner-forcing modifiers (its events are generic: 'A gun fires bullets.')."""
    vocabulary = inputs.vocabulary
    modifiers = vocabulary.modifiers
    nouns = np.concatenate([pool for pool, _ in noun_pools(task, inputs)])
    fits = vocabulary.fits[:, nouns].any(axis=1)
    if task != "epc":
        return fits
    return fits & (modifiers["effect"] != "unclear") & (modifiers["determiner"] == "indefinite")


def strata(task: str, vocabulary: Vocabulary) -> np.ndarray:
    """Each modifier's stratum: its category, refined by what the task's rules read."""
    modifiers = vocabulary.modifiers
    category = modifiers["category"].astype(str)
    if task == "spte":
        return np.char.add(category, modifiers["kind"].astype(str))
    if task == "epc":
        effect = np.where(category == "privative", "", modifiers["effect"].astype(str))
        return np.char.add(category, effect)
    # MPTE's rules read the subsective kind and what a privative negates
    detail = np.where(
        category == "privative", modifiers["attribute"].astype(str), modifiers["kind"].astype(str)
    )
    return np.char.add(category, detail)


def noun_pools(task: str, inputs: TaskInputs) -> list[tuple[np.ndarray, int]]:
    """The nouns a task may use, in groups, each with its weight in the draws: EPC's need an
    event; MPTE's a second noun, and it draws people and things in equal numbers (as its
    balancing keeps them, :data:`~compsem.builders.rnpc.shortcut_balance.GROUPS`): drawn
    together, the many modifiers that fit people only would leave few phrases about things.
    SPTE and EPC draw beings and objects, and abstract nouns (:data:`ABSTRACT_WEIGHTS`)."""
    names = inputs.vocabulary.nouns["noun"]
    if task == "mpte":
        has = np.array([bool(options) for options in inputs.second_nouns])
        person = inputs.vocabulary.names_people
        return [(np.flatnonzero(has & person), 1), (np.flatnonzero(has & ~person), 1)]
    has = np.isin(names, list(inputs.events)) if task == "epc" else np.ones(len(names), bool)
    abstract = np.isin(inputs.vocabulary.nouns["supersense"], ABSTRACT_SUPERSENSES)
    groups = zip((~abstract, abstract), ABSTRACT_WEIGHTS[task], strict=True)
    return [
        (np.flatnonzero(has & group), weight)
        for group, weight in groups
        if weight and (has & group).any()
    ]


def sample_stratified(
    task: str,
    inputs: TaskInputs,
    first: np.ndarray,
    second: np.ndarray,
    draws: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Distinct phrases from ``draws`` draws shared equally by the (M1 stratum, M2 stratum)
    pairs and, within each, by the task's noun groups that can form one, as they are weighted
    (abstract nouns take no intersective M1 before a privative: *a financial sham election*)."""
    vocabulary = inputs.vocabulary
    stratum = strata(task, vocabulary)
    pools = noun_pools(task, inputs)
    pairs = [(a, b) for a in np.unique(stratum[first]) for b in np.unique(stratum[second])]
    per_pair = -(-draws // max(len(pairs), 1))
    phrases = [
        sample_phrases(
            vocabulary,
            first[stratum[first] == a],
            second[stratum[second] == b],
            pools,
            per_pair,
            rng,
        )
        for a, b in pairs
    ]
    phrases = np.concatenate(phrases) if phrases else np.empty((0, 3), dtype=np.int64)
    _, keep = np.unique(phrases, axis=0, return_index=True)
    return phrases[np.sort(keep)]


def realisable(task: str, inputs: TaskInputs, hypothesis: str) -> np.ndarray | None:
    """Which nouns can say ``hypothesis`` (a mask over the nouns; None: all): MPTE's need an N'
    of the relation, EPC's an event of the stance it is drawn from."""
    if task == "mpte":
        relation = hypothesis.split(":")[1]
        return np.array([relation in options for options in inputs.second_nouns], dtype=bool)
    if task == "epc":
        source = EPC_SOURCES[hypothesis]
        names = inputs.vocabulary.nouns["noun"]
        return np.array([source in inputs.events.get(noun, {}) for noun in names], dtype=bool)
    return None


def label_candidates(task: str, inputs: TaskInputs, phrases: np.ndarray) -> Candidates:
    """Every (phrase, hypothesis) the rules label; left-out readings, and hypotheses the
    phrase's noun cannot say (:func:`realisable`), are dropped. The rules run once per
    combination of the two modifiers' (category, kind, effect, attribute) and whether the noun
    names people."""
    vocabulary = inputs.vocabulary
    m = vocabulary.modifiers
    signatures = list(zip(m["category"], m["kind"], m["effect"], m["attribute"], strict=True))
    names = sorted(set(signatures))
    code = np.array([names.index(s) for s in signatures])
    n = len(names)
    person = vocabulary.names_people[phrases[:, 2]]
    pair = person * n * n + code[phrases[:, 0]] * n + code[phrases[:, 1]]
    combos = np.array(
        [f"{CATEGORY_CODES[a[0]]}-{CATEGORY_CODES[b[0]]}" for a in names for b in names] * 2,
        dtype=object,
    )
    parts = []
    for hypothesis in HYPOTHESES[task]:
        outcomes = [
            RULE_FUNCTIONS[task](hypothesis, Slot(*a), Slot(*b), people)
            for people in (False, True)
            for a in names
            for b in names
        ]
        rules = np.array([o[0] if o else "" for o in outcomes], dtype=object)
        labels = np.array([o[1] if o else -1 for o in outcomes])
        rows = np.flatnonzero(labels[pair] >= 0)
        has = realisable(task, inputs, hypothesis)
        if has is not None:
            rows = rows[has[phrases[rows, 2]]]
        parts.append((rows, hypothesis, rules[pair[rows]], labels[pair[rows]], combos[pair[rows]]))
    order = np.argsort(np.concatenate([rows for rows, *_ in parts]), kind="stable")
    return Candidates(
        phrases,
        np.concatenate([rows for rows, *_ in parts])[order],
        np.concatenate([np.full(len(rows), h, dtype=object) for rows, h, *_ in parts])[order],
        np.concatenate([part[2] for part in parts])[order],
        np.concatenate([part[3] for part in parts])[order],
        np.concatenate([part[4] for part in parts])[order],
    )


def task_inputs(
    vocabulary: Vocabulary, second_nouns: tuple[pa.Table, pa.Table], events: pa.Table
) -> TaskInputs:
    """``second_nouns``: MPTE's role nouns and its listed hypernyms."""
    by_noun: dict[str, dict[str, list[str]]] = {}
    for row in events.to_pylist():
        by_noun.setdefault(row["noun"], {}).setdefault(row["stance"], []).append(row["event"])
    return TaskInputs(vocabulary, second_noun_choices(vocabulary, *second_nouns), by_noun)


def successive_quotas(totals: list[int], n_labels: int) -> list[list[int]]:
    """Equal shares of each of several parts, each part's remainder going to the labels that
    have fewest so far: every part, and the union of every prefix of parts, is balanced to
    within one item per label."""
    so_far = np.zeros(n_labels, dtype=np.int64)
    parts = []
    for total in totals:
        quota = np.full(n_labels, total // n_labels, dtype=np.int64)
        quota[np.argsort(so_far, kind="stable")[: total % n_labels]] += 1
        so_far += quota
        parts.append(quota.tolist())
    return parts


def spread_take(groups: np.ndarray, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` indices spread as evenly as possible over the groups (smallest groups filled
    first, the rest shared), random within each group."""
    names, inverse, sizes = np.unique(groups, return_inverse=True, return_counts=True)
    quota = np.zeros(len(names), dtype=np.int64)
    remaining = count
    order = np.argsort(sizes, kind="stable")
    for position, group in enumerate(order):
        quota[group] = min(sizes[group], remaining // (len(order) - position))
        remaining -= quota[group]
    while remaining > 0:  # fewer than one per group is left: to random groups with room
        room = rng.permutation(np.flatnonzero(sizes > quota))[:remaining]
        quota[room] += 1
        remaining -= len(room)
    taken = [
        rng.choice(np.flatnonzero(inverse == index), size=int(q), replace=False)
        for index, q in enumerate(quota)
        if q
    ]
    return np.sort(np.concatenate(taken)) if taken else np.array([], dtype=np.int64)


def balance(
    candidates: Candidates, quotas: list[int], rng: np.random.Generator
) -> np.ndarray | None:
    """Indices of ``quotas[label]`` candidates of each label, spread evenly over (combo, rule)
    cells (some rules are one cell, :data:`SINGLE_CELL_RULES`); None if some label has too few."""
    cells = candidates.cells
    chosen = []
    for label, quota in enumerate(quotas):
        members = np.flatnonzero(candidates.label == label)
        if len(members) < quota:
            return None
        chosen.append(members[spread_take(cells[members], quota, rng)])
    return np.sort(np.concatenate(chosen))


def _fewer_denials(candidates: Candidates, rng: np.random.Generator) -> Candidates:
    """EPC's candidates with each denial kept at :data:`DENIAL_KEEP`'s rate."""
    denied = candidates.hypothesis.astype(str) == "denied"
    kept = ~denied | (rng.random(len(denied)) < DENIAL_KEEP)
    return candidates.take(np.flatnonzero(kept))


def generate(
    task: str,
    inputs: TaskInputs,
    first: np.ndarray,
    second: np.ndarray,
    quotas: list[int],
    rng: np.random.Generator,
    exclude: frozenset = frozenset(),
) -> list[dict]:
    """``quotas[label]`` items of each label with M1 from ``first`` and M2 from ``second``
    (modifier indices), none of whose phrases is in ``exclude`` ((modifier1, modifier2, noun)
    words); draws more phrases, in proportion to the scarcest label's shortfall, until each
    label has enough."""
    n_labels = len(LABEL_NAMES[task])
    draws = max(1_000, 2 * sum(quotas))
    counts = np.zeros(n_labels, dtype=np.int64)
    for _ in range(MAX_ROUNDS):
        phrases = sample_stratified(task, inputs, first, second, draws, rng)
        if exclude:
            phrases = phrases[~phrases_in(inputs.vocabulary, phrases, exclude)]
        candidates = label_candidates(task, inputs, phrases)
        if task == "epc":
            candidates = _fewer_denials(candidates, rng)
        # exhausted when draws mostly repeat phrases (fewer than one new in 16; MPTE's phrases
        # about things repeat early, yet twice the draws still double its two-label pairs)
        exhausted = len(phrases) < draws / 16 or draws >= MAX_DRAWS_PER_ITEM * sum(quotas)
        # SPTE and MPTE first ask for their full share of items balanced over what a model
        # reads at a glance (M1's attribute, the hypothesis), and settle for fewer only once
        # the draws are exhausted
        chosen = (
            _SHORTCUT_BALANCE[task](
                candidates, inputs.vocabulary, quotas, rng, spread_take, not exhausted
            )
            if task in _SHORTCUT_BALANCE
            else balance(candidates, quotas, rng)
        )
        if chosen is not None:
            return realise(task, inputs, candidates.take(chosen), rng)
        counts = np.bincount(candidates.label, minlength=n_labels)
        if exhausted:
            break  # the draws mostly repeat phrases: there are no more to find
        shortfall = max(quotas) / max(int(counts.min()), 1)
        draws = min(
            int(draws * min(max(2.0, 1.3 * shortfall), 8.0)), MAX_DRAWS_PER_ITEM * sum(quotas)
        )
    raise ValueError(
        f"{task.upper()}: cannot reach {sum(quotas)} balanced items from this lexicon and these "
        f"nouns (found {dict(zip(LABEL_NAMES[task], map(int, counts), strict=True))} candidates "
        "per label, fewer once spread over their cells and what a model reads at a glance). "
        "Lower --size, or use a lexicon with more modifiers of each category."
    )


def phrases_in(vocabulary: Vocabulary, phrases: np.ndarray, words: frozenset) -> np.ndarray:
    """Which phrases (rows of modifier, modifier, noun indices) are, in words, in ``words``."""
    modifiers, nouns = vocabulary.modifiers["modifier"], vocabulary.nouns["noun"]
    return np.array(
        [(modifiers[a], modifiers[b], nouns[n]) in words for a, b, n in phrases.tolist()],
        dtype=bool,
    )


def learning_curve_order(table: pa.Table, rng: np.random.Generator) -> pa.Table:
    """Train's stored order, whose prefixes are the learning-curve subsets (§6): the
    representative order of :mod:`compsem.benchmark.grouping` with labels interleaved by rank (which
    label comes first at each rank drawn at random), so every prefix is balanced to within one
    item per label and each label's rows keep their share of every group."""
    ordered = in_representative_order(table, rng.integers(0, 2**32, size=2).tolist())
    labels = np.asarray(ordered["label"].to_pylist())
    rank = np.zeros(len(labels), dtype=np.int64)
    for label in np.unique(labels):
        rank[labels == label] = np.arange((labels == label).sum())
    return ordered.take(np.lexsort((rng.random(len(labels)), rank)))
