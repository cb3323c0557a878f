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
    from pathreport.plugins import DATASETS, ENCODERS, EVALUATORS, GENERATORS

    assert {"migen", "histgen", "most_frequent", "nearest_neighbor"} <= set(GENERATORS.names())
    assert {"conch15", "uni2", "hoptimus1", "conch1", "titan"} <= set(ENCODERS.names())
    assert {"synthetic", "reg2025", "tcga", "histai"} <= set(DATASETS.names())
    assert {"nlg", "crqs"} <= set(EVALUATORS.names())


def test_registry_generator_config_lands_in_hydra_config_store():
    from hydra.core.config_store import ConfigStore

    from pathreport.plugins import GENERATORS

    GENERATORS.get("histgen")  # triggers discovery
    node = ConfigStore.instance().load("model/histgen.yaml").node
    assert node.name == "histgen"


def test_registry_third_party_entry_point_is_loaded(tmp_path, monkeypatch):
    """A package installed with a ``pathreport.generators`` entry point registers its generator."""
    from pathreport import plugins

    pkg = tmp_path / "acme_reports"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent('''
        from dataclasses import dataclass
        from pathreport.generator import GeneratorConfig, RetrievalBaseline

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
        plugins._load_entry_points()
        entry = plugins.GENERATORS.get("acme_echo")
        assert entry.obj.__name__ == "Echo"
        assert entry.provider == "acme-reports 1.0"
    finally:
        plugins.GENERATORS.remove("acme_echo")
        sys.modules.pop("acme_reports", None)


def test_registry_register_generator_rejects_non_generator_classes():
    from pathreport.generator import GeneratorConfig, register_generator

    @dataclass
    class Cfg(GeneratorConfig):
        pass

    with pytest.raises(TypeError, match="must subclass"):
        register_generator("not_a_generator", config=Cfg)(dict)


def test_plugin_file_imports_its_helper_package_and_adds_a_command(tmp_path, capsys):
    """A plug-in with code of its own is one file plus a ``_<name>/`` package beside it, imported
    relatively; names starting with ``_`` are never loaded as plug-ins; a plug-in may add a
    ``pathreport`` sub-command (as BiGen adds ``pathreport bigen``)."""
    from pathreport import cli, plugins

    folder = tmp_path / "my-models"
    (folder / "_echo").mkdir(parents=True)
    (folder / "_echo" / "__init__.py").write_text("")
    (folder / "_echo" / "words.py").write_text("WORD = 'echoed'\n")
    (folder / "_broken.py").write_text("raise RuntimeError('a helper file is not a plug-in')\n")
    (folder / "echo_cmd.py").write_text(textwrap.dedent('''
        from pathreport.plugins import COMMANDS

        from ._echo.words import WORD

        @COMMANDS.register("echo_words", help="print a word")
        def add(parser):
            parser.add_argument("--times", type=int, default=1)
            parser.set_defaults(func=lambda args: print(" ".join([WORD] * args.times)))
    '''))
    try:
        plugins.load_plugin_folder(folder)
        assert cli.main(["echo_words", "--times", "2"]) == 0
        assert capsys.readouterr().out.strip() == "echoed echoed"
        assert plugins.COMMANDS.get("echo_words").provider == str(folder.resolve() / "echo_cmd.py")
    finally:
        plugins.COMMANDS.remove("echo_words")


def test_plugin_command_named_like_a_builtin_one_is_refused_naming_its_provider(capsys):
    from pathreport import cli, plugins

    plugins.COMMANDS.get("bigen")  # discovery first, so the clash is the only change
    plugins.COMMANDS.add("list", lambda parser: None, provider="clashing_plugin.py")
    try:
        assert cli.main(["list", "models"]) == 2
        err = capsys.readouterr().err
        assert "'list'" in err and "clashing_plugin.py" in err and "rename it" in err
    finally:
        plugins.COMMANDS.remove("list")


def test_plugin_folders_of_the_same_name_keep_their_own_helpers(tmp_path):
    from pathreport import plugins

    values = []
    for owner in ("alice", "bob"):
        folder = tmp_path / owner / "models"
        (folder / "_shared").mkdir(parents=True)
        (folder / "_shared" / "__init__.py").write_text(f"OWNER = {owner!r}\n")
        (folder / "gen.py").write_text("from ._shared import OWNER\n")
        values.append(sys.modules[plugins.load_plugin_file(folder / "gen.py")].OWNER)
    assert values == ["alice", "bob"]
