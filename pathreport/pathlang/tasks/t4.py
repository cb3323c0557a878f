"""T4, open-vocabulary diagnosis retrieval: each slide ranks its label's candidate pool.

Pools (paper D.4): Set 1, one shared pool of 20 organ-agnostic terms, each class mapped to its
closest term; Set 2, a pool per label; Set 3, the dataset's shared cross-organ pool plus the
label's target (added only when not already in the pool); Set 4, the ground-truth labels of all
datasets. A slide's rank is ``1 + #{pool entries, duplicates included, scoring above the best
occurrence of the target}`` (``t4_duplicates=collapse`` merges duplicated strings first).

Reported per pool: Recall@K (K = 1..10 for Sets 1 and 4, 1..5 for Sets 2 and 3), MRR, nDCG and
"mean recall", which the paper does not define and which we take as the mean of Recall@K over the
pool's K range. Set 1 also reports the uniform-random baseline (Recall@k = k/20). Each pool is its
own evaluation unit with Recall@1 selecting its oracle setting; sets are never averaged together.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pathreport.pathlang import metrics as M
from pathreport.pathlang.aggregation import ScoreTable
from pathreport.pathlang.corpus import NO_CANDIDATE
from pathreport.pathlang.tasks.base import TaskContext, TaskResult, Unit

K_RANGES = {
    "set1": tuple(range(1, 11)),
    "set2": tuple(range(1, 6)),
    "set3": tuple(range(1, 6)),
    "set4": tuple(range(1, 11)),
}
_SECTION = {"set1": "T4_set1", "set2": "T4_set2", "set3": "T4_set3", "set4": "T4_set4"}


class OpenVocabularyRetrieval:
    """Builds each class's pool per set, plans its columns, then ranks every slide's target."""

    task = "t4"

    def __init__(self, ctx: TaskContext) -> None:
        ds, cfg = ctx.dataset, ctx.config
        builders = {"set1": self._set1, "set2": self._set2, "set3": self._set3, "set4": self._set4}
        self.pools: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        self.missing = []
        for name, build in builders.items():
            pools = build(ctx)
            if pools is None:
                self.missing.append(name)
                continue
            if cfg.t4_duplicates == "collapse":
                pools = [(tuple(dict.fromkeys(pool)), target) for pool, target in pools]
            self.pools[name] = pools
        if not self.pools:
            ds.require("T4_set1")
        self.columns = {
            name: [ctx.bank.texts(pool) for pool, _ in pools] for name, pools in self.pools.items()
        }

    @staticmethod
    def _set1(ctx: TaskContext) -> list[tuple[tuple[str, ...], str]] | None:
        s = ctx.dataset.set1
        return None if s is None else [(s.pool, t) for t in s.targets]

    @staticmethod
    def _set2(ctx: TaskContext) -> list[tuple[tuple[str, ...], str]] | None:
        s = ctx.dataset.set2
        return None if s is None else [(pool, gt) for gt, pool in s]

    @staticmethod
    def _set3(ctx: TaskContext) -> list[tuple[tuple[str, ...], str]] | None:
        ds = ctx.dataset
        if ds.set3_labels is None:
            return None
        pools = []
        for gt, specific in ds.set3_labels:
            target = (
                specific
                if ctx.config.t4_set3_candidate == "label_specific" and specific != NO_CANDIDATE
                else gt
            )
            shared = ds.set3_shared_pool
            pools.append((shared if target in shared else (*shared, target), target))
        return pools

    @staticmethod
    def _set4(ctx: TaskContext) -> list[tuple[tuple[str, ...], str]] | None:
        s = ctx.dataset.set4
        if s is None:
            return None
        pool = s.pool if ctx.config.t4_set4_pool == "as_listed" else ctx.corpus.set4_one_per_label()
        return [(pool, t) for t in s.targets]

    def ranks(self, name: str, scores: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Rank of every slide's target in its class's pool, for one set and one setting."""
        ranks = np.full(len(y), np.nan)
        for c, ((pool, target), columns) in enumerate(
            zip(self.pools[name], self.columns[name], strict=True)
        ):
            members = np.flatnonzero(y == c)
            if not len(members):
                continue
            relevant = np.array([entry == target for entry in pool])
            ranks[members] = M.first_relevant_rank(
                scores[members][:, columns], np.broadcast_to(relevant, (len(members), len(pool)))
            )
        return ranks

    def evaluate(self, ctx: TaskContext, table: ScoreTable) -> TaskResult:
        ds, cfg, y = ctx.dataset, ctx.config, ctx.y
        per_set: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in self.pools}
        rows = []
        for j, setting in enumerate(table.settings):
            scores = table.scores[:, j]
            for name, pools in self.pools.items():
                ks = K_RANGES[name]
                ranks = self.ranks(name, scores, y)
                values = M.retrieval_metrics(ranks, ks)
                values["mean_recall"] = float(np.mean([values[f"recall@{k}"] for k in ks]))
                per_set[name][setting.name] = values
                rows.extend(
                    {
                        "slide_id": slide,
                        "label": ds.classes[y[i]],
                        "setting": setting.name,
                        "set": name,
                        "target": pools[y[i]][1],
                        "pool_size": len(pools[y[i]][0]),
                        "rank": None if np.isnan(ranks[i]) else int(ranks[i]),
                    }
                    for i, slide in enumerate(ctx.slide_ids)
                )
        units = {}
        order = [s.name for s in table.settings]
        for name, per_setting in per_set.items():
            unit = Unit(name, "recall@1", per_setting)
            unit.select(order, cfg.fixed_setting)
            units[name] = unit
        notes = [
            "pool sizes per class: "
            + "; ".join(
                f"{name}: "
                + ", ".join(
                    f"{ds.classes[c]}={len(p)} ({len(set(p))} unique)"
                    for c, (p, _) in enumerate(pools)
                )
                for name, pools in self.pools.items()
            )
        ]
        if self.missing:
            notes.append(f"sets without prompts for {ds.key}, not run: {', '.join(self.missing)}")
        result = TaskResult(self.task, units, rows={"t4_ranks": rows}, notes=notes)
        return result

    def chance(self) -> dict[str, Any]:
        """Set 1's uniform-random baseline (one shared pool, one target)."""
        if "set1" not in self.pools:
            return {}
        pool = self.pools["set1"][0][0]
        return {"set1": {"pool_size": len(pool), **M.chance_retrieval(len(pool), K_RANGES["set1"])}}
