"""Choosing evaluators by name (CLI, train.py), their options, ROUGE/METEOR fallbacks, results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pathreport.app.cli import main
from pathreport.data.predictions import PredictionRecord, write_predictions
from pathreport.errors import ConfigError
from pathreport.evaluation.evaluate import evaluate_records
from pathreport.evaluation.options import check_selection, parse_option_args

RECORDS = [
    PredictionRecord(
        id="s1",
        reference="The tumor is a well differentiated adenocarcinoma.",
        prediction="The tumour is a poorly differentiated adenocarcinomas.",
    ),
    PredictionRecord(
        id="s2", reference="Benign prostatic tissue.", prediction="Benign prostatic tissue."
    ),
]


def test_every_new_evaluator_is_listed_with_what_it_needs(capsys):
    assert main(["list", "evaluators", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    for name in (
        "nlg",
        "crqs",
        "rouge",
        "meteor_nltk",
        "reg2025_score",
        "wsi_precision",
        "wsi_relevance",
        "path_errors",
    ):
        assert rows[name]["kind"] == "report", name
    assert "en_core_sci_lg" in rows["reg2025_score"]["needs"]
    assert "embedding_model=dmis-lab/biobert-v1.1" in rows["reg2025_score"]["options"]
    assert (
        "backend=openai" in rows["wsi_precision"]["options"]
        and "max_parse_retries=2" in rows["path_errors"]["options"]
    )
    assert main(["list", "judge_backends"]) == 0
    out = capsys.readouterr().out
    assert "openai" in out and "transformers" in out


def test_selection_errors_name_every_problem_with_the_accepted_names():
    with pytest.raises(ConfigError) as err:
        check_selection(["nlg", "rouge_l", "pathbind"], {"nlg": {"normalisation": "ptb"}})
    message = str(err.value)
    assert "'rouge_l' is not a registered evaluator. Did you mean 'rouge'?" in message
    assert "'pathbind' is not a report evaluator" in message
    assert "no option 'normalisation'. Did you mean 'normalization'?" in message
    with pytest.raises(ConfigError, match="not among the selected evaluators"):
        check_selection(["nlg"], {"rouge": {"stemming": False}})


def test_option_arguments_become_nested_typed_options():
    parsed = parse_option_args(
        [
            "rouge.stemming=false",
            "path_errors.backend_options.concurrency=16",
            "path_errors.backend_options.base_url=http://127.0.0.1:8000/v1",
            "path_errors.model=m",
        ]
    )
    assert parsed == {
        "rouge": {"stemming": False},
        "path_errors": {
            "backend_options": {"concurrency": 16, "base_url": "http://127.0.0.1:8000/v1"},
            "model": "m",
        },
    }
    with pytest.raises(ConfigError, match="EVALUATOR.OPTION=VALUE"):
        parse_option_args(["stemming=false"])


def test_rouge_from_rouge_score_with_stemming_hand_computed():
    result = evaluate_records(RECORDS, metrics=["rouge"])
    # stems: the tumor/tumour is a well/poorli differenti adenocarcinoma
    # -> 5 of 7 unigrams, 2 of 6 bigrams
    case = result.per_case["s1"]
    assert case["ROUGE_1"] == pytest.approx(5 / 7) and case["ROUGE_2"] == pytest.approx(2 / 6)
    assert case["ROUGE_L_RS"] == pytest.approx(5 / 7)
    assert result.summary["ROUGE_1"] == pytest.approx((5 / 7 + 1) / 2)
    unstemmed = evaluate_records(RECORDS, metrics=["rouge"], options={"rouge": {"stemming": False}})
    assert unstemmed.per_case["s1"]["ROUGE_1"] == pytest.approx(
        4 / 7
    )  # "adenocarcinomas" no longer matches
    assert "stemming=True" in result.summary["rouge_settings"]


class StubWordNet:
    """Just what NLTK's METEOR matcher asks of WordNet: synsets with lemma names."""

    def __init__(self, synonyms):
        self.synonyms = synonyms

    def synsets(self, word):
        names = self.synonyms.get(word, [])
        lemma = type("Lemma", (), {})
        synset = type("Synset", (), {})
        out = synset()
        out.lemmas = lambda: [type("L", (lemma,), {"name": lambda self, n=n: n})() for n in names]
        return [out] if names else []


