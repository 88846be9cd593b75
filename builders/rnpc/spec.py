"""RNPC as compsem publishes it: the card, the harness preset and the changelog."""

from __future__ import annotations

import json
from collections import Counter

import pyarrow as pa

from compsem.benchmark.card import WORDNET_LICENSE, template_path
from compsem.benchmark.presets import Preset
from compsem.benchmark.spec import BenchmarkSpec
from compsem.builders.rnpc.audit import AUDIT_CHECKS
from compsem.builders.rnpc.baselines import BASELINES
from compsem.builders.rnpc.builder import Rnpc
from compsem.builders.rnpc.config import (
    INOCULATION_CONFIGS,
    LEARNING_CURVE_SIZES,
    ORIGINAL_CONFIGS,
    RnpcConfig,
)
from compsem.builders.rnpc.generation import generation_key, load_inputs, task_splits
from compsem.builders.rnpc.harm_detection import HARM_DETECTION
from compsem.builders.rnpc.labels.agreement import rule_agreement
from compsem.builders.rnpc.labels.catalogue import RULES
from compsem.builders.rnpc.llm_prompts import LLM_PROMPTS, SANITY_PAIRS
from compsem.builders.rnpc.probes import MODIFIER_PROBES
from compsem.builders.rnpc.shortcut_balance import SINGLE_SHARE, SPTE_SINGLE_SHARE
from compsem.builders.rnpc.tasks import ABSTRACT_WEIGHTS, TASKS
from compsem.resources.modifiers import CATEGORIES

