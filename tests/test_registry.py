"""The plug-in registry: names, duplicates, suggestions, entry points, Hydra registration."""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass

import pytest

from pathreport.registry import Registry, RegistryError


def test_registry_duplicate_name_raises_naming_both_providers():
    reg: Registry = Registry("things")
    reg.add("alpha", object(), provider="first.py")
    with pytest.raises(RegistryError) as err:
        reg.add("alpha", object(), provider="second.py")
    assert "first.py" in str(err.value) and "second.py" in str(err.value)


@pytest.mark.parametrize("bad", ["Alpha", "1x", "a-b", "", "a b"])
def test_registry_rejects_malformed_names(bad):
    with pytest.raises(RegistryError, match="must match"):
        Registry("things").add(bad, object())


def test_registry_unknown_name_suggests_close_matches_and_lists_all():
    reg: Registry = Registry("models")
    for name in ("histgen", "migen", "scout"):
        reg.add(name, object(), provider="x")
    with pytest.raises(KeyError) as err:
        reg.get("histgn")
    message = str(err.value)
    assert "Did you mean 'histgen'" in message
    assert "histgen, migen, scout" in message


def test_registry_builtins_cover_every_kind():
    from pathreport.discovery import DATASETS, ENCODERS, EVALUATORS, GENERATORS

    assert {"migen", "histgen", "most_frequent", "nearest_neighbor"} <= set(GENERATORS.names())
    assert {"conch15", "uni2", "hoptimus1", "conch1", "titan"} <= set(ENCODERS.names())
    assert {"synthetic", "reg2025", "tcga", "histai"} <= set(DATASETS.names())
    assert {"nlg", "crqs"} <= set(EVALUATORS.names())


def test_registry_generator_config_lands_in_hydra_config_store():
    from hydra.core.config_store import ConfigStore

    from pathreport.discovery import GENERATORS

    GENERATORS.get("histgen")  # triggers discovery
    node = ConfigStore.instance().load("model/histgen.yaml").node
    assert node.name == "histgen"


def test_registry_third_party_entry_point_is_loaded(tmp_path, monkeypatch):
    """A package installed with a ``pathreport.generators`` entry point registers its generator."""
    from pathreport import discovery

    pkg = tmp_path / "acme_reports"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent('''
        from dataclasses import dataclass
        from pathreport.generation.generator import GeneratorConfig, RetrievalBaseline

        @dataclass
        class EchoConfig(GeneratorConfig):
            pass

        class Echo(RetrievalBaseline):
            config_class = EchoConfig
            def fit(self, batches): pass
            def predict(self, batch): return ["echo"] * len(batch)
    '''))
    dist = tmp_path / "acme_reports-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-reports\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[pathreport.generators]\nacme_echo = acme_reports:Echo\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        discovery._load_entry_points()
        entry = discovery.GENERATORS.get("acme_echo")
        assert entry.obj.__name__ == "Echo"
        assert entry.provider == "acme-reports 1.0"
    finally:
        discovery.GENERATORS.remove("acme_echo")
        sys.modules.pop("acme_reports", None)


def test_registry_register_generator_rejects_non_generator_classes():
    from pathreport.generation.generator import GeneratorConfig, register_generator

    @dataclass
    class Cfg(GeneratorConfig):
        pass

    with pytest.raises(TypeError, match="must subclass"):
        register_generator("not_a_generator", config=Cfg)(dict)