def test_meteor_nltk_is_its_own_column_and_unavailable_without_wordnet(monkeypatch):
    from pathreport.evaluation import meteor_nltk

    records = [
        PredictionRecord(id="a", reference="tumor", prediction="tumor"),
        PredictionRecord(id="b", reference="tumor", prediction="tumour"),
    ]
    # One matched word in one chunk: Fmean 1, fragmentation penalty 0.5 * (1/1)^3 -> 0.5.
    plain = evaluate_records(
        records, metrics=["meteor_nltk"], options={"meteor_nltk": {"wordnet": StubWordNet({})}}
    )
    assert (
        plain.per_case["a"]["METEOR_NLTK"] == pytest.approx(0.5)
        and plain.per_case["b"]["METEOR_NLTK"] == 0.0
    )
    synonyms = StubWordNet({"tumour": ["tumor"]})
    matched = evaluate_records(
        records, metrics=["meteor_nltk"], options={"meteor_nltk": {"wordnet": synonyms}}
    )
    assert matched.per_case["b"]["METEOR_NLTK"] == pytest.approx(0.5)
    assert "METEOR" not in matched.summary  # never mixed with METEOR 1.5

    def missing():
        raise LookupError(meteor_nltk.WORDNET_HELP)

    monkeypatch.setattr(meteor_nltk, "load_wordnet", missing)
    result = evaluate_records(records, metrics=["meteor_nltk"])
    assert (
        result.summary["METEOR_NLTK"] is None
        and "wordnet-base" in result.unavailable["METEOR_NLTK"]
    )


def test_meteor_nltk_with_the_real_wordnet_matches_synonyms():
    from pathreport.evaluation import meteor_nltk

    try:
        meteor_nltk.load_wordnet()
    except LookupError:
        pytest.skip("WordNet data is not installed here (scripts/install_wordnet.sh installs it)")
    records = [PredictionRecord(id="b", reference="tumor", prediction="tumour")]
    result = evaluate_records(records, metrics=["meteor_nltk"])
    assert result.per_case["b"]["METEOR_NLTK"] == pytest.approx(0.5)  # matched through WordNet 3.0
    assert "WordNet 3.0" in result.summary["meteor_nltk_settings"]


@pytest.fixture(scope="module")
def reg_models(tmp_path_factory):
    """A spaCy entity-ruler pipeline and two tiny BERTs (different weights) in folders."""
    import spacy

    from tests.helpers.tiny_models import tiny_bert

    root = tmp_path_factory.mktemp("reg-models")
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(
        [{"label": "E", "pattern": "adenocarcinoma"}, {"label": "E", "pattern": "prostatic"}]
    )
    nlp.to_disk(root / "ruler")
    words = [
        "the",
        "tumor",
        "is",
        "a",
        "well",
        "poorly",
        "differentiated",
        "benign",
        "prostatic",
        "tissue",
    ]
    return (
        root / "ruler",
        tiny_bert(root / "bert_a", words),
        tiny_bert(root / "bert_b", words[::-1]),
    )


def evaluate_cli(tmp_path: Path, out: str, *args: str) -> int:
    predictions = tmp_path / "preds.jsonl"
    write_predictions(
        predictions,
        [
            PredictionRecord(
                id=r.id,
                reference=r.reference,
                prediction=r.prediction,
                dataset="reg2025",
                model="histgen",
                encoder="uni2",
            )
            for r in RECORDS
        ],
    )
    return main(
        ["evaluate", "--predictions", str(predictions), "--out", str(tmp_path / out), *args]
    )