CHANGELOG = {
    "1.0.0": "first compsem generation of RNPC: SPTE, MPTE and EPC labelled by explicit rules "
    "from a shipped modifier lexicon and WordNet nouns; learning-curve splits with modifiers "
    "disjoint by position, challenge sets, and the original release's CSVs.",
    "2.0.0": "labels follow meaning, not category alone (issue 18). MPTE chooses N' by its WordNet "
    "relation to N (hypernym, co-hyponym or role; new field second_noun_relation) and labels each "
    "(kept modifier's category and kind, scope, relation) cell: a role-judging modifier carries "
    "over to a hypernym, an imitation to a hypernym it still is, an intersective M2 outlives a "
    "role-ending M1 when it is lasting and a fake's surface, not a faked origin. SPTE: an imitation "
    "M1 over an origin or value M2 entails N, a gradable M1 over a surface M2 entails M1 N, and "
    "scopes that are unclear are left out. MPTE is down-sampled so the hypothesis alone gives "
    "little away: the audit's hypothesis-only probe on mpte_challenge (default inputs) fell from "
    "94.1% accuracy (AUCnorm 0.925) to 66.7% (AUCnorm 0.467). Builds with --original-release "
    "also report the rules' agreement with the release's human labels (card and "
    "rule_agreement.json).",
    "3.0.0": "rules fitted to what people judge (issue 25). A kept privative carries over to N' "
    "when N names a thing or an event (a possible merger that is a deal is a possible deal) and "
    "not when N names people (new rules m1.privative_of_thing, m2.privative_of_thing, "
    "m2.under_privative); a relative M2, or a relative M1 with N' another role, is left out. "
    "SPTE: a privative M1 over a subsective M2 entails M1 N, a role-ending M1 over a subsective "
    "M2 ends the role N of a person (n.role_ended), an intersective M1 over a privative M2 is "
    "left out. EPC: a privative makes a denied event more plausible (release rows only). The "
    "rule agreement reads every entry of a release's lexicon files (also those generation drops) and "
    "whether N names people (its first WordNet sense). Human dev half (issue 25): SPTE 0.867 at "
    "coverage 0.834 (was 0.846 at 0.801), MPTE 0.852 at 0.807 (was 0.647 at 0.826), EPC 0.481 at "
    "0.339 (was 0.441 at 0.257); hypothesis-only probe on mpte_challenge 67.5%, spte_challenge "
    "65.2%. Splits are stored in a representative order: each split is shuffled once, seeded "
    "by the build's seed, the config and the split, and stratified by label and grouping fields, "
    "so any prefix (`--limit N`) holds each label and group close to its share (issue 23).",
    "3.1.0": "EPC also denies its defining events (issue 25): a phrase's event may be stated "
    "or denied (does not fire bullets, cannot be eaten), and a privative makes the denial more "
    "plausible (privative_negated_event, now generated; people agree with it on 0.81 of the "
    "human development half's denied events), while modifiers that leave E as it is leave its "
    "denial as it is. On the release's rows the agreement report reads only the modifier event 1 "
    "lacks, and a denial with any privative added as more plausible. Human dev half: EPC 0.482 "
    "at coverage 0.401 (was 0.481 at 0.339); SPTE and MPTE unchanged (0.867 at 0.834, 0.852 at "
    "0.807). Transfer (perf/rnpc_transfer.py: MiniLM fine-tuned on 2,000 challenge rows, 2 "
    "epochs, mean of 3 seeds, scored on the human dev half): at the preset's learning rate 1e-5 "
    "SPTE 0.610, MPTE 0.641, EPC 0.422 (majority 0.508, 0.514, 0.397); at 5e-5 SPTE 0.793, "
    "MPTE 0.614, EPC 0.413. The train split keeps its learning-curve order (representative, "
    "labels interleaved), so every learning-curve prefix is balanced to within one item.",
    "3.2.0": "SPTE and MPTE are written as RNPC writes them (issue 25): things take §3's "
    "This is (no longer It is), and a fifth of the phrases are plural (They are for people; "
    "These, Those or They are for things, before a bare plural NP: These are fake black guns. "
    "These are toys.), where the nouns have a regular plural WordNet reads back; RNPC writes "
    "about a fifth of its SPTE and MPTE items so. Items, labels and splits are unchanged; "
    "hypothesis-only probe on mpte_challenge 68.1% (was 67.5%), spte_challenge 65.2%. "
    "perf/rnpc_transfer.py chooses batch size and learning rate per task on generated held-out "
    "rows (batch 4, 5e-5 for all three); transfer to the human dev half, mean of 3 seeds: SPTE "
    "0.813, MPTE 0.639, EPC 0.423 (at the preset's 16 and 1e-5, seed 0: SPTE 0.590, MPTE 0.623).",
    "3.3.0": "MPTE's items are about people and things alike (issue 25): the hypothesis balancing "
    "had made three in four about people (a role noun holds both labels, a thing's rarely do), "
    "so He/She against This told the label; now each group holds half of each label, and "
    "phrases are drawn for each group alike. Its pairs are spread evenly over the kept "
    "modifier's attributes before its words, so the 72 nationality words weigh as one "
    "attribute. Hypothesis-only probe on mpte_challenge 64.2% (was 68.1%). Transfer to the "
    "human dev half (perf/rnpc_transfer.py, MPTE, mean of 3 seeds): 0.700 (was 0.639; people "
    "and things alone: 0.687). SPTE and EPC unchanged.",
    "3.4.0": "EPC reads how an event stands to what N is (issue 25): a privative takes away what "
    "makes an N an N, so an event in keeping with N's nature (what it does, is for or is valued "
    "for; for a harmful N, its harm) is less plausible and one against it (a denial; N failing, "
    "worth little, rejected; a harmful N harmless) more. The rule privative_negated_event is "
    "now privative_against_nature, and generated denials carry that id; generated events, "
    "labels and splits are otherwise unchanged. On a release's rows an event's stance is read "
    "from its valence (VADER, without the noun phrase's own words) against the noun's, a neutral "
    "event saying what N can do is in keeping, and other neutral events are left out where a "
    "privative is added; the other modifier's unknown effect no longer hides a privative. "
    "Human dev half: EPC 0.669 at coverage 0.404 (was 0.482 at 0.401); SPTE and MPTE unchanged.",
    "3.5.0": "EPC's generated events cover both stances the rule reads (issue 25): each noun has, "
    "besides its defining event, an event it is valued for (a surgeon helps patients recover; "
    "for a harmful N, its harm: a gun kills people) and an event against its nature, stated "
    "rather than denied and never presupposing a real N (a surgeon botches operations and "
    "harms patients; a dog is dull and lifeless; a gun is harmless), "
    "each with a rationale in rnpc_events.tsv's new stance column. A phrase's rows may state "
    "its event in keeping with N, deny it, or state the event against N; the new field "
    "event_stance says which stance (in_keeping, against) the label was read from. Labels follow "
    "the 3.4.0 rules, and EPC's splits are stored in an order representative of event_stance "
    "too (a grouping field the harness scores). SPTE, MPTE and the agreement with the "
    "release's rows are unchanged. Transfer to the human dev half (perf/rnpc_transfer.py, "
    "EPC, mean of 3 seeds): 0.486 (was 0.423; majority 0.397).",
    "3.6.0": "EPC reads a third stance (issue 25): an event of what a privative keeps, a thing's "
    "form (a fake gun has a trigger, a toy dog has four legs) or a person's own traits (a "
    "former surgeon is left-handed), is equally plausible whatever the modifiers (rule "
    "property_kept), unless one speaks of that look or person (colour, pattern, shape, hair, "
    "appearance, handedness, nationality: left out). rnpc_events.tsv lists 522 such events, two "
    "per noun, with the stance kept; event_stance takes the value kept, and privative phrases "
    "now reach the equally-plausible label, as 28% of the human rows do. On a release's rows an "
    "event that says a colour, a person's sex or hand, or a count of parts is read as kept. "
    "As no modifier moves their label, property_kept is one balancing cell, not one per combo: "
    "kept events are a fifth of the equally plausible rows, and the audit's probe on EPC's "
    "event alone (new: EPC has no hypothesis) scores 0.531 on epc_challenge (3.5.0's rows: "
    "0.487; a cell per combo: 0.705). Human dev half: EPC 0.686 at coverage 0.422 (was 0.669 "
    "at 0.404; property_kept 13 of 13). perf/rnpc_transfer.py now draws each seed its own "
    "training rows: EPC 0.492 (3.5.0's rows: 0.481), SPTE 0.806, MPTE 0.708. SPTE and MPTE "
    "rows unchanged.",
    "3.7.0": "EPC's mix follows RNPC's (issue 25): EPC is the task for privative phrases (§3) "
    "and 93% of the human dev half's rows have a privative, yet a balancing cell per combo "
    "gave the four combos without one 44% of the less and more plausible rows. The effect "
    "table's effect_less and effect_more are now one balancing cell each, as property_kept "
    "is: privative phrases hold 82% of those rows. effect_equal keeps a cell per combo (as "
    "one cell, kept events became half of the equal rows). EPC's rules, labels and agreement "
    "with the release's rows unchanged. Transfer to the human dev half "
    "(perf/rnpc_transfer.py, EPC, a draw per seed): 0.514 over 3 seeds and over 5 "
    "(3.6.0's rows: 0.492 over 3, 0.478 over 5); the probe on EPC's event alone scores 0.636 "
    "(3.6.0: 0.531), as with a privative the event's stance decides the label. "
    "SPTE's relative M1 of degree (size, age, height, fame, quality: rule m1_n.m1_gradable, "
    "which replaces m1_n.m1_gradable_over_surface) is judged against N itself, as people judge "
    "it: a tall young buffalo hunter is a tall buffalo hunter (up to 3.6.0: non-entailment over "
    "a subsective M2, left out over a non-surface intersective one); an M1 over an M2 that "
    "picks or ranks is not carried over (my new favorite movie is not my new movie). Human dev "
    "half: SPTE 0.877 at coverage 0.843 (was 0.867 at 0.834); SPTE transfer 0.798 over 3 "
    "seeds, 0.803 over 5 (3.6.0's rows: 0.806, 0.804). The release's NPs are read better: M1 "
    "and M2 are the first neighbouring words the release's lexicon lists in the row's combo "
    "categories (an arrogant former young genius: former, young, not arrogant, former; 53 of "
    "1,724 dev-half rows), so the original_* configs' det, modifier1, modifier2 and noun "
    "fields change there. Agreement on the dev half with both: SPTE 0.880 at coverage 0.868 "
    "(the new rule 23 of 23), MPTE 0.861 at 0.811 (was 0.852 at 0.807). On a release's rows "
    "an EPC event that says what kind of thing N is or what it involves (a mock criminal trial "
    "involves debates) is read as one a privative keeps: people call 16 of the dev half's 17 "
    "such rows equally plausible. EPC 0.710 at coverage 0.446 (was 0.686 at 0.422).",
    "3.8.0": "SPTE's premise no longer tells the label (issue 25): balanced over (combo, rule) "
    "cells alone, 79% of the items whose premise leads with an ordinal were non-entailments "
    "(one rule, M1 N under a relative M1, filled its cell with them) and a probe on M1's "
    "attribute alone scored 0.80, so MiniLM read 'This is the first big wave.' -> 'This is a "
    "wave.' as a non-entailment. As MPTE's hypothesis strata are, SPTE's M1 attributes now "
    "give 90% of each label in pairs, as many of each label per attribute: the probe on M1's "
    "attribute scores 0.53, the hypothesis-only probe 0.682 (was 0.651), and transfer to the "
    "human dev half (perf/rnpc_transfer.py, a draw per seed) rises to 0.841 over 3 seeds and "
    "0.840 over 5 (3.7.0's rows: 0.798, 0.803). SPTE's rules and labels unchanged; MPTE and "
    "EPC rows byte-identical; hypothesis_balance is now shortcut_balance.",
    "3.9.0": "Abstract nouns (issue 25): about two-thirds of the heads of RNPC's phrases are "
    "acts, documents, events, sums of money and plans (an expected financial surge, a mock "
    "trial); compsem's were all beings and objects. 59 abstract WordNet nouns (supersenses "
    "act, communication, event, possession, cognition) join the noun list, with events of each "
    "stance (kept ones say what the noun involves or what kind of thing it is: a mock trial "
    "involves a defendant); the lexicon gains the field (financial, legal) and reach "
    "(national, local) of an act or document and privatives of what has not happened or is not "
    "real (proposed, planned, expected, mock), and extends its privatives, relative and "
    "nationality modifiers to them. EPC draws them for half its draws (21% of the challenge "
    "items; tasks.ABSTRACT_WEIGHTS). SPTE keeps to beings and objects, as with them its "
    "hypothesis alone told more of the label (up to issue 25's bound, 0.70), and its rows are "
    "byte-identical; MPTE has no second noun for them. A pair of modifier strata only one noun "
    "group can form now gives that group all its draws (before, abstract nouns left EPC short "
    "of privative M2s), which moves MPTE's rows. EPC's person nouns gain a kept event of the "
    "person's sex (a former actor is a man). Transfer to the human dev half "
    "(perf/rnpc_transfer.py, 3 seeds): EPC 0.517 (3.8.0: 0.514), MPTE 0.724 (0.708). Rules, "
    "labels and rule agreement unchanged.",
    "3.10.0": "EPC reads an event by what an added modifier says (issue 25): on a release's rows "
    "an event the rules left unread goes by that modifier where it restates what the modifier "
    "says (its WordNet synonym: an impossible long shot is unachievable) or its opposite (its "
    "antonym: an amateur competition has professional players), and an event of when N is "
    "(retired years ago, will start soon) goes by a modifier that places N in its past "
    "(former, previous) or in what may come (would-be, expected; rules.MODIFIER_TIMES): "
    "modifier_restated and modifier_opposed agree with people on 23 of the 25 development-half "
    "rows they label. EPC 0.723 at coverage 0.478 (was 0.710 at 0.446); these two read release "
    "rows only (generated events of when an occupation is took EPC's transfer from 0.517 to "
    "0.509 over five seeds and are not shipped). EPC's events against N are mostly stated, as "
    "RNPC's are (29% denials in the dev half): each phrase offers a denial and a stated event, "
    "and half the denials drawn now stay candidates (tasks.DENIAL_KEEP), so a third of the "
    "events against N are denials (3.9.0: half); EPC's rows move, SPTE's and MPTE's do not. "
    "EPC's transfer to the human dev half (perf/rnpc_transfer.py): 0.517 over 3 seeds (0.573, "
    "0.493, 0.485), 0.524 over 5 (3.9.0: 0.517 and 0.517).",
    "3.10.1": "EPC's rule agreement reads more kinds of release event (issue 25), each by what "
    "the event says: its verbs and nouns with the adjectives WordNet derives from them (a "
    "fictitious market exists: existent, fictitious's antonym; 3 of 4 development-half rows); "
    "one placing N (born in Nigeria, competes for Germany) restates a modifier placing it there "
    "or within (African) and opposes one placing it apart (Swedish), by WordNet's pertainyms "
    "and part holonyms (places.py; 6 of 6); one of N now (still, currently, today) opposes a "
    "modifier of its past, one in history is of its past, and historic now places N there (6 "
    "of 7 of N now); the unit a quantity is stated in (denominated in dollars) is kept by any "
    "modifier (5 of 5), and a kept event is read whichever of N or M2 a privative before a "
    "stage negates (2 of 2). EPC 0.737 at coverage 0.513 (was 0.723 at 0.478). Generated rows unchanged: compsem's events say none of these, and its EPC draws "
    "no privative before a stage.",
    "3.10.2": "The rule agreement report gives, per task, readings blind to the modifiers "
    "(issue 25; baselines in rule_agreement.json and a table on the card): the commonest "
    "label's share, the share of phrases holding a privative and, for EPC, each row read by its "
    "event alone as the rules read an event under a privative. On the development half that "
    "reading agrees with people on 0.549 of EPC's rows (93% of them hold a privative; the "
    "commonest label 0.397), about RNPC's transfer target of 0.55. Generated rows unchanged.",
    "3.10.3": "The rule agreement report's line over all tasks gives rows and coverage only: "
    "agreement stays per task, as SPTE and MPTE have two labels and EPC three (the pooled share "
    "it gave, 0.833 on issue 25's development half, mixed the two). Generated rows unchanged.",
    "4.0.0": "validation is as far out of distribution as test: up to 3.10.3 it was drawn from "
    "train's side of the modifier split (62 of its 101 M1 words occurred in train), so it "
    "selected models in distribution while test measured them out of it. Train now takes its "
    "train_size items from its side of the split, and validation is drawn from the items of "
    "the other side (spread over their (combo, rule) cells), test keeping the rest: no "
    "modifier of train occurs in the same position in validation or test, validation shares no "
    "row with test, and train, validation and test (and their union) are each balanced to "
    "within one item per label. The audit's hypothesis-only probe, validation against test: "
    "SPTE 0.528 / 0.561, MPTE 0.602 / 0.557, EPC 0.586 / 0.567 (default inputs). Every split "
    "and challenge config is redrawn (rules, labels, mix and sizes unchanged); on the "
    "challenge configs the probe reads SPTE 0.698, MPTE 0.662, EPC 0.612 (bound 0.70; four "
    "build seeds: SPTE 0.692 to 0.698). Transfer to the human dev half "
    "(perf/rnpc_transfer.py, 3 seeds): SPTE 0.841, MPTE 0.724, EPC 0.546 (3.10.3: 0.841, "
    "0.724, 0.517); builds at seeds 1 and 2: SPTE 0.823 and 0.839, EPC 0.533 and 0.526, so "
    "EPC's rise is the draw's.",
    "4.1.0": "the challenge configs gain train and validation splits (issue 53): train (2,000 items, "
    "--challenge-train-size) and validation (500, --challenge-validation-size) generated by the "
    "same rules from every modifier the task uses, from phrases (M1, M2, N) their test never "
    "holds, and validation from none train holds; balanced by label, train in the "
    "learning-curve order. `compsem train --config epc_challenge --max-train-examples 2000` "
    "trains on generated rows with compsem's own commands (before, perf/rnpc_transfer.py drew "
    "them from the challenge's test). Every test split, and the split configs, are unchanged; "
    "the audit promises the phrases apart.",
}
REGIME_DESCRIPTIONS = {
    "split": "Learning-curve split (§6): train ({train} items; its prefixes of "
    + ", ".join(map(str, LEARNING_CURVE_SIZES))
    + " are the learning-curve subsets), then validation and test, drawn from the other side of "
    "the modifier split: no modifier of train occurs in the same position (M1 or M2) in "
    "validation or test, and validation shares no row with test.",
    "challenge": "Challenge set (§5): every generated item as one test split, for models never "
    "trained on the task; beside it train ({challenge_train} items) and validation "
    "({challenge_validation}) generated from phrases (M1, M2, N) test never holds, nor "
    "validation's train, for training on generated rows before a zero-shot use (§8).",
    "original": "The published RNPC items, read from the original CSVs.",
    "inoculation": "The release's §6 inoculation splits, read as released: train_N for each "
    "train size, train (train.tsv, each nested train_N first, so its prefixes are the "
    "learning-curve sets) and test.",
}


