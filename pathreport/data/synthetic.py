"""The embedded synthetic dataset: learnable slides and REG-style reports, generated offline.

Why it exists: ``python train.py`` must run end to end on a fresh machine with no download, and
tests must exercise the real code paths (TRIDENT h5 files, split JSON, tokenizer, training,
decoding, metrics). A dataset of random noise would prove nothing, so this one is *learnable*:

* every slide has latent clinical attributes (organ, diagnosis, grade or differentiation, and
  present/absent findings) and a report that states them, in varied wording (procedure names,
  grade notation, phrasing of findings differ between reports with the same facts);
* the attributes live in a 64-d latent space of tissue "prototypes". Most patches of a bag show
  the organ's background tissue mixed with generic tissue types (stroma, fat, blood, ...) in a
  proportion that varies from slide to slide; a minority (``signal_fraction``) of lesion patches
  carry the diagnosis, grade and findings instead. The generic tissue dominates the bag's mean, so
  a model has to find the lesion patches: mean pooling (the nearest-neighbour baseline) mostly
  retrieves slides of similar composition, not of similar diagnosis;
* each encoder sees the same latent bag through its own fixed random projection to its embedding
  dimension, plus noise: changing ``encoder=`` changes the features, not the slides or reports;
* the extra streams of multi-input generators are generated from the same latents: CONCH v1 patch
  features (BiGen's knowledge stream), a TITAN slide embedding and GECKO-style concept features
  (SCOUT).

Everything is a deterministic function of the config (seed included), written once into a cache
folder named by a fingerprint of the config, in TRIDENT's exact layout.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pathreport.data.trident import write_features
from pathreport.encoders import EncoderSpec, coords_folder
from pathreport.io import write_json

GENERATOR_VERSION = 2
PATCH_SIZE = 256
MAGNIFICATION = 20.0
CONCEPT_STREAM_DIR = "gecko"
DEEP_CONCEPT_DIM = 512


@dataclass
class SyntheticConfig:
    """Size and difficulty of the synthetic dataset.

    Attributes:
        n_slides: slides in total (split 70/15/15 into train/val/test).
        seed: everything is derived from it.
        min_patches, max_patches: bag sizes are uniform in this range.
        signal_fraction: share of a bag's patches that carry the lesion's attributes.
        noise: standard deviation of the per-feature noise, relative to the signal.
        latent_dim: dimension of the latent tissue space.
        tissue_types: generic tissue types mixed into the background patches.
        tissue_strength: weight of the generic tissue in a background patch (the organ's weighs 0.7,
            a lesion's attributes 1.5 each).
    """

    n_slides: int = 300
    seed: int = 1234
    min_patches: int = 24
    max_patches: int = 160
    signal_fraction: float = 0.2
    noise: float = 0.5
    latent_dim: int = 64
    tissue_types: int = 8
    tissue_strength: float = 3.0

    def fingerprint(self) -> str:
        payload = json.dumps({"version": GENERATOR_VERSION, **asdict(self)}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]


# ---------------------------------------------------------------------------------------------
# Clinical attributes and report wording
# ---------------------------------------------------------------------------------------------

# organ -> (specimen wordings, diagnoses). A diagnosis is (key, weight, template options, graders).
ORGANS: dict[str, dict[str, Any]] = {
    "breast": {
        "site": "Breast",
        "specimens": ["core-needle biopsy", "sono-guided core biopsy", "mammotome biopsy"],
        "diagnoses": ["invasive_nst", "dcis", "fibroadenoma"],
    },
    "stomach": {
        "site": "Stomach",
        "specimens": ["endoscopic biopsy", "endoscopic mucosal biopsy"],
        "diagnoses": ["tubular_adenocarcinoma", "chronic_gastritis", "tubular_adenoma"],
    },
    "prostate": {
        "site": "Prostate",
        "specimens": ["needle biopsy", "core needle biopsy"],
        "diagnoses": ["acinar_adenocarcinoma", "benign_prostate"],
    },
    "colon": {
        "site": "Colon",
        "specimens": ["colonoscopic biopsy", "endoscopic biopsy"],
        "diagnoses": ["colon_adenocarcinoma", "tubular_adenoma"],
    },
    "bladder": {
        "site": "Urinary bladder",
        "specimens": ["transurethral resection", "cold cup biopsy"],
        "diagnoses": ["invasive_urothelial", "papillary_urothelial"],
    },
}

# Wordings of each diagnosis (one is picked at random per report).
DIAGNOSIS_WORDING: dict[str, list[str]] = {
    "invasive_nst": [
        "Invasive carcinoma of no special type",
        "Invasive ductal carcinoma, no special type",
    ],
    "dcis": ["Ductal carcinoma in situ", "Ductal carcinoma in situ (DCIS)"],
    "fibroadenoma": ["Fibroadenoma", "Fibroadenoma, benign"],
    "tubular_adenocarcinoma": ["Tubular adenocarcinoma", "Adenocarcinoma, tubular type"],
    "chronic_gastritis": [
        "Chronic gastritis",
        "Chronic inflammation of gastric mucosa (chronic gastritis)",
    ],
    "tubular_adenoma": ["Tubular adenoma", "Adenoma, tubular type"],
    "acinar_adenocarcinoma": ["Acinar adenocarcinoma", "Adenocarcinoma, acinar type"],
    "benign_prostate": ["Benign prostatic tissue", "No tumor (benign prostatic tissue)"],
    "colon_adenocarcinoma": ["Adenocarcinoma", "Invasive adenocarcinoma"],
    "invasive_urothelial": ["Invasive urothelial carcinoma", "Urothelial carcinoma, invasive"],
    "papillary_urothelial": [
        "Non-invasive papillary urothelial carcinoma",
        "Papillary urothelial carcinoma, non-invasive",
    ],
}

ROMAN = {1: "I", 2: "II", 3: "III"}
GLEASON_PATTERNS = [(3, 3), (3, 4), (4, 3), (4, 4), (4, 5)]
GLEASON_GROUP = {(3, 3): 1, (3, 4): 2, (4, 3): 3, (4, 4): 4, (4, 5): 5}


def sample_attributes(rng: np.random.Generator) -> dict[str, Any]:
    """Draw one case's clinical attributes (canonical values, the ground truth of its report)."""
    organ = str(rng.choice(list(ORGANS)))
    spec = ORGANS[organ]
    diagnosis = str(rng.choice(spec["diagnoses"]))
    attrs: dict[str, Any] = {"organ": organ, "diagnosis": diagnosis}
    if diagnosis == "invasive_nst":
        grade = int(rng.integers(1, 4))
        attrs["grade"] = grade
        # Nottingham components consistent with the grade (total 3-5: I, 6-7: II, 8-9: III).
        total = {1: rng.integers(3, 6), 2: rng.integers(6, 8), 3: rng.integers(8, 10)}[grade]
        parts = _split_total(int(total), rng)
        attrs.update(tubule_score=parts[0], nuclear_grade=parts[1], mitotic_score=parts[2])
        attrs["lymphovascular_invasion"] = bool(rng.random() < 0.4)
    elif diagnosis == "dcis":
        attrs["nuclear_grade_level"] = str(rng.choice(["low", "intermediate", "high"]))
        attrs["necrosis"] = bool(rng.random() < 0.5)
        attrs["calcification"] = bool(rng.random() < 0.5)
    elif diagnosis in ("tubular_adenocarcinoma", "colon_adenocarcinoma"):
        attrs["differentiation"] = str(rng.choice(["well", "moderately", "poorly"]))
        attrs["lymphovascular_invasion"] = bool(rng.random() < 0.4)
    elif diagnosis == "chronic_gastritis":
        attrs["hpylori"] = bool(rng.random() < 0.5)
        attrs["intestinal_metaplasia"] = bool(rng.random() < 0.4)
    elif diagnosis == "tubular_adenoma":
        attrs["dysplasia"] = str(rng.choice(["low", "high"]))
    elif diagnosis == "acinar_adenocarcinoma":
        primary, secondary = GLEASON_PATTERNS[int(rng.integers(len(GLEASON_PATTERNS)))]
        attrs.update(gleason_primary=primary, gleason_secondary=secondary)
        attrs["tumor_volume"] = int(rng.choice([5, 10, 20, 30, 40, 60, 80]))
    elif diagnosis == "invasive_urothelial":
        attrs["muscle_proper"] = bool(rng.random() < 0.5)
    elif diagnosis == "papillary_urothelial":
        attrs["urothelial_grade"] = str(rng.choice(["low", "high"]))
    return attrs


def _split_total(total: int, rng: np.random.Generator) -> tuple[int, int, int]:
    options = [
        (a, b, c) for a in (1, 2, 3) for b in (1, 2, 3) for c in (1, 2, 3) if a + b + c == total
    ]
    return options[int(rng.integers(len(options)))]


def write_report(attrs: dict[str, Any], rng: np.random.Generator) -> str:
    """A REG-style report stating ``attrs``, with randomly varied wording."""
    spec = ORGANS[attrs["organ"]]
    head = f"{spec['site']}, {rng.choice(spec['specimens'])};"
    dx = str(rng.choice(DIAGNOSIS_WORDING[attrs["diagnosis"]]))
    parts = [dx]
    d = attrs["diagnosis"]
    if d == "invasive_nst":
        grade = attrs["grade"]
        grade_text = rng.choice([f"grade {ROMAN[grade]}", f"histologic grade {grade}"])
        detail = (
            f"Tubule formation: {attrs['tubule_score']}, Nuclear grade: {attrs['nuclear_grade']}, "
            f"Mitoses: {attrs['mitotic_score']}"
        )
        parts = [f"{dx}, {grade_text} ({detail})"]
        parts.append(_finding("lymphovascular invasion", attrs["lymphovascular_invasion"], rng))
    elif d == "dcis":
        parts = [f"{dx}, {attrs['nuclear_grade_level']} nuclear grade"]
        parts.append(_finding("necrosis", attrs["necrosis"], rng))
        parts.append(_finding("microcalcification", attrs["calcification"], rng))
    elif d in ("tubular_adenocarcinoma", "colon_adenocarcinoma"):
        diff = attrs["differentiation"]
        parts = [
            str(
                rng.choice(
                    [
                        f"{dx}, {diff} differentiated",
                        f"{diff.capitalize()} differentiated {dx[0].lower() + dx[1:]}",
                    ]
                )
            )
        ]
        parts.append(_finding("lymphovascular invasion", attrs["lymphovascular_invasion"], rng))
    elif d == "chronic_gastritis":
        parts.append(_finding("Helicobacter pylori", attrs["hpylori"], rng))
        parts.append(_finding("intestinal metaplasia", attrs["intestinal_metaplasia"], rng))
    elif d == "tubular_adenoma":
        parts = [f"{dx} with {attrs['dysplasia']} grade dysplasia"]
    elif d == "acinar_adenocarcinoma":
        p, s = attrs["gleason_primary"], attrs["gleason_secondary"]
        gleason = rng.choice(
            [f"Gleason's score {p + s} ({p}+{s})", f"Gleason score {p}+{s}={p + s}"]
        )
        parts = [
            f"{dx}, {gleason}, grade group {GLEASON_GROUP[(p, s)]}, tumor "
            f"volume: {attrs['tumor_volume']}%"
        ]
    elif d == "invasive_urothelial":
        if attrs["muscle_proper"]:
            parts = [f"{dx}, high grade, with involvement of muscle proper"]
        else:
            parts = [
                f"{dx}, high grade, invading subepithelial connective tissue",
                "Muscle proper is free of tumor",
            ]
    elif d == "papillary_urothelial":
        parts = [f"{dx}, {attrs['urothelial_grade']} grade"]
    body = "\n  ".join(p for p in parts if p)
    return f"{head}\n  {body}"


def _finding(name: str, present: bool, rng: np.random.Generator) -> str:
    if present:
        return str(rng.choice([f"{name[0].upper() + name[1:]}: present", f"With {name}"]))
    return str(
        rng.choice([f"{name[0].upper() + name[1:]}: absent", f"No {name}", f"Negative for {name}"])
    )


def generate_cases(n: int, seed: int = 0) -> list[tuple[str, dict[str, Any]]]:
    """``n`` (report, attributes) pairs, for testing report extractors against known truth."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        attrs = sample_attributes(rng)
        out.append((write_report(attrs, rng), attrs))
    return out


# ---------------------------------------------------------------------------------------------
# Latent bags and features
# ---------------------------------------------------------------------------------------------


def _attribute_tokens(attrs: dict[str, Any]) -> list[str]:
    """The lesion's latent "ingredients": one token per attribute value."""
    return [f"{k}={v}" for k, v in sorted(attrs.items()) if k != "organ"]


def _prototype(token: str, cfg: SyntheticConfig) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha256(f"{cfg.seed}/{token}".encode()).digest()[:8], "little")
    v = np.random.default_rng(seed).standard_normal(cfg.latent_dim)
    return v / np.linalg.norm(v)


