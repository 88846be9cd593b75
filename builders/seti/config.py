"""SETI's task settings (Table 3 compositions per task), item features and build settings."""

from __future__ import annotations

from dataclasses import dataclass

import datasets

from compsem.benchmark.settings import build_setting
from compsem.builders.seti.compose import ci, nat, ver
from compsem.builders.seti.splits import FEW_SHOT_SIZES, Setting
from compsem.resources.spacy_pipeline import DEFAULT_SPACY_MODEL

LABEL_NAMES = ["non_entailment", "entailment"]
# Bumped whenever generation or pool construction changes what the caches hold.
PIPELINE_REVISION = 1

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "premise": datasets.Value("string"),
        "hypothesis": datasets.Value("string"),
        "label": datasets.ClassLabel(names=LABEL_NAMES),
        "kind": datasets.Value("string"),
        "inference_type": datasets.Value("string"),
        "rule": datasets.Value("string"),
        "verb": datasets.Value("string"),
        "verb_class": datasets.Value("string"),
        "nat_type": datasets.Value("string"),
        "nat_label": datasets.Value("string"),
        "nat_relation": datasets.Value("string"),
        "nat_rule": datasets.Value("string"),
        "s_id": datasets.Value("string"),
        "s_prime_id": datasets.Value("string"),
        "setting": datasets.Value("string"),
    }
)

V, NV = "veridical", "non_veridical"
SETTINGS = {
    setting.name: setting
    for setting in (
        Setting(
            "task1_trivial",
            1,
            True,
            train=((ver(V), ver(NV)), (nat("lex", 1), nat("lex", 0))),
            test=(ci(V, "lex", 1), ci(V, "lex", 0), ci(NV, "lex", 1), ci(NV, "lex", 0)),
            few_shot=False,
            equation="eqs. 1–2",
            summary="primitives → compositions: PI_ver and PI_lex in train, their compositions "
            "(same sentences) in test",
        ),
        Setting(
            "task1_nontrivial",
            1,
            False,
            train=((ver(V), ver(NV)), (nat("lex", 1), nat("lex", 0))),
            test=(ci(V, "lex", 1), ci(V, "lex", 0), ci(NV, "lex", 1), ci(NV, "lex", 0)),
            few_shot=True,
            equation="eqs. 1–2",
            summary="primitives → compositions with test sentences unseen in train, sharing "
            "its lexical rules",
        ),
        Setting(
            "task2_trivial",
            2,
            True,
            train=((ci(V, "lex", 1), ci(V, "lex", 0)), (ci(NV, "stru", 1), ci(NV, "stru", 0))),
            test=(ci(V, "stru", 1), ci(V, "stru", 0), ci(NV, "lex", 1), ci(NV, "lex", 0)),
            few_shot=False,
            equation="eqs. 3–4",
            summary="compositions → compositions: f_v with lex and f_nv with stru in train, "
            "switched in test (all four rules seen)",
        ),
        Setting(
            "task2_nontrivial",
            2,
            False,
            train=(
                (ci(V, "lex", 1), ci(V, "stru", 1)),
                (ci(NV, "lex", 0), ci(NV, "stru", 0)),
            ),
            test=(ci(V, "lex", 0), ci(V, "stru", 0), ci(NV, "lex", 1), ci(NV, "stru", 1)),
            few_shot=True,
            equation="eq. 5",
            summary="compositions → compositions with unseen rules: ① and ④ in train, ② and "
            "③ in test",
        ),
        Setting(
            "task3_trivial",
            3,
            True,
            train=((nat("stru", 1), nat("stru", 0)), (ci(V, "lex", 1), ci(V, "lex", 0))),
            test=(ci(V, "stru", 1), ci(V, "stru", 0)),
            few_shot=False,
            equation="eqs. 6–7",
            summary="primitives and compositions → compositions: PI_stru and f_v with lex in "
            "train, f_v with stru in test",
        ),
        Setting(
            "task3_nontrivial_rver",
            3,
            False,
            train=((ver(NV),), (ci(V, "lex", 1),)),
            test=(ci(NV, "lex", 1),),
            few_shot=True,
            equation="eq. 8",
            summary="−R_ver: non-veridical PI_ver and f_v with lex+ in train, f_nv with lex+ "
            "(rule ③) in test",
        ),
        Setting(
            "task3_nontrivial_rnat",
            3,
            False,
            train=((nat("lex", 0),), (ci(V, "lex", 1),)),
            test=(ci(V, "lex", 0),),
            few_shot=True,
            equation="eq. 9",
            summary="−R_nat: non-entailed PI_lex and f_v with lex+ in train, f_v with lex− "
            "(rule ②) in test",
        ),
    )
}


