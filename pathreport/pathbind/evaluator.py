"""The ``pathbind`` evaluator: runs a protocol for one model and writes its results folder.

Results of one run (``<out>/vqa/<model>/`` or ``<out>/grounding/<model>/``):

* ``run.json``: every setting (model and checkpoint, prompts, seeds, preprocessing, versions);
* ``answers.jsonl`` (VQA) or ``per_sample.jsonl`` (grounding): one line per model call or sample,
  appended as the run goes, so ``--resume`` continues an interrupted run;
* ``summary.json``: the metrics plus the settings, what ``pathreport pathbind table`` reads;
* ``accuracy.csv`` / ``metrics.csv``: the summary as a flat table;
* ``table.md`` and one CSV per table: the paper's layouts for this model alone;
* ``maps/``: saved attention (grounding), to rescore other settings without the model.

Summaries and flat tables are written by ``pathreport.evaluation.evaluate.write_evaluation``, the
function every pathreport evaluator uses.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pathreport.errors import PathreportError
from pathreport.evaluation.base import EvaluationResult
from pathreport.evaluation.evaluate import write_evaluation
from pathreport.pathbind import grounding as grounding_protocol
from pathreport.pathbind import tables as table_layouts
from pathreport.pathbind import vqa as vqa_protocol
from pathreport.pathbind.config import GroundingConfig, VQAConfig
from pathreport.pathbind.data import GroundingItem, VQAItem
from pathreport.pathbind.results import write_json
from pathreport.pathbind.vlm import GenerativeVLM

Progress = Callable[[int, int], None]


class DuplicateRunError(PathreportError, ValueError):
    """Two result folders carry the same label, so tables cannot tell them apart."""


def _settings(out: Path) -> dict[str, Any]:
    return json.loads((out / "run.json").read_text(encoding="utf-8"))


def _write_single_model_tables(out: Path, tables: Sequence[table_layouts.Table]) -> None:
    (out / "table.md").write_text("\n".join(t.to_markdown() for t in tables), encoding="utf-8")
    for table in tables:
        table.write_csv(out / f"table_{table.name}.csv")


class PathBind:
    """Visual dependence (VQA with/without image) and entity grounding of generative VLMs.

    Paper: "Can pathology vision-language models really 'see' pathological features?"
    (arXiv:2607.21065). The protocol decisions the paper leaves open are the fields of
    :class:`~pathreport.pathbind.config.VQAConfig` and
    :class:`~pathreport.pathbind.config.GroundingConfig`.
    """

    protocols = ("vqa", "grounding")

    def __call__(self, protocol: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """Run ``protocol`` (``vqa`` or ``grounding``): the registry's callable interface."""
        if protocol not in self.protocols:
            raise ValueError(
                f"Unknown PathBind protocol {protocol!r}; choose from {', '.join(self.protocols)}."
            )
        return getattr(self, protocol)(*args, **kwargs)

    def vqa(
        self,
        vlm: GenerativeVLM,
        items: Sequence[VQAItem],
        out_dir: str | Path,
        config: VQAConfig | None = None,
        *,
        questions_file: Path | None = None,
        resume: bool = False,
        progress: Progress | None = None,
        name: str | None = None,
    ) -> dict[str, Any]:
        """Run the VQA protocol and write its results; returns the summary document.

        ``name`` labels the results (``model`` in the summary and every table; default: the
        registered model name), so two configurations of one model, or two API models behind one
        adapter, stay apart; ``vlm`` keeps the registered name.
        """
        config = config or VQAConfig()
        out = Path(out_dir)
        label = name or vlm.name
        answers = vqa_protocol.run_vqa(
            vlm, items, config, out, questions_file=questions_file, resume=resume, progress=progress
        )
        summary = vqa_protocol.summarize(answers, items, config)
        doc = {
            "protocol": "vqa",
            "model": label,
            "vlm": vlm.name,
            "base_model": vlm.base_model,
            **summary,
            "settings": _settings(out),
        }
        per_item: dict[str, dict[str, Any]] = {}
        for answer in answers:
            entry = per_item.setdefault(
                answer["id"], {"column": answer["column"], "answer": answer["answer"]}
            )
            entry[answer["condition"]] = answer["parsed"]
            entry[f"{answer['condition']}_correct"] = answer["correct"]
        rows = [
            {"model": label, "condition": condition, "column": column, **cell}
            for condition, by_column in summary["cells"].items()
            for column, cell in by_column.items()
        ]
        write_evaluation(
            EvaluationResult(summary=doc, per_case=per_item, tables={"accuracy": rows}),
            out,
            per_case_name="per_item.jsonl",
        )
        _write_single_model_tables(
            out, [table_layouts.vqa_table([doc]), table_layouts.vqa_conditions_table([doc])]
        )
        return doc

    def grounding(
        self,
        vlm: GenerativeVLM | None,
        items: Sequence[GroundingItem],
        out_dir: str | Path,
        config: GroundingConfig | None = None,
        *,
        samples_file: Path | None = None,
        resume: bool = False,
        progress: Progress | None = None,
        from_maps: str | Path | None = None,
        model_name: str | None = None,
    ) -> dict[str, Any]:
        """Run (or, with ``from_maps``, rescore) the grounding protocol and write its results.

        ``model_name`` labels the results as ``name`` does for :meth:`vqa`.
        """
        config = config or GroundingConfig()
        out = Path(out_dir)
        if from_maps is not None:
            samples = grounding_protocol.rescore(from_maps, items, config)
            source = Path(from_maps).parent / "run.json"
            original = (
                json.loads(source.read_text(encoding="utf-8"))["model"] if source.exists() else {}
            )
            name = model_name or original.get("name") or "unknown"
            info = {**original, "name": name, "rescored_from": str(from_maps)}
            out.mkdir(parents=True, exist_ok=True)
            write_json(
                out / "run.json", grounding_protocol.run_settings(info, items, config, samples_file)
            )
            base_model, registered = original.get("base_model"), original.get("name")
        else:
            if vlm is None:
                raise ValueError(
                    "A model is needed unless the maps of an earlier run are given (from_maps)."
                )
            samples = grounding_protocol.run_grounding(
                vlm, items, config, out, samples_file=samples_file, resume=resume, progress=progress
            )
            name, base_model, registered = model_name or vlm.name, vlm.base_model, vlm.name
        summary = grounding_protocol.summarize(samples, config)
        doc = {
            "protocol": "grounding",
            "model": name,
            "vlm": registered,
            "base_model": base_model,
            **summary,
            "settings": _settings(out),
        }
        rows = [
            {"model": name, "split": split, **summary["counts"][split], **metrics}
            for split, metrics in summary["metrics"].items()
        ]
        write_evaluation(
            EvaluationResult(
                summary=doc,
                per_case={s["id"]: {k: v for k, v in s.items() if k != "id"} for s in samples},
                tables={"metrics": rows},
            ),
            out,
            per_case_name=grounding_protocol.SAMPLES_FILE,
        )
        _write_single_model_tables(
            out,
            [
                table_layouts.grounding_table([doc]),
                table_layouts.grounding_sweep_table([doc]),
                table_layouts.grounding_layers_table([doc]),
                table_layouts.grounding_diagnostics_table([doc]),
            ],
        )
        return doc


