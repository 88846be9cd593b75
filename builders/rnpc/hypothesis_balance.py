"""Down-sampling that keeps MPTE's hypothesis from giving its label away.

An MPTE hypothesis, ``P Det M N'``, shows the kept modifier M and N'. Where a modifier admits
one label only, the hypothesis alone decides the item: an intersective colour always carries
over, a relative modifier never does, a former never does. The label of the others rests on
what the hypothesis does not show: M's scope in the first premise (a Swiss gift from a skillful
Swiss watchmaker or from a fake Swiss watch) and how N' relates to N (a skillful doctor, said
of a surgeon or of a pianist), which is what MPTE tests (§3). A stratum here is the kept
modifier itself with the kind of N' it shows: a role noun (father, gift), one of the person
role words that serve as hypernym and co-hyponym alike (doctor), or another hypernym (weapon). So most of each label's quota, all but
``single_share``, comes in pairs from strata that hold both labels, as many items of each label
per stratum, spread evenly over the strata and within them over (combo, rule) cells as
:func:`compsem.builders.rnpc.tasks.balance` spreads them; the rest comes from the one-label
strata (from the others only where those run short).
"""

from __future__ import annotations

import numpy as np

from compsem.builders.rnpc.noun_phrases import Vocabulary

SINGLE_SHARE = 0.25  # of each label, from strata whose hypothesis decides it (the easy items)
# Who an item is about, which its sentence prefix shows (He/She/They are … or This is …).
# RNPC draws MPTE from the same noun phrases as its other tasks, about people and things alike
# (§4; its examples: a former president, a fake gun, fraudulent claims), and says nothing of a
# share, so each group gets half of each label. Without it the balancing above favours people
# (a role noun holds both labels; a thing's do not), and the prefix alone told the label.
GROUPS = ("person", "thing")


def balance_by_hypothesis(
    labels: np.ndarray,
    visible: np.ndarray,
    cells: np.ndarray,
    quotas: list[int],
    rng: np.random.Generator,
    spread_take,
    single_share: float = SINGLE_SHARE,
    strict: bool = False,
) -> np.ndarray | None:
    """Indices of ``quotas[label]`` candidates per label (None if some label has too few).
    ``visible``: each candidate's hypothesis-visible stratum; ``cells``: its (combo, rule).
    Binary labels: a stratum that holds both gives each the same number of items, so the
    stratum says nothing of the label; ``spread_take`` spreads a count evenly over groups.
    ``strict``: None also when the two-label strata cannot give their full share."""
    names, stratum = np.unique(visible, return_inverse=True)
    counts = np.zeros((len(names), 2), dtype=np.int64)
    np.add.at(counts, (stratum, labels), 1)
    capacity = counts.min(axis=1)  # pairs a stratum can give, one item of each label
    wanted = min(quotas) - round(single_share * min(quotas))
    if strict and capacity.sum() < wanted:
        return None
    wanted = min(wanted, int(capacity.sum()))
    groups = np.repeat(np.arange(len(names)), capacity)
    pairs = np.bincount(groups[spread_take(groups, wanted, rng)], minlength=len(names))
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


def balance_mpte(
    candidates,
    vocabulary: Vocabulary,
    quotas: list[int],
    rng: np.random.Generator,
    spread_take,
    strict: bool = False,
) -> np.ndarray | None:
    """:func:`compsem.builders.rnpc.tasks.balance` for MPTE ``candidates``
    (:class:`~compsem.builders.rnpc.tasks.Candidates`): few items whose hypothesis, the kept
    modifier and the kind of N' it shows, decides the label; and items about people and about
    things in equal numbers of each label (:data:`GROUPS`)."""
    hypothesis = candidates.hypothesis.astype(str)
    kept = np.char.startswith(hypothesis, "m2").astype(int)
    phrases = candidates.phrases[candidates.phrase]
    modifiers = vocabulary.modifiers["modifier"].astype(str)
    visible = modifiers[phrases[np.arange(len(phrases)), kept]]
    # N' shows a role noun (father, gift), a person hypernym or co-hyponym (one word list), or
    # another hypernym (weapon, animal)
    person = vocabulary.nouns["supersense"][phrases[:, 2]] == "person"
    relation = np.char.partition(hypothesis, ":")[:, 2]
    shown = np.where(relation == "role", "role", np.where(person, "person", relation))
    visible = np.char.add(np.char.add(visible.astype(str), "|"), shown.astype(str))
    cells = candidates.combo + "|" + candidates.rule
    chosen = []
    for index, group in enumerate((person, ~person)):
        members = np.flatnonzero(group)
        shares = [quota // len(GROUPS) + (index < quota % len(GROUPS)) for quota in quotas]
        picked = balance_by_hypothesis(
            candidates.label[members],
            visible[members],
            cells[members],
            shares,
            rng,
            spread_take,
            strict=strict,
        )
        if picked is None:
            return None
        chosen.append(members[picked])
    return np.sort(np.concatenate(chosen))