PRESET = Preset(
    name="rnpc",
    signature=frozenset({"combo"}),
    input_form="pair",
    epochs=3.0,
    batch_size=16,
    learning_rate=1e-5,
    max_length=128,
    shots=(0, 10, 25, 50, 75, 100, 125, 150, 175, 200),
    curve_epochs=3.0,
    note="RNPC §6 and Appendix C: 10 to 200 examples (prefixes of train); batch, learning "
    "rate, epochs and length from the paper's search ranges (16, 1e-5, 3, 128)",
)


def describe_config(config: RnpcConfig) -> str:
    return f"{config.task.upper()}. " + REGIME_DESCRIPTIONS[config.regime].format(
        train=config.train_size,
        challenge_train=config.challenge_train_size,
        challenge_validation=config.challenge_validation_size,
    )


def rule_examples(config: RnpcConfig) -> dict[str, dict]:
    """For every rule: its task, label and condition, and the first generated item that follows
    it with the rule's count over the task's items (absent for a task these inputs cannot
    generate, e.g. EPC from a lexicon without event effects)."""
    examples = {}
    for task in TASKS:
        key = dict(generation_key(config)) | {"task": task}
        try:
            rows = pa.concat_tables(task_splits(tuple(key.items())).values()).to_pylist()
        except ValueError:
            rows = []
        first, counts = {}, Counter(row["rule"] for row in rows)
        for row in rows:
            first.setdefault(row["rule"], row)
        for rule_id, rule in RULES.items():
            if rule.task != task:
                continue
            examples[rule_id] = {
                "task": task,
                "label": rule.label,
                "condition": rule.condition,
                "example": rule.example,
            }
            if (row := first.get(rule_id)) is not None:
                fields = ("event1", "event2") if task == "epc" else ("premise", "hypothesis")
                examples[rule_id] |= {
                    "first": row[fields[0]],
                    "second": row[fields[1]],
                    "count": counts[rule_id],
                }
    return examples