def test_cli_any_metric_set_writes_summary_per_case_and_results_warn_on_mixed_models(
    tmp_path, reg_models, capsys
):
    ruler, bert_a, bert_b = reg_models
    for out, bert in (("run_a", bert_a), ("run_b", bert_b)):
        code = evaluate_cli(
            tmp_path,
            out,
            "--metrics",
            "nlg,rouge,reg2025_score",
            "--no-meteor",
            "--nlg-normalization",
            "simple",
            "--option",
            f"reg2025_score.spacy_pipeline={ruler}",
            "--option",
            f"reg2025_score.embedding_model={bert}",
        )
        assert code == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    assert "REG2025" in printed and "ROUGE_L_RS" in printed
    summary = json.loads((tmp_path / "run_a" / "summary.json").read_text())
    assert summary["reg2025_settings"]["embedding_model"] == str(bert_a)
    assert summary["reg2025_settings"]["spacy_pipeline"] == str(ruler)
    assert set(summary["comparability"]) == {"REG2025", "ROUGE_RS"}
    cases = [
        json.loads(line)
        for line in (tmp_path / "run_a" / "per_case.jsonl").read_text().splitlines()
    ]
    assert {"REG2025", "REG2025_KEY", "ROUGE_1", "BLEU_4"} <= set(cases[0])
    assert cases[1]["REG2025_keywords_reference"] == ["prostatic"]

    table = tmp_path / "results.csv"
    assert (
        main(
            [
                "results",
                "collect",
                str(tmp_path / "run_a"),
                "--out",
                str(table),
                "--model",
                "histgen",
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "results",
                "collect",
                str(tmp_path / "run_b"),
                "--out",
                str(table),
                "--model",
                "bert_b_run",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert (
        main(["results", "table", "--table", str(table), "--metrics", "REG2025,ROUGE_1,ROUGE_L_RS"])
        == 0
    )
    rendered = capsys.readouterr().out
    assert "REG2025 score" in rendered and "ROUGE-L (rouge-score)" in rendered
    assert "WARNING: REG2025 scores were computed with 2 different models" in rendered
    assert "ROUGE_RS scores" not in rendered  # same rouge-score settings: no warning


def test_cli_errors_for_unknown_metric_option_or_missing_model(tmp_path, capsys):
    assert evaluate_cli(tmp_path, "x", "--metrics", "nlg,reg2025") == 2
    err = capsys.readouterr().err
    assert "Did you mean 'reg2025_score'?" in err and "Traceback" not in err
    assert evaluate_cli(tmp_path, "x", "--metrics", "rouge", "--option", "rouge.stem=false") == 2
    assert "Its options: stemming" in capsys.readouterr().err
    assert (
        evaluate_cli(
            tmp_path,
            "x",
            "--metrics",
            "reg2025_score",
            "--option",
            f"reg2025_score.spacy_pipeline={tmp_path / 'none'}",
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "pip install" in err and "en_core_sci_lg" in err and "Traceback" not in err


def test_train_checks_eval_metrics_before_training(tmp_path):
    from pathreport.app.run import check_evaluation, evaluator_options
    from tests.conftest import compose_train

    cfg = compose_train(
        ["eval.metrics=[nlg,rouge]", "eval.options={rouge: {stemming: false}}"], tmp_path / "ok"
    )
    check_evaluation(cfg)
    assert evaluator_options(cfg) == {"rouge": {"stemming": False}}
    bad = compose_train(["eval.metrics=[nlg,bleurt]"], tmp_path / "bad")
    with pytest.raises(ConfigError, match="'bleurt' is not a registered evaluator"):
        check_evaluation(bad)


def test_train_scores_with_the_eval_metrics_list(tiny_train):
    _, out = tiny_train("model=most_frequent", "eval.metrics=[nlg,rouge]")
    metrics = json.loads((out / "metrics" / "test.json").read_text())
    assert {"BLEU_4", "ROUGE_1", "ROUGE_2", "ROUGE_L_RS"} <= set(metrics) and "CRQS" not in metrics
    first = json.loads((out / "metrics" / "test_per_case.jsonl").read_text().splitlines()[0])
    assert "ROUGE_1" in first


def test_bertscore_with_a_local_model_records_its_settings(reg_models, tmp_path):
    _, bert, _ = reg_models
    records = [
        PredictionRecord(
            id="same", reference="benign prostatic tissue", prediction="benign prostatic tissue"
        ),
        PredictionRecord(
            id="other", reference="benign prostatic tissue", prediction="poorly differentiated"
        ),
    ]
    result = evaluate_records(
        records, metrics=["bertscore"], options={"bertscore": {"model": str(bert), "num_layers": 2}}
    )
    assert result.per_case["same"]["BERTScore_F1"] == pytest.approx(1.0, abs=1e-5)
    assert result.per_case["other"]["BERTScore_F1"] < 1.0
    assert (
        str(bert) in result.summary["bertscore_settings"]
        and "L2_no-idf" in result.summary["bertscore_settings"]
    )
    with pytest.raises(ConfigError, match="hf download"):
        evaluate_records(
            records,
            metrics=["bertscore"],
            options={"bertscore": {"model": str(tmp_path / "missing"), "num_layers": 2}},
        )


def test_an_evaluator_is_added_by_one_file(tmp_path):
    """The docs' example, dropped into a plug-in file: selectable, with its option, and listed."""
    from pathreport.app.commands.list_cmd import describe
    from pathreport.discovery import load_plugin_file
    from pathreport.registry import EVALUATORS

    plugin = tmp_path / "length_ratio.py"
    plugin.write_text(
        "from pathreport.evaluation.base import EvaluationResult\nfrom pathreport.registry "
        "import EVALUATORS\n\n@EVALUATORS.register('length_ratio', kind='report', "
        "metrics=['LEN_RATIO'], needs='nothing')\ndef evaluate_length_ratio(records, *, "
        "dataset=None, words: bool = True):\n    def size(t): return len(t.split()) if words "
        "else len(t)\n    cases = {r.id: {'LEN_RATIO': size(r.prediction) / max(1, "
        "size(r.reference))} for r in records}\n    return "
        "EvaluationResult(summary={'LEN_RATIO': sum(c['LEN_RATIO'] for c in cases.values()) / "
        "len(cases)},\n                            per_case=cases)\n"
    )
    load_plugin_file(plugin)
    try:
        result = evaluate_records(
            RECORDS,
            metrics=["rouge", "length_ratio"],
            options={
                "length_ratio": parse_option_args(["length_ratio.words=false"])["length_ratio"]
            },
        )
        assert result.per_case["s2"]["LEN_RATIO"] == 1.0 and "ROUGE_1" in result.per_case["s2"]
        row = next(r for r in describe("evaluators") if r["name"] == "length_ratio")
        assert row["options"] == "words=True" and row["metrics"] == ["LEN_RATIO"]
        from pathreport.results.metrics import known_metrics

        assert "LEN_RATIO" in known_metrics()
    finally:
        EVALUATORS.remove("length_ratio")
