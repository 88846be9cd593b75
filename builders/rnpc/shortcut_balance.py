"""Down-sampling that keeps what a model reads at a glance from giving the label away.

A *visible stratum* is what an item shows on its face, whatever its label rests on. Where a
stratum admits one label only, it alone decides the item; so most of each label's quota, all
but a single share, comes in pairs from strata that hold both labels, as many items of each
label per stratum, spread evenly over the strata and within them over (combo, rule) cells as
:func:`compsem.builders.rnpc.tasks.balance` spreads them; the rest comes from the one-label
strata (from the others only where those run short).

MPTE (:func:`balance_mpte`): a hypothesis, ``P Det M N'``, shows the kept modifier M and N'.
An intersective colour always carries over, a relative modifier never does, a former never
does; the label of the others rests on what the hypothesis does not show: M's scope in the
first premise (a Swiss gift from a skillful Swiss watchmaker or from a fake Swiss watch) and
how N' relates to N (a skillful doctor, said of a surgeon or of a pianist), which is what MPTE
tests (§3). Its stratum is the kept modifier itself with the kind of N' it shows: a role noun
(father, gift), one of the person role words that serve as hypernym and co-hyponym alike
(doctor), or another hypernym (weapon).

SPTE (:func:`balance_spte`): the label rests on which modifier the hypothesis drops (*the
first big wave* is a big wave and a wave, not the first wave), not on which the premise holds.
Balanced over (combo, rule) cells alone, the premise's first modifier told the label: 79% of
the items whose premise leads with an ordinal were non-entailments, as one rule (M1 N under a
relative M1) filled its cell with them, and the commonest label per M1 attribute, learnt on
half the items, scored 0.80 on the rest. MiniLM trained on those rows read *This is the first
big wave.* → *This is a wave.* as a non-entailment, where people and the rules say entailment
(issue 25). Its stratum is M1's attribute (RNPC's lexicon gives each modifier one, §4).
"""

from __future__ import annotations

import numpy as np

from compsem.builders.rnpc.words.noun_phrases import Vocabulary

SINGLE_SHARE = 0.25  # of each MPTE label, from strata whose hypothesis decides it (the easy items)
# of each SPTE label, from strata whose M1 attribute decides it: with 0.25 a probe on M1's
# attribute read 0.60 and MiniLM's transfer to people's labels was 0.835, with 0.10 0.53 and 0.841
# (3 seeds); with 0 the 17 attributes whose items all entail (mood, religion, licence …) drop out,
# for 0.848 against 0.840 over 8 builds (3 seeds each, H200), still short of issue 25's 0.85
SPTE_SINGLE_SHARE = 0.10
# Who an item is about, which its sentence prefix shows (He/She/They are … or This is …).
# RNPC draws MPTE from the same noun phrases as its other tasks, about people and things alike
# (§4; its examples: a former president, a fake gun, fraudulent claims), and says nothing of a
# share, so each group gets half of each label. Without it the balancing above favours people
# (a role noun holds both labels; a thing's do not), and the prefix alone told the label.
GROUPS = ("person", "thing")


def balance_by_visible(
    labels: np.ndarray,
    visible: np.ndarray,
    cells: np.ndarray,
    quotas: list[int],
    rng: np.random.Generator,
    spread_take,
    single_share: float = SINGLE_SHARE,
    strict: bool = False,
    families: np.ndarray | None = None,
) -> np.ndarray | None:
    """Indices of ``quotas[label]`` candidates per label (None if some label has too few).
    ``visible``: each candidate's visible stratum; ``cells``: its (combo, rule).
    Binary labels: a stratum that holds both gives each the same number of items, so the
    stratum says nothing of the label; ``spread_take`` spreads a count evenly over groups.
    ``families``: each candidate's family of strata (the same for a stratum's candidates); the
    pairs are spread evenly over families first, then over the strata of each.
    ``strict``: None also when the two-label strata cannot give their full share."""
    names, stratum = np.unique(visible, return_inverse=True)
    counts = np.zeros((len(names), 2), dtype=np.int64)
    np.add.at(counts, (stratum, labels), 1)
    capacity = counts.min(axis=1)  # pairs a stratum can give, one item of each label
    wanted = min(quotas) - round(single_share * min(quotas))
    if strict and capacity.sum() < wanted:
        return None
    wanted = min(wanted, int(capacity.sum()))
    family = np.zeros(len(names), dtype=np.int64)
    if families is not None:
        family[stratum] = np.unique(families, return_inverse=True)[1]
    pairs = _spread_pairs(capacity, family, wanted, rng, spread_take)
    keys = np.char.add(np.char.add(visible.astype(str), "|"), cells.astype(str))
    chosen = []
    for label, quota in enumerate(quotas):
        own = labels == label
        taken = [
            members[spread_take(keys[members], int(pairs[index]), rng)]
            for index in np.flatnonzero(pairs)
            for members in [np.flatnonzero(own & (stratum == index))]
        ]
        rest = np.setdiff1d(np.flatnonzero(own), np.concatenate(taken) if taken else [])
        if len(rest) < quota - wanted:
            return None
        # one-label strata first (more of one label in a two-label stratum would tell), spread
        # over (combo, rule) cells so that every rule keeps its share
        single = rest[capacity[stratum[rest]] == 0]
        need = quota - wanted
        if len(single) >= need:
            taken.append(single[spread_take(cells[single], need, rng)])
        else:
            others = np.setdiff1d(rest, single)
            taken += [single, others[spread_take(cells[others], need - len(single), rng)]]
        chosen.extend(taken)
    return np.sort(np.concatenate(chosen))


