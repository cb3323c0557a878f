"""``pathreport crqs``: look inside CRQS (extract, score a pair, build vocabulary, check schemas).

* ``pathreport crqs extract --dataset histai "text..."`` prints the clinical fields of a report, so
  a user can see why it scored as it did (``--explain`` adds the matched text and negation cues);
* ``pathreport crqs score --dataset reg2025 --reference "..." --prediction "..."`` scores one pair;
* ``pathreport crqs build-vocab --dataset reg2025 --split-file splits.json`` learns diagnosis
  phrases from the TRAINING references only and freezes them next to the schema;
* ``pathreport crqs schemas`` lists the schemas; ``pathreport crqs validate FILE`` checks one;
* ``pathreport crqs checkset build|run`` generates check sets from real reports and measures how
  often CRQS, BLEU-4 and METEOR rank an equivalent rewrite above a clinically wrong edit;
* ``pathreport crqs coverage --dataset reg2025 --split-file splits.json`` shows per field how often
  it is extracted from real reports, and the frequent sentences that yield no field.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pathreport.errors import UserError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "crqs", help="CRQS tools: extract fields, score a pair, build the vocabulary, check schemas"
    )
    sub = parser.add_subparsers(dest="crqs_command", metavar="<crqs command>")

    extract = sub.add_parser("extract", help="print the clinical fields of report texts as JSON")
    _schema_args(extract)
    extract.add_argument(
        "texts", nargs="*", help="report texts ('-' reads one report from standard input)"
    )
    extract.add_argument(
        "--file",
        type=Path,
        help=(
            "a text file with one report, or a JSON Lines file with a 'report' or "
            "'reference' per line"
        ),
    )
    extract.add_argument(
        "--explain",
        action="store_true",
        help="also print the matched text, the negation cue and which finding was selected",
    )
    extract.set_defaults(func=run_extract)

    score = sub.add_parser("score", help="CRQS of one prediction against its reference")
    _schema_args(score)
    score.add_argument("--reference", required=True, help="reference report text")
    score.add_argument("--prediction", required=True, help="generated report text")
    score.add_argument("--formula", choices=("subtractive", "eq6"), default="subtractive")
    score.add_argument(
        "--weights",
        help="w1,w2,w3,w4 for CFC,KIR,HR,CDS (default 0.3,0.4,0.2,3.2; paper profile: the "
        "paper's 0.3,0.4,0.2,0.4)",
    )
    score.add_argument(
        "--on-empty-reference", choices=("vacuous", "zero", "skip"), default="vacuous"
    )
    score.set_defaults(func=run_score)

    vocab = sub.add_parser(
        "build-vocab",
        help="learn diagnosis phrases from training references and freeze them next to the schema",
    )
    vocab.add_argument("--dataset", help="dataset name (schema crqs/<dataset>.yaml)")
    vocab.add_argument("--schema", type=Path, help="a schema file instead of --dataset")
    vocab.add_argument(
        "--split-file",
        required=True,
        type=Path,
        help='split JSON {"train": [{"id", "report"}], ...}; only "train" is read',
    )
    vocab.add_argument(
        "--min-count",
        type=int,
        default=2,
        help="keep phrases seen in at least this many training reports (default 2)",
    )
    vocab.add_argument(
        "--field", default="diagnosis", help="schema field to extend (default: diagnosis)"
    )
    vocab.add_argument(
        "--out",
        type=Path,
        help="output file (default: the schema's learned_vocab file, e.g. crqs/reg2025.vocab.json)",
    )
    vocab.set_defaults(func=run_build_vocab)

    schemas = sub.add_parser(
        "schemas", help="list the CRQS schemas with their field and key-field counts"
    )
    schemas.set_defaults(func=run_schemas)

    validate = sub.add_parser(
        "validate", help="load and validate schema files (exit status 2 on the first error)"
    )
    validate.add_argument("files", nargs="+", type=Path, help="schema YAML files")
    validate.set_defaults(func=run_validate)

    _register_checkset(sub)
    coverage = sub.add_parser(
        "coverage",
        help=(
            "per field, the share of real reports where it is extracted; frequent silent sentences"
        ),
    )
    coverage.add_argument(
        "--dataset", required=True, help="dataset name (schema crqs/<dataset>.yaml)"
    )
    _report_source_args(coverage)
    coverage.add_argument(
        "--top", type=int, default=30, help="silent sentences to list (default 30)"
    )
    coverage.set_defaults(func=run_coverage)

    parser.set_defaults(func=lambda args: parser.print_help() or 2)


def _report_source_args(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--split-file", type=Path, help='split JSON {"train": [{"id", "report"}], ...}'
    )
    source.add_argument(
        "--reports", type=Path, help="a JSON list or JSON Lines file of {id, report} objects"
    )
    parser.add_argument(
        "--split", default="train", help="split of --split-file to read (default: train)"
    )


def _register_checkset(sub: argparse._SubParsersAction) -> None:
    checkset = sub.add_parser(
        "checkset",
        help=(
            "build check sets (reference, equivalent rewrite, wrong edit) from real reports; "
            "run them"
        ),
    )
    csub = checkset.add_subparsers(dest="checkset_command", metavar="<checkset command>")
    build = csub.add_parser("build", help="generate dev/heldout triplets from real report text")
    build.add_argument("--dataset", required=True, help="dataset the reports are scored as")
    _report_source_args(build)
    build.add_argument("--out", required=True, type=Path, help="output folder")
    build.add_argument("--seed", type=int, default=0, help="seed of edits and split (default 0)")
    build.add_argument(
        "--max-per-category",
        type=int,
        default=60,
        help="triplets per edit kind and split (default 60)",
    )
    build.set_defaults(func=run_checkset_build)
    run = csub.add_parser(
        "run", help="share of triplets where CRQS / BLEU-4 / METEOR prefer the rewrite"
    )
    run.add_argument("--triplets", required=True, type=Path, nargs="+", help="JSON Lines files")
    run.add_argument(
        "--schema-profile",
        default="complete",
        help="CRQS field set: complete (default) or paper (the paper's lists, unweighted)",
    )
    run.add_argument("--meteor", action="store_true", help="also METEOR (needs Java)")
    run.add_argument("--out", type=Path, help="write summary.json and failures.jsonl here")
    run.set_defaults(func=run_checkset_run)
    checkset.set_defaults(func=lambda args: checkset.print_help() or 2)


def _source_reports(args: argparse.Namespace):
    from pathreport.evaluation.crqs.checkset import read_report_file, read_split_reports

    if args.split_file:
        return read_split_reports(
            args.split_file, args.split
        ), f"{args.split_file.name}[{args.split}]"
    return read_report_file(args.reports), args.reports.name


def run_checkset_build(args: argparse.Namespace) -> int:
    from pathreport.evaluation.crqs.checkset import build_checkset, write_checkset
    from pathreport.evaluation.crqs.schema import load_schema

    load_schema(args.dataset)  # fail early on an unknown dataset
    reports, source = _source_reports(args)
    checkset = build_checkset(
        reports, args.dataset, seed=args.seed, max_per_category=args.max_per_category
    )
    for path in write_checkset(checkset, args.out, args.dataset, source):
        print(f"wrote {path}")
    sizes = ", ".join(f"{s} {len(rows)}" for s, rows in checkset.splits.items())
    print(f"{checkset.n_unique_reports} unique of {checkset.n_reports} reports; triplets: {sizes}")
    return 0


def run_checkset_run(args: argparse.Namespace) -> int:
    from pathreport.evaluation.crqs.checkset import format_table, read_triplets, run_checkset
    from pathreport.io import write_json, write_jsonl

    triplets = [t for path in args.triplets for t in read_triplets(path)]
    result = run_checkset(triplets, schema_profile=args.schema_profile, meteor=args.meteor)
    for metric, reason in result["unavailable"].items():
        print(f"note: {metric} unavailable: {reason}", file=sys.stderr)
    print(format_table(result))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        summary = {k: v for k, v in result.items() if k != "failures"}
        summary["triplet_files"] = [str(p) for p in args.triplets]
        write_json(args.out / "summary.json", summary)
        write_jsonl(args.out / "failures.jsonl", result["failures"])
    return 0


def run_coverage(args: argparse.Namespace) -> int:
    from pathreport.evaluation.crqs.coverage import format_coverage, measure_coverage
    from pathreport.evaluation.crqs.schema import load_schema

    load_schema(args.dataset)
    reports, _ = _source_reports(args)
    print(format_coverage(measure_coverage([r.text for r in reports], args.dataset, top=args.top)))
    return 0


def _schema_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dataset", help="dataset name (schema crqs/<dataset>.yaml)")
    parser.add_argument("--schema", type=Path, help="a schema file instead of --dataset")
    parser.add_argument("--extractor", default="rule", help="extractor backend (default: rule)")
    parser.add_argument(
        "--schema-profile",
        default="complete",
        help="field set: complete (default) or paper (the paper's own field lists, unweighted)",
    )


def _load(args: argparse.Namespace):
    from pathreport.evaluation.crqs import get_extractor, load_schema

    if not args.dataset and not args.schema:
        raise UserError("give --dataset (e.g. reg2025, histai, tcga) or --schema FILE.")
    schema = load_schema(args.schema or args.dataset).for_profile(args.schema_profile)
    return schema, get_extractor(args.extractor, schema)


def run_extract(args: argparse.Namespace) -> int:
    texts = list(args.texts)
    if texts == ["-"]:
        texts = [sys.stdin.read()]
    if args.file:
        texts += _texts_from_file(args.file)
    if not texts:
        raise UserError(
            "no report text given: pass it as an argument, '-' for standard input, or --file."
        )
    schema, extractor = _load(args)
    for text in texts:
        if args.explain:
            if not hasattr(extractor, "explain"):
                raise UserError(
                    f"extractor '{args.extractor}' cannot explain its findings; drop --explain."
                )
            fields, findings = extractor.explain(text)
            out = {"fields": fields, "findings": [f.to_json() for f in findings]}
        else:
            out = extractor.extract(text)
        print(json.dumps(out, indent=2 if len(texts) == 1 else None, ensure_ascii=False))
    return 0


def _texts_from_file(path: Path) -> list[str]:
    if not path.is_file():
        raise FileNotFoundError(f"Report file {path} does not exist.")
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".jsonl":
        return [text]
    from pathreport.io import read_jsonl

    out = []
    for lineno, obj in read_jsonl(path, text):
        value = obj.get("report", obj.get("reference")) if isinstance(obj, dict) else None
        if not isinstance(value, str):
            raise UserError(
                f"{path}:{lineno}: expected an object with a string 'report' or 'reference'."
            )
        out.append(value)
    return out


def run_score(args: argparse.Namespace) -> int:
    from pathreport.evaluation.crqs import CRQSConfig, score_fields
    from pathreport.evaluation.crqs.evaluator import default_weighting, parse_weights

    schema, extractor = _load(args)
    config = CRQSConfig(
        formula=args.formula,
        weights=parse_weights(args.weights, args.schema_profile),
        on_empty_reference=args.on_empty_reference,
        weighting=default_weighting(args.schema_profile),
    )
    reference, prediction = extractor.extract(args.reference), extractor.extract(args.prediction)
    score = score_fields(reference, prediction, schema, config)
    print(
        json.dumps(
            {"reference_fields": reference, "prediction_fields": prediction, **score.to_json()},
            indent=2,
            ensure_ascii=False,
        )
    )
    return 0


def run_build_vocab(args: argparse.Namespace) -> int:
    from pathreport.evaluation.crqs.schema import load_schema
    from pathreport.evaluation.crqs.vocab import build_vocab, read_train_reports, write_vocab

    if not args.dataset and not args.schema:
        raise UserError("give --dataset (e.g. reg2025) or --schema FILE.")
    curated = load_schema(args.schema or args.dataset, with_learned_vocab=False)
    reports = read_train_reports(args.split_file)
    vocab = build_vocab(curated, reports, field=args.field, min_count=args.min_count)
    out = args.out or _default_vocab_path(curated)
    write_vocab(vocab, out, source=args.split_file)
    phrases = vocab["fields"][args.field]
    print(
        f"learned {len(phrases)} {args.field} phrase(s) from {vocab['n_reports']} training reports "
        f"({vocab['n_unmatched_reports']} not named by the curated schema); wrote {out}"
    )
    if (
        curated.path
        and out.resolve().parent == curated.path.resolve().parent
        and not _declares(curated, out)
    ):
        print(
            f"note: {curated.path.name} does not name {out.name} under 'learned_vocab', so "
            "scoring will not use it."
        )
    return 0


def _default_vocab_path(schema) -> Path:
    import yaml

    raw = yaml.safe_load(schema.path.read_text(encoding="utf-8"))
    name = raw.get("learned_vocab") or f"{schema.name}.vocab.json"
    return schema.path.parent / name


def _declares(schema, out: Path) -> bool:
    import yaml

    raw = yaml.safe_load(schema.path.read_text(encoding="utf-8"))
    return raw.get("learned_vocab") == out.name


def run_schemas(args: argparse.Namespace) -> int:
    from pathreport.evaluation.crqs.schema import available_schemas, load_schema

    for name in available_schemas():
        schema = load_schema(name)
        vocab = (
            f", learned vocabulary {schema.learned_vocab_path.name}"
            if schema.learned_vocab_path
            else ""
        )
        print(
            f"{name:<10} v{schema.version}  {len(schema.fields):>2} "
            f"fields, {len(schema.key_fields):>2} key fields, digest {schema.digest}{vocab}"
        )
    return 0


def run_validate(args: argparse.Namespace) -> int:
    from pathreport.evaluation.crqs.schema import load_schema

    for path in args.files:
        schema = load_schema(path)
        print(
            f"{path}: ok ({len(schema.fields)} fields, key fields {', '.join(schema.key_fields)})"
        )
    return 0