def _stable_seed(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:8], "little")


class SyntheticDataset:
    """Builds (once) and locates the synthetic dataset's files for a config.

    Layout under ``root/<fingerprint>/``::

        splits.json                                   paper-format split with raw reports
        attributes.json                               ground-truth attributes per slide
        20x_256px_0px_overlap/features_<enc>/<id>.h5  patch features per encoder (on demand)
        20x_256px_0px_overlap/slide_features_<enc>/<id>.h5
        gecko/<id>.h5                                 bag_feats_deep (512) and bag_feats (concepts)
    """

    def __init__(self, root: str | os.PathLike, cfg: SyntheticConfig | None = None) -> None:
        self.cfg = cfg or SyntheticConfig()
        if self.cfg.n_slides < 10:
            raise ValueError(
                "synthetic.n_slides must be at least 10 to fill three splits, "
                f"found {self.cfg.n_slides}."
            )
        if not 0 < self.cfg.signal_fraction <= 1:
            raise ValueError(
                f"synthetic.signal_fraction must be in (0, 1], found {self.cfg.signal_fraction}."
            )
        if not 1 <= self.cfg.min_patches <= self.cfg.max_patches:
            raise ValueError("synthetic.min_patches must be >= 1 and <= synthetic.max_patches.")
        self.dir = Path(root).expanduser() / self.cfg.fingerprint()
        self._cases: list[dict[str, Any]] | None = None
        self._concepts: list[str] | None = None

    # -- metadata ------------------------------------------------------------------------------
    @property
    def job_dir(self) -> Path:
        """The TRIDENT job directory (``paths.features_dir``)."""
        return self.dir

    @property
    def split_file(self) -> Path:
        return self.dir / "splits.json"

    @property
    def coords_dir(self) -> Path:
        return self.dir / coords_folder(MAGNIFICATION, PATCH_SIZE, 0)

    def cases(self) -> list[dict[str, Any]]:
        """Slide id, split, attributes, report and bag size of every slide (deterministic)."""
        if self._cases is None:
            rng = np.random.default_rng(self.cfg.seed)
            n = self.cfg.n_slides
            n_test = max(1, round(0.15 * n))
            n_val = max(1, round(0.15 * n))
            splits = ["train"] * (n - n_val - n_test) + ["val"] * n_val + ["test"] * n_test
            cases = []
            for i in range(n):
                attrs = sample_attributes(rng)
                report = write_report(attrs, rng)
                n_patches = int(rng.integers(self.cfg.min_patches, self.cfg.max_patches + 1))
                cases.append(
                    {
                        "id": f"SYN_{i:05d}",
                        "split": splits[i],
                        "attributes": attrs,
                        "report": report,
                        "n_patches": n_patches,
                    }
                )
            self._cases = cases
        return self._cases

    def concepts(self) -> list[str]:
        """Concept names of the GECKO-style stream: every attribute value seen in the data."""
        if self._concepts is None:
            names = {t for case in self.cases() for t in _attribute_tokens(case["attributes"])}
            names |= {f"organ={case['attributes']['organ']}" for case in self.cases()}
            self._concepts = sorted(names)
        return self._concepts

    # -- building ------------------------------------------------------------------------------
    def ensure(
        self, encoders: list[EncoderSpec] = (), *, concepts: bool = False
    ) -> SyntheticDataset:
        """Write the split file and, if missing, ``encoders``' features (and concept files)."""
        self.dir.mkdir(parents=True, exist_ok=True)
        if not self.split_file.exists():
            self._write_json_files()
        for spec in encoders:
            folder = self.coords_dir / spec.feature_folder
            if not (folder / ".complete").exists():
                self._atomic_folder(folder, lambda tmp, spec=spec: self._write_encoder(tmp, spec))
        if concepts:
            folder = self.dir / CONCEPT_STREAM_DIR
            if not (folder / ".complete").exists():
                self._atomic_folder(folder, self._write_concepts)
        return self

    def _write_json_files(self) -> None:
        cases = self.cases()
        splits: dict[str, list[dict[str, str]]] = {"train": [], "val": [], "test": []}
        for case in cases:
            splits[case["split"]].append({"id": case["id"], "report": case["report"]})
        write_json(self.split_file, splits, indent=1)
        write_json(
            self.dir / "attributes.json",
            {c["id"]: c["attributes"] for c in sorted(cases, key=lambda c: c["id"])},
            indent=1,
        )
        write_json(
            self.dir / "config.json",
            {"generator_version": GENERATOR_VERSION, **asdict(self.cfg)},
            indent=1,
        )

    def latent_bag(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """(N, latent_dim) latent patch vectors and (N, 2) level-0 coords of slide ``index``."""
        case = self.cases()[index]
        cfg = self.cfg
        rng = np.random.default_rng(_stable_seed(cfg.seed, "bag", index))
        n = case["n_patches"]
        attrs = case["attributes"]
        organ = _prototype(f"organ={attrs['organ']}", cfg)
        lesion = sum(
            (_prototype(t, cfg) for t in _attribute_tokens(attrs)), np.zeros(cfg.latent_dim)
        )
        generic = np.stack([_prototype(f"tissue={k}", cfg) for k in range(cfg.tissue_types)])
        composition = rng.dirichlet(np.full(cfg.tissue_types, 0.5))  # this slide's tissue mix
        kinds = rng.choice(cfg.tissue_types, size=n, p=composition)
        z = (
            0.7 * organ[None, :]
            + cfg.tissue_strength * generic[kinds]
            + 0.25 * rng.standard_normal((n, cfg.latent_dim))
        )
        n_signal = max(1, int(round(cfg.signal_fraction * n)))
        signal_idx = rng.choice(n, size=n_signal, replace=False)
        z[signal_idx] += 1.5 * lesion - cfg.tissue_strength * generic[kinds[signal_idx]]
        side = int(np.ceil(np.sqrt(n)))
        grid = rng.permutation(side * side)[:n]
        coords = np.stack([(grid % side) * PATCH_SIZE * 2, (grid // side) * PATCH_SIZE * 2], axis=1)
        return z.astype(np.float32), coords.astype(np.int64)

    def _projection(self, name: str, dim: int) -> np.ndarray:
        rng = np.random.default_rng(_stable_seed(self.cfg.seed, "projection", name))
        return (
            rng.standard_normal((self.cfg.latent_dim, dim)) / np.sqrt(self.cfg.latent_dim)
        ).astype(np.float32)

    def _write_encoder(self, folder: Path, spec: EncoderSpec) -> None:
        w = self._projection(spec.trident_name, spec.embedding_dim)
        for i, case in enumerate(self.cases()):
            z, coords = self.latent_bag(i)
            rng = np.random.default_rng(_stable_seed(self.cfg.seed, "noise", spec.trident_name, i))
            if spec.kind == "slide":
                x = z.mean(0) @ w * 4.0
                x = x + self.cfg.noise * rng.standard_normal(x.shape)
                write_features(
                    folder / f"{case['id']}.h5", x.astype(np.float32), encoder=spec.trident_name
                )
            else:
                x = z @ w
                x = x + self.cfg.noise * rng.standard_normal(x.shape) * float(np.abs(x).mean())
                write_features(
                    folder / f"{case['id']}.h5",
                    x,
                    coords,
                    encoder=spec.trident_name,
                    patch_size=PATCH_SIZE,
                    magnification=MAGNIFICATION,
                    level0_size=(
                        int(coords[:, 0].max()) + 2 * PATCH_SIZE,
                        int(coords[:, 1].max()) + 2 * PATCH_SIZE,
                    ),
                )

    def _write_concepts(self, folder: Path) -> None:
        protos = np.stack([_prototype(c, self.cfg) for c in self.concepts()])  # (C, latent)
        w = self._projection("gecko_deep", DEEP_CONCEPT_DIM)
        for i, case in enumerate(self.cases()):
            z, _ = self.latent_bag(i)
            scores = (z @ protos.T).max(axis=0).astype(np.float32)  # strongest patch per concept
            deep = (z.mean(0) @ w).astype(np.float32)
            write_features(
                folder / f"{case['id']}.h5",
                deep,
                extra={"bag_feats": scores},
                encoder="gecko",
                features_key="bag_feats_deep",
            )

    def _atomic_folder(self, folder: Path, build) -> None:
        """Build into a temporary sibling folder, then move it in place (safe across processes)."""
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
        try:
            build(tmp)
            (tmp / ".complete").write_text("ok\n")
            try:
                os.replace(tmp, folder)
            except OSError:
                if not (folder / ".complete").exists():  # an incomplete leftover: replace it
                    shutil.rmtree(folder, ignore_errors=True)
                    os.replace(tmp, folder)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
