"""The learned-decision experiment of the new-name check (``tools/names_model.py``, issue 30):
it reads development sets only, its decision hook really decides, training is deterministic,
and its cross-validation table is printed. The measured result is in docs/names-learned-decision.md."""

from __future__ import annotations

import sys
from pathlib import Path

from lw_storyrepo.propernouns import FEATURES, find_new_nouns, learned_decision, score

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tools"))
import names_model  # noqa: E402  (tools/names_model.py)

CORPUS = Path(__file__).parent / "corpus"
SMALL = [CORPUS / "专名-留出", CORPUS / "专名-验证", CORPUS / "专名-网文-开发六"]


def test_the_experiment_never_reads_an_evaluation_set() -> None:
    names = {f.name for f in names_model.development_folders()}
    assert names and not names & names_model.EVALUATION
    assert not any("评估" in n or "盲评九" in n or "盲评四十六" in n or "盲评四十七" in n for n in names)
    assert names_model.EVALUATION == {"专名-网文-评估", "专名-他人-新评估", "专名-他人-评估", "专名-网文-盲评九",
                                     "专名-网文-盲评四十六", "专名-网文-盲评四十七"}


def test_a_model_that_weighs_only_the_rules_vote_is_the_rules_and_one_that_weighs_nothing_finds_nothing() -> None:
    rules = score(SMALL[0])
    same = score(SMALL[0], decide=learned_decision({"weights": {"rule_vote": 1.0}, "threshold": 1.0}))
    none = score(SMALL[0], decide=learned_decision({"weights": {}, "threshold": 1.0}))
    assert (same.true_positives, same.false_positives, same.missed) == (rules.true_positives, rules.false_positives, rules.missed)
    assert rules.true_positives > 0 and none.true_positives == 0


def test_every_candidate_gets_one_value_per_feature_and_the_broad_generator_proposes_more() -> None:
    text = "万剑宗的苏长老亲自来了。苏长老道：“走。”青石镇外，王二狗又道：“好。”\n"
    rows: list[tuple[str, list[float]]] = []
    wide: list[tuple[str, list[float]]] = []
    find_new_nouns(text, [], rows=rows)
    find_new_nouns(text, [], rows=wide, broad=True)
    assert rows and all(len(values) == len(FEATURES) for _n, values in rows)
    assert {n for n, _v in rows} < {n for n, _v in wide}


def test_training_is_deterministic_and_learns_from_the_labels() -> None:
    rows = [r for f in SMALL[:2] for r in names_model.examples(f)]
    first, second = names_model.dump(names_model.train(rows)), names_model.dump(names_model.train(list(rows)))
    assert first == second
    model = names_model.train(rows)
    assert model["features"] == list(FEATURES) and model["weights"]["rule_vote"] > 0


def test_the_cross_validation_table_is_printed_per_held_out_set_and_pooled() -> None:
    table = names_model.cv(folders=SMALL).splitlines()
    print("\n" + "\n".join(table))
    assert table[0].split()[:2] == ["held-out", "set"]
    assert [line.split()[0] for line in table[1:4]] == [f.name for f in SMALL]
    assert {line.split()[1] for line in table[4:]} == {"网文", "项目", "all"}
    assert all(len(line.split()) >= 7 for line in table[1:])
