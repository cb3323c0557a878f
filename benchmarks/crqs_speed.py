"""CRQS speed on one CPU core, and the check-set comparison with BLEU-4 and METEOR.

Usage::

    python benchmarks/crqs_speed.py                 # speed: REG-length and TCGA-length pairs
    python benchmarks/crqs_speed.py --check-set     # + how often CRQS / BLEU-4 / METEOR prefer
                                                    #   the paraphrase (METEOR needs Java)
    python benchmarks/crqs_speed.py --json out.json # also write the figures as JSON

Speed is measured on generated report pairs whose texts are all distinct, so the figure is the
cost of extraction and scoring themselves (the ``crqs`` evaluator additionally extracts each
distinct text once, which makes real REG predictions, a handful of repeated templates, cheaper
still). The process is pinned to one core where the OS allows it; CPU time is reported next to
wall time because a shared machine makes wall time noisy.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pathreport.evaluation.crqs import CRQSConfig, get_extractor, load_schema, score_fields  # noqa: E402

CHECK_SET = ROOT / "tests" / "evaluation" / "crqs" / "crqs_check_set.yaml"


# -- generated report pairs ----------------------------------------------------------------------
def reg_report(rng: random.Random) -> str:
    """A REG-style report (about 10-25 words) with random values in every slot."""
    kind = rng.randrange(6)
    if kind == 0:
        g = rng.choice(["I", "II", "III"])
        t, n, m = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)
        spec = rng.choice(
            ["core-needle biopsy", "sono-guided core biopsy", "biopsy", "mammotome biopsy"]
        )
        return (
            f"Breast, {spec};\n  Invasive carcinoma of no special type, grade {g} (Tubule "
            f"formation: {t}, Nuclear grade: {n}, Mitoses: {m})"
        )
    if kind == 1:
        p, s = rng.choice([(3, 3), (3, 4), (4, 3), (4, 4), (4, 5), (5, 5)])
        group = {(3, 3): 1, (3, 4): 2, (4, 3): 3, (4, 4): 4}.get((p, s), 5)
        return (
            f"Prostate, biopsy;\n  Acinar adenocarcinoma, Gleason's score {p + s} ({p}+{s}), "
            f"grade group {group}, tumor volume: {rng.randint(1, 100)}%"
        )
    if kind == 2:
        depth = rng.choice(["subepithelial connective tissue", "muscle proper"])
        note = rng.choice(["includes", "does not include"])
        return (
            "Urinary bladder, transurethral resection;\n  Invasive urothelial carcinoma,\n  "
            f"with involvement of {depth}\n\nNote) The specimen {note} muscle proper."
        )
    if kind == 3:
        organ = rng.choice(
            [
                "Stomach, endoscopic biopsy",
                "Colon, colonoscopic biopsy",
                "Rectum, colonoscopic biopsy",
            ]
        )
        diff = rng.choice(["well", "moderately", "poorly"])
        return f"{organ};\n  Adenocarcinoma, {diff} differentiated"
    if kind == 4:
        lesion = rng.choice(
            [
                "Low-grade squamous intraepithelial lesion (LSIL; CIN 1)",
                "High-grade squamous intraepithelial lesion (HSIL; CIN 3)",
            ]
        )
        return f"Uterine cervix, {rng.choice(['colposcopic', 'punch'])} biopsy;\n  {lesion}"
    arch = rng.choice(["Solid", "Cribriform", "Micropapillary"])
    necrosis = rng.choice(["Absent", "Present (Focal)", "Present (Comedo-type)"])
    return (
        f"Breast, core-needle biopsy;\n  Ductal carcinoma in situ\n  - Type: {arch}\n  - "
        f"Nuclear grade: {rng.choice(['Low', 'Intermediate', 'High'])}\n  - "
        f"Necrosis: {necrosis}"
    )


TCGA_OPENERS = [
    "Left breast, modified radical mastectomy: invasive ductal carcinoma, Nottingham grade "
    "{g}, measuring {s} cm in greatest dimension.",
    "Kidney, right, radical nephrectomy: renal cell carcinoma, clear cell type, Fuhrman "
    "nuclear grade {g}, measuring {s} x 4.0 x 3.5 cm.",
    "Thyroid, total thyroidectomy: papillary thyroid carcinoma, classic variant, {s} cm, "
    "with psammoma bodies.",
    "Right upper lobe, lobectomy: adenocarcinoma, acinar predominant, moderately "
    "differentiated, tumor size {s} cm.",
    "Uterus, total abdominal hysterectomy: endometrioid adenocarcinoma, FIGO grade {g}, with "
    "myometrial invasion, tumor size {s} cm.",
]
TCGA_SENTENCES = [
    "Lymphovascular invasion is {pn}.",
    "Perineural invasion is {pn}.",
    "Tumor necrosis is {pn}.",
    "Surgical margins are {margin}; the closest margin is {d} cm away.",
    "Metastatic carcinoma is identified in {k} of {n} regional lymph nodes.",
    "Ductal carcinoma in situ, solid type, is {pn} in the surrounding tissue.",
    "Microcalcifications are {pn} in association with the tumor.",
    "Sections of the uninvolved parenchyma show mild chronic inflammation and fibrosis "
    "without other significant abnormality.",
    "The background tissue shows hemorrhage and cystic change in several sections examined.",
    "Immunohistochemical stains were reviewed and support the diagnosis; controls stain "
    "appropriately.",
    "The specimen was received fresh, oriented with sutures, inked and entirely submitted "
    "for microscopic examination.",
    "Extension into the surrounding adipose tissue is {pn}, and the capsule appears intact "
    "on all sections.",
    "A separate focus of tumor is {pn} in the additional sections of the specimen.",
]


def tcga_report(rng: random.Random) -> str:
    """A TCGA-style report of 100-200 words: an opener and findings in random order."""
    values = {"g": rng.randint(1, 3), "s": f"{rng.uniform(0.5, 9.5):.1f}"}
    words = []
    text = TCGA_OPENERS[rng.randrange(len(TCGA_OPENERS))].format(**values)
    words.append(text)
    pool = TCGA_SENTENCES[:]
    rng.shuffle(pool)
    for template in pool:
        sentence = template.format(
            pn=rng.choice(["present", "not identified", "identified", "absent"]),
            margin=rng.choice(["negative for carcinoma", "positive", "free of tumor"]),
            d=f"{rng.uniform(0.1, 2.0):.1f}",
            k=rng.randint(0, 5),
            n=rng.randint(6, 20),
        )
        words.append(sentence)
        if len(" ".join(words).split()) >= rng.randint(100, 190):
            break
    return " ".join(words)


def make_pairs(kind: str, n: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    generate = reg_report if kind == "reg2025" else tcga_report
    return [(generate(rng), generate(rng)) for _ in range(n)]


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to CPU {core}"
    return "not pinned (no sched_setaffinity on this OS)"


def scorer(dataset: str) -> Callable[[list[tuple[str, str]]], None]:
    """A function that extracts and scores every pair once (the rule extractor, built here)."""
    schema = load_schema(dataset)
    extractor = get_extractor("rule", schema)
    config = CRQSConfig()
    extractor.extract("warm-up")  # build the extractor's trie outside any timing

    def score_all(pairs: list[tuple[str, str]]) -> None:
        for reference, prediction in pairs:
            score_fields(
                extractor.extract(reference), extractor.extract(prediction), schema, config
            )

    return score_all


def measure(dataset: str, pairs: list[tuple[str, str]], repeats: int) -> dict:
    """Best-of-``repeats`` throughput of extraction + scoring (pairs per second)."""
    score_all = scorer(dataset)
    best_wall = best_cpu = 0.0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        score_all(pairs)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best_wall, best_cpu = (
            max(best_wall, len(pairs) / wall),
            max(best_cpu, len(pairs) / max(cpu, 1e-9)),
        )
    words = sum(len(r.split()) + len(p.split()) for r, p in pairs) / (2 * len(pairs))
    return {
        "dataset": dataset,
        "pairs": len(pairs),
        "mean_words_per_report": round(words, 1),
        "pairs_per_s_wall": round(best_wall),
        "pairs_per_s_cpu": round(best_cpu),
    }


def measure_evaluator(n_records: int, n_distinct: int, seed: int, repeats: int) -> dict:
    """The ``crqs`` evaluator on REG-like predictions drawn from ``n_distinct`` texts.

    REG 2025 is templated (the paper authors' split has about 800 distinct reports among
    7,400), and the evaluator extracts each distinct text once; this row shows that path, with
    the bootstrap interval switched off so that only extraction and scoring are timed.
    """
    from pathreport.data.predictions import PredictionRecord
    from pathreport.evaluation.crqs import evaluate_crqs

    rng = random.Random(seed)
    pool = [reg_report(rng) for _ in range(n_distinct)]
    records = [
        PredictionRecord(str(i), rng.choice(pool), rng.choice(pool)) for i in range(n_records)
    ]
    evaluate_crqs(records[:10], dataset="reg2025", n_bootstrap=0)  # warm up
    best_wall = best_cpu = 0.0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        evaluate_crqs(records, dataset="reg2025", n_bootstrap=0)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        best_wall, best_cpu = (
            max(best_wall, n_records / wall),
            max(best_cpu, n_records / max(cpu, 1e-9)),
        )
    return {
        "dataset": "reg2025 (evaluator, templated)",
        "pairs": n_records,
        "distinct_texts": n_distinct,
        "pairs_per_s_wall": round(best_wall),
        "pairs_per_s_cpu": round(best_cpu),
    }


# -- check set -----------------------------------------------------------------------------------
def check_set(meteor: bool) -> dict:
    """How often each metric scores the paraphrase above the lexically close wrong report."""
    import yaml

    from pathreport.evaluation.crqs import score_pair
    from pathreport.evaluation.nlg import compute_nlg, java_available

    triplets = yaml.safe_load(CHECK_SET.read_text(encoding="utf-8"))
    refs = [t["reference"] for t in triplets]
    norm = "ptb" if java_available() else "simple"
    use_meteor = meteor and java_available() is not None
    _, para, unavailable = compute_nlg(
        refs, [t["paraphrase"] for t in triplets], normalization=norm, meteor=use_meteor
    )
    _, wrong, _ = compute_nlg(
        refs, [t["wrong"] for t in triplets], normalization=norm, meteor=use_meteor
    )
    rows = []
    for t, p, w in zip(triplets, para, wrong, strict=True):
        crqs_p = score_pair(t["reference"], t["paraphrase"], t["dataset"]).CRQS
        crqs_w = score_pair(t["reference"], t["wrong"], t["dataset"]).CRQS
        rows.append(
            {
                "id": t["id"], "dataset": t["dataset"], "error": t["error"],
                "CRQS": crqs_p > crqs_w, "BLEU_4": p["BLEU_4"] > w["BLEU_4"],
                "METEOR": None if p["METEOR"] is None else p["METEOR"] > w["METEOR"],
            }
        )  # fmt: skip

    def rate(metric: str, subset: list[dict]) -> float | None:
        values = [r[metric] for r in subset if r[metric] is not None]
        return round(sum(values) / len(values), 3) if values else None

    out = {"n_triplets": len(rows), "text_normalization": norm, "unavailable": unavailable}
    for metric in ("CRQS", "BLEU_4", "METEOR"):
        out[metric] = rate(metric, rows)
    out["by_dataset"] = {
        d: {
            m: rate(m, [r for r in rows if r["dataset"] == d]) for m in ("CRQS", "BLEU_4", "METEOR")
        }
        for d in sorted({r["dataset"] for r in rows})
    }
    out["by_error"] = {
        e: {m: rate(m, [r for r in rows if r["error"] == e]) for m in ("CRQS", "BLEU_4", "METEOR")}
        for e in sorted({r["error"] for r in rows})
    }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--n-reg", type=int, default=20_000, help="REG-length pairs (default 20000)"
    )
    parser.add_argument(
        "--n-tcga", type=int, default=2_000, help="TCGA-length pairs (default 2000)"
    )
    parser.add_argument("--repeats", type=int, default=3, help="best of this many timed passes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--check-set",
        action="store_true",
        help="also compare CRQS, BLEU-4 and METEOR on the check set",
    )
    parser.add_argument("--no-meteor", action="store_true", help="skip METEOR in --check-set")
    parser.add_argument("--json", type=Path, help="write the figures to this JSON file")
    parser.add_argument(
        "--work-only",
        choices=("reg2025", "tcga"),
        help="extract and score that dataset's pairs once, untimed, and exit: run it under an "
        "instruction counter (valgrind --tool=callgrind), whose counts, unlike times, do not "
        "change with the load of a shared machine; subtract a run with fewer pairs for start-up",
    )
    args = parser.parse_args(argv)
    if args.work_only:
        reg = args.work_only == "reg2025"
        n, seed = (args.n_reg, args.seed) if reg else (args.n_tcga, args.seed + 1)
        score_all, pairs = scorer(args.work_only), make_pairs(args.work_only, n, seed)
        # Set the start-up's objects aside from the collector: a full collection over them
        # would fall inside the counted work or not depending on how many objects start-up
        # made, which moves a count by more than a rule costs. Collections of what the work
        # itself allocates still count.
        gc.collect()
        gc.freeze()
        score_all(pairs)  # untimed, for a counter
        return 0

    report: dict = {"cpu": pin_to_one_core(), "python": sys.version.split()[0]}
    report["speed"] = [
        measure("reg2025", make_pairs("reg2025", args.n_reg, args.seed), args.repeats),
        measure("tcga", make_pairs("tcga", args.n_tcga, args.seed + 1), args.repeats),
    ]
    for row in report["speed"]:
        print(
            f"{row['dataset']:<8} {row['pairs']:>6} pairs, {row['mean_words_per_report']:>5} "
            f"words/report: {row['pairs_per_s_wall']:>6} pairs/s "
            f"wall, {row['pairs_per_s_cpu']:>6} pairs/s CPU ({report['cpu']})"
        )
    report["evaluator"] = row = measure_evaluator(args.n_reg, 800, args.seed + 2, args.repeats)
    print(
        f"evaluator on {row['pairs']} REG-like records drawn from {row['distinct_texts']} "
        f"distinct reports: {row['pairs_per_s_wall']} pairs/s wall, {row['pairs_per_s_cpu']} "
        "pairs/s CPU"
    )
    if args.check_set:
        report["check_set"] = result = check_set(meteor=not args.no_meteor)
        print(
            f"check set ({result['n_triplets']} triplets, {result['text_normalization']} "
            "tokenisation): paraphrase ranked above the wrong report by"
        )
        for metric in ("CRQS", "BLEU_4", "METEOR"):
            value = result[metric]
            print(f"  {metric:<7} {'n/a' if value is None else f'{value:.1%}'}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