def provenance(config: RnpcConfig) -> dict:
    """The inputs that determine the generated content, for the card."""
    _, about = load_inputs(config.lexicon, config.nouns, config.events, config.cooccurrence)
    return {
        "version": str(Rnpc.VERSION),
        "seed": config.seed,
        "size": config.size,
        "train_size": config.train_size,
        "validation_size": config.validation_size,
        "challenge_train_size": config.challenge_train_size,
        "challenge_validation_size": config.challenge_validation_size,
        "train_modifier_share": config.train_modifier_share,
        "learning_curve_sizes": list(LEARNING_CURVE_SIZES),
        "categories": list(CATEGORIES),
        "rules": rule_examples(config),
        "mpte_single_share": SINGLE_SHARE,
        "spte_single_share": SPTE_SINGLE_SHARE,
        # of SPTE's and EPC's draws, the share about abstract nouns (tasks.ABSTRACT_WEIGHTS)
        "abstract_draw_share": {
            task: weights[1] / sum(weights) for task, weights in ABSTRACT_WEIGHTS.items()
        },
        "original_release": config.original_release,
        "inoculation": config.inoculation,
        # the rules against the release's human labels, when the build reads a release
        "rule_agreement": rule_agreement(config.original_release)
        if config.original_release
        else None,
        **about,
    }