@dataclass
class SetiConfig(datasets.BuilderConfig):
    """One SETI task setting, and the build settings every setting shares (each build
    setting's help text is its ``compsem build seti --help`` line).

    Args:
        setting: one of ``SETTINGS`` (``task1_trivial`` … ``task3_nontrivial_rnat``).
        in_distribution: re-split train ∪ validation ∪ test at random with the same sizes (§4.1).
    """

    setting: str = "task1_trivial"
    in_distribution: bool = False
    sick: str | None = build_setting(
        None,
        "build on the SICK release (tab-separated, with sentence_A, sentence_B, "
        "entailment_label) instead of generated sentences",
        metavar="SICK.txt",
    )
    verbs: str | None = build_setting(
        None,
        "embedding-verb TSV (verb, veridical|non_veridical); default: the paper's 30",
        metavar="FILE",
    )
    lexicon: str | None = build_setting(
        None, "source-sentence lexicon TSV; default: the shipped one", metavar="FILE"
    )
    sentences: int = build_setting(
        1000, "source sentences to generate (ignored with --sick)", minimum=1
    )
    passive_share: float = build_setting(
        0.25, "share of generated transitive source sentences in the passive voice"
    )
    spacy_model: str = build_setting(
        DEFAULT_SPACY_MODEL,
        "an installed spaCy pipeline with a parser (checks generated sentences, finds "
        "active/passive pairs in SICK)",
    )
    seed: int = build_setting(42, "base random seed; each setting derives its own generator")
    validation_fraction: float = build_setting(
        0.2,
        "share of the rows test is drawn from that go to validation instead (whole sentence "
        "groups in non-trivial settings); train leaves out the same share of the balanced "
        "training data (the paper's 4:1 train and dev, Table 5)",
    )
    test_share: float = build_setting(
        0.3, "share of source sentences dealt to the test side in non-trivial settings"
    )
    few_shot_share: float = build_setting(
        0.1, "share of source sentences dealt to the few-shot side in non-trivial settings"
    )
    few_shot_size: int = build_setting(
        max(FEW_SHOT_SIZES), "rows of the few_shot split (its prefixes are the k-shot sets)"
    )

    def __post_init__(self):
        super().__post_init__()
        if self.setting not in SETTINGS:
            raise ValueError(f"Unknown SETI setting {self.setting!r}; use one of {list(SETTINGS)}.")
        if self.sentences < 1 or self.few_shot_size < 1:
            raise ValueError("sentences and few_shot_size must be positive.")
        shares = (self.validation_fraction, self.test_share, self.few_shot_share)
        if not all(0 < share < 1 for share in shares) or self.test_share + self.few_shot_share >= 1:
            raise ValueError(
                "validation_fraction, test_share and few_shot_share must lie in (0, 1), and "
                f"test_share + few_shot_share below 1; got {shares}."
            )
        if not 0 <= self.passive_share <= 1:
            raise ValueError(f"passive_share must lie in [0, 1], got {self.passive_share}.")

    @property
    def side_shares(self) -> tuple[float, float, float]:
        return (1 - self.test_share - self.few_shot_share, self.test_share, self.few_shot_share)


BUILDER_CONFIGS = [
    SetiConfig(name=f"{name}{suffix}", setting=name, in_distribution=bool(suffix))
    for name in SETTINGS
    for suffix in ("", "_in_distribution")
]