def _spread_pairs(capacity, family, wanted: int, rng, spread_take) -> np.ndarray:
    """Pairs per stratum: ``wanted`` spread evenly over families, then over their strata."""
    units = np.repeat(family, capacity)
    per_family = np.bincount(units[spread_take(units, wanted, rng)], minlength=family.max() + 1)
    pairs = np.zeros(len(capacity), dtype=np.int64)
    for index in np.flatnonzero(per_family):
        members = np.flatnonzero(family == index)
        groups = np.repeat(members, capacity[members])
        taken = groups[spread_take(groups, int(per_family[index]), rng)]
        pairs += np.bincount(taken, minlength=len(capacity))
    return pairs


def balance_mpte(
    candidates,
    vocabulary: Vocabulary,
    quotas: list[int],
    rng: np.random.Generator,
    spread_take,
    strict: bool = False,
) -> np.ndarray | None:
    """:func:`compsem.builders.rnpc.tasks.balance` for MPTE ``candidates``
    (:class:`~compsem.builders.rnpc.realisation.Candidates`): few items whose hypothesis, the kept
    modifier and the kind of N' it shows, decides the label; and items about people and about
    things in equal numbers of each label (:data:`GROUPS`)."""
    hypothesis = candidates.hypothesis.astype(str)
    kept = np.char.startswith(hypothesis, "m2").astype(int)
    phrases = candidates.phrases[candidates.phrase]
    modifiers = vocabulary.modifiers["modifier"].astype(str)
    visible = modifiers[phrases[np.arange(len(phrases)), kept]]
    # N' shows a role noun (father, gift), a person hypernym or co-hyponym (one word list), or
    # another hypernym (weapon, animal)
    person = vocabulary.names_people[phrases[:, 2]]
    relation = np.char.partition(hypothesis, ":")[:, 2]
    shown = np.where(relation == "role", "role", np.where(person, "person", relation))
    visible = np.char.add(np.char.add(visible.astype(str), "|"), shown.astype(str))
    cells = candidates.cells
    # a family: the kept modifier's attribute with the kind of N' shown. RNPC's lexicon gives
    # each modifier an attribute (§4); spread over words alone, the many nationality words
    # took most pairs (a fake Swiss watch that is a gift: a Swiss gift?)
    attributes = vocabulary.modifiers["attribute"].astype(str)
    attribute = attributes[phrases[np.arange(len(phrases)), kept]]
    families = np.char.add(np.char.add(attribute, "|"), shown.astype(str))
    chosen = []
    for index, group in enumerate((person, ~person)):
        members = np.flatnonzero(group)
        shares = [quota // len(GROUPS) + (index < quota % len(GROUPS)) for quota in quotas]
        picked = balance_by_visible(
            candidates.label[members],
            visible[members],
            cells[members],
            shares,
            rng,
            spread_take,
            single_share=SINGLE_SHARE,
            strict=strict,
            families=families[members],
        )
        if picked is None:
            return None
        chosen.append(members[picked])
    return np.sort(np.concatenate(chosen))


def balance_spte(
    candidates,
    vocabulary: Vocabulary,
    quotas: list[int],
    rng: np.random.Generator,
    spread_take,
    strict: bool = False,
) -> np.ndarray | None:
    """:func:`compsem.builders.rnpc.tasks.balance` for SPTE ``candidates``: few items whose
    premise's first modifier, by its attribute, decides the label."""
    phrases = candidates.phrases[candidates.phrase]
    attribute = vocabulary.modifiers["attribute"].astype(str)[phrases[:, 0]]
    return balance_by_visible(
        candidates.label,
        attribute,
        candidates.cells,
        quotas,
        rng,
        spread_take,
        single_share=SPTE_SINGLE_SHARE,
        strict=strict,
    )