def export_files(config: RnpcConfig, provenance: dict) -> dict[str, str]:
    """``rule_agreement.json`` at the top of an export built with ``--original-release``."""
    if not provenance.get("rule_agreement"):
        return {}
    return {"rule_agreement.json": json.dumps(provenance["rule_agreement"], indent=2) + "\n"}


SPEC = BenchmarkSpec(
    name="rnpc",
    baselines=BASELINES,
    short_title="RNPC: recursive noun phrases",
    title="RNPC, recursive noun phrases (SPTE, MPTE, EPC), generated by compositional rules",
    builder=Rnpc,
    card_template=template_path("rnpc.md"),
    card_metadata={
        "pretty_name": "RNPC: Recursive Noun Phrase Challenge (compsem generation)",
        "language": ["en"],
        **WORDNET_LICENSE,
        "task_categories": ["text-classification"],
        "task_ids": ["natural-language-inference"],
        "tags": [
            "compositionality",
            "entailment",
            "noun-phrases",
            "plausibility",
            "wordnet",
            "compsem",
        ],
    },
    describe_config=describe_config,
    provenance=provenance,
    preset=PRESET,
    optional_configs={
        "original_release": [config.name for config in ORIGINAL_CONFIGS],
        "inoculation": [config.name for config in INOCULATION_CONFIGS],
    },
    statistics_fields=(
        "combo",
        "rule",
        "m1_category",
        "m2_category",
        "hypothesis_type",
        "hypothesis_modifier",
        "second_noun_relation",
        "supersense",
    ),
    vocabulary_fields=("modifier1", "modifier2", "noun"),
    likelihood_sanity=SANITY_PAIRS,
    audit_checks=AUDIT_CHECKS,
    # EPC's event without either noun phrase: what a model could tell from E alone
    audit_hypothesis_fields=("hypothesis", "event"),
    changelog=CHANGELOG,
    export_files=export_files,
    llm_prompts=LLM_PROMPTS,
    # every premise and hypothesis (event) of a task is made from one source NP
    cluster_fields=("np",),
    harm_detection=HARM_DETECTION,
    modifier_probes=MODIFIER_PROBES,
)