def load_summaries(
    results: Sequence[str | Path],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(VQA summaries, grounding summaries) found under result folders (searched recursively)."""
    vqa_docs: list[dict[str, Any]] = []
    grounding_docs: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], Path] = {}
    read: set[Path] = set()
    for root in results:
        root = Path(root)
        if not root.exists():
            raise FileNotFoundError(f"Results folder {root} does not exist.")
        paths = [root] if root.is_file() else sorted(root.rglob("summary.json"))
        for path in paths:
            if path.resolve() in read:  # overlapping --results folders
                continue
            read.add(path.resolve())
            doc = json.loads(path.read_text(encoding="utf-8"))
            protocol = doc.get("protocol")
            if protocol not in ("vqa", "grounding"):
                continue
            key = (protocol, str(doc.get("model")))
            if key in seen:  # one label, two runs: a table would silently keep one of them
                raise DuplicateRunError(
                    f"Two PathBind {protocol} results are labelled '{key[1]}': {seen[key]} "
                    f"and {path}. Give each run its own --name (it labels the results), or pass "
                    "only one of them to --results."
                )
            seen[key] = path
            (vqa_docs if protocol == "vqa" else grounding_docs).append(doc)
    if not vqa_docs and not grounding_docs:
        raise FileNotFoundError(
            f"No PathBind summary.json under {', '.join(map(str, results))}; run `pathreport "
            "pathbind vqa` or `grounding` first."
        )
    return vqa_docs, grounding_docs
