"""Module paths from before the package was layered still work: old plug-in files and old pickles.

Checkpoints written by ``train.py`` hold only tensors and plain containers (see
``tests/app/faults/test_faults_checkpoints.py``: every global a real checkpoint imports is in the
allow-list, which names no pathreport module), so moving modules cannot break them. What can name an
old module is a plug-in file written for an earlier version, or a pickle loaded with
``ckpt_trust=true``; both are checked here.
"""

from __future__ import annotations

import importlib
import warnings

import pytest
import torch

from pathreport._moved import MOVED, new_name
from pathreport.generation.checkpoints import checkpoint_globals, load_checkpoint
from pathreport.generation.decoding import DecodingConfig


@pytest.mark.parametrize("old", sorted(MOVED))
def test_every_old_module_path_imports_the_module_that_replaced_it(old):
    with pytest.warns(DeprecationWarning, match="has moved to"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new_name(old))


def test_an_old_submodule_path_is_the_same_module_not_a_copy():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pathreport.crqs.schema import Schema as OldSchema
    from pathreport.evaluation.crqs.schema import Schema

    assert OldSchema is Schema


def test_a_plugin_file_written_against_the_old_paths_still_registers(tmp_path):
    from pathreport.discovery import load_plugin_file
    from pathreport.registry import GENERATORS

    plugin = tmp_path / "old_style.py"
    plugin.write_text(
        "from dataclasses import dataclass\nfrom pathreport.generator import GeneratorConfig, "
        "RetrievalBaseline, register_generator\n\n@dataclass\nclass "
        "OldStyleConfig(GeneratorConfig):\n    pass\n\n@register_generator('old_style', "
        "config=OldStyleConfig, paper='none')\nclass OldStyle(RetrievalBaseline):\n    def "
        "fit(self, batches): pass\n    def predict(self, batch): return ['x'] * len(batch)\n"
    )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            load_plugin_file(plugin)
        assert GENERATORS.get("old_style").metadata["kind"] == "baseline"
    finally:
        GENERATORS.remove("old_style")


def test_a_trusted_checkpoint_that_names_a_class_by_its_old_module_loads(tmp_path, monkeypatch):
    """Pickled as ``pathreport.decoding.DecodingConfig`` (its module before the move)."""
    ckpt = tmp_path / "old.ckpt"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        monkeypatch.setattr(DecodingConfig, "__module__", "pathreport.decoding")
        torch.save(
            {"state_dict": {}, "hyper_parameters": {"decoding": DecodingConfig(beam_size=2)}}, ckpt
        )
        monkeypatch.undo()
        assert "pathreport.decoding.DecodingConfig" in checkpoint_globals(ckpt)
        loaded = load_checkpoint(ckpt, trust=True)["hyper_parameters"]["decoding"]
    assert isinstance(loaded, DecodingConfig) and loaded.beam_size == 2
