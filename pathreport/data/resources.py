"""What the data module tells a generator about the dataset, so the generator can locate or build
files of its own (BiGen's knowledge bank) without the data layer knowing what they are.

The data module fills one :class:`DatasetInfo` after it has read the splits and hands it to the
generator's ``dataset_resources`` hook (see
:class:`pathreport.generation.generator.ReportGenerator`). Only the TRAINING reports are given: a
resource built from text must not see validation or test reports.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DatasetInfo:
    """The facts about a dataset that a generator's resources may depend on.

    Attributes:
        name: dataset name (``data=<name>``).
        split_file: the split file the run reads (for error messages and provenance).
        train_reports: the reports of the training split, in split order.
        cache_dir: the run's cache folder (``paths.cache_dir``), where resources built by a
            command (``pathreport <model> ...``) are found by default.
        generated_dir: the folder of a generated dataset (the synthetic one), where a generator
            may build its resources on first use; None for a real dataset, whose resources are
            built by the user beforehand.
    """

    name: str
    split_file: Path
    train_reports: tuple[str, ...]
    cache_dir: Path
    generated_dir: Path | None = None
