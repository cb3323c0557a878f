"""The plug-in registry: names, duplicates, suggestions, entry points, Hydra registration."""

from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass

import pytest

from pathreport.registry import Registry, RegistryError


def test_registry_duplicate_name_raises_naming_both_providers():
    reg: Registry = Registry("things")
    reg.register("alpha", provider="first.py")(object())
    with pytest.raises(RegistryError) as err:
        reg.register("alpha", provider="second.py")(object())
    assert "first.py" in str(err.value) and "second.py" in str(err.value)


@pytest.mark.parametrize("bad", ["Alpha", "1x", "a-b", "", "a b"])
def test_registry_rejects_malformed_names(bad):
    with pytest.raises(RegistryError, match="must match"):
        Registry("things").register(bad)(object())


def test_registry_unknown_name_suggests_close_matches_and_lists_all():
    reg: Registry = Registry("models")
    for name in ("histgen", "migen", "scout"):
        reg.register(name, provider="x")(object())
    with pytest.raises(KeyError) as err:
        reg.get("histgn")
    message = str(err.value)
    assert "Did you mean 'histgen'" in message
    assert "histgen, migen, scout" in message


def test_registry_builtins_cover_every_kind():
    from pathreport.registry import DATASETS, ENCODERS, EVALUATORS, GENERATORS

    assert {"migen", "histgen", "most_frequent", "nearest_neighbor"} <= set(GENERATORS.names())
    assert {"conch15", "uni2", "hoptimus1", "conch1", "titan"} <= set(ENCODERS.names())
    assert {"synthetic", "reg2025", "tcga", "histai"} <= set(DATASETS.names())
    assert {"nlg", "crqs"} <= set(EVALUATORS.names())


def test_registry_generator_config_lands_in_hydra_config_store():
    from hydra.core.config_store import ConfigStore

    from pathreport.registry import GENERATORS

    GENERATORS.get("histgen")  # triggers discovery
    node = ConfigStore.instance().load("model/histgen.yaml").node
    assert node.name == "histgen"


def test_registry_third_party_entry_point_is_loaded(tmp_path, monkeypatch):
    """A package installed with a ``pathreport.generators`` entry point registers its generator."""
    from pathreport import discovery
    from pathreport.registry import GENERATORS

    pkg = tmp_path / "acme_reports"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        textwrap.dedent("""
        from dataclasses import dataclass
        from pathreport.generation.generator import GeneratorConfig, RetrievalBaseline

        @dataclass
        class EchoConfig(GeneratorConfig):
            pass

        class Echo(RetrievalBaseline):
            config_class = EchoConfig
            def fit(self, batches): pass
            def predict(self, batch): return ["echo"] * len(batch)
    """)
    )
    dist = tmp_path / "acme_reports-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-reports\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[pathreport.generators]\nacme_echo = acme_reports:Echo\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        discovery._load_entry_points()
        entry = GENERATORS.get("acme_echo")
        assert entry.obj.__name__ == "Echo"
        assert entry.provider == "acme-reports 1.0"
    finally:
        GENERATORS.remove("acme_echo")
        sys.modules.pop("acme_reports", None)


def test_registry_register_generator_rejects_non_generator_classes():
    from pathreport.generation.generator import GeneratorConfig, register_generator

    @dataclass
    class Cfg(GeneratorConfig):
        pass

    with pytest.raises(TypeError, match="must subclass"):
        register_generator("not_a_generator", config=Cfg)(dict)


def _install_fake_distribution(
    tmp_path, monkeypatch, module: str, source: str, entry_points: str
) -> None:
    """A package ``module`` (one ``__init__.py``) with given ``entry_points.txt``, importable."""
    pkg = tmp_path / module
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(source))
    dist = tmp_path / f"{module}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {module.replace('_', '-')}\nVersion: 1.0\n"
    )
    (dist / "entry_points.txt").write_text(entry_points)
    monkeypatch.syspath_prepend(str(tmp_path))


def test_registry_entry_point_module_that_registers_nothing_is_an_error(tmp_path, monkeypatch):
    """A plug-in package whose module registers nothing is named, instead of silently missing."""
    from pathreport import discovery
    from pathreport.errors import PluginError

    _install_fake_distribution(
        tmp_path,
        monkeypatch,
        "acme_empty",
        "X = 1\n",
        "[pathreport.evaluators]\nacme = acme_empty\n",
    )
    try:
        with pytest.raises(
            PluginError, match=r"acme = acme_empty.*acme-empty 1.0.*registered nothing"
        ):
            discovery._load_entry_points()
    finally:
        sys.modules.pop("acme_empty", None)


def test_registry_entry_point_duplicating_a_builtin_names_both_providers(tmp_path, monkeypatch):
    from pathreport import discovery
    from pathreport.registry import EVALUATORS

    EVALUATORS.get("nlg")  # built-ins first
    _install_fake_distribution(
        tmp_path,
        monkeypatch,
        "acme_nlg",
        "def nlg(records, **kw): return None\n",
        "[pathreport.evaluators]\nnlg = acme_nlg:nlg\n",
    )
    try:
        with pytest.raises(RegistryError) as err:
            discovery._load_entry_points()
        assert "acme-nlg 1.0" in str(err.value) and "pathreport/evaluation/nlg.py" in str(err.value)
    finally:
        sys.modules.pop("acme_nlg", None)


def test_registry_plugin_file_that_registers_nothing_is_an_error(tmp_path):
    from pathreport.discovery import load_plugin_file
    from pathreport.errors import PluginError

    helper = tmp_path / "shared_layers.py"
    helper.write_text("import torch\nWIDTH = 4\n")
    with pytest.raises(PluginError, match=r"shared_layers.py registered nothing.*start with '_'"):
        load_plugin_file(helper)


def test_registry_every_kind_registers_with_the_same_decorator(tmp_path):
    """One form for all kinds: ``@<REGISTRY>.register(name, **metadata)``, also in plug-in files."""
    from pathreport.discovery import load_plugin_file
    from pathreport.registry import REGISTRIES

    plugin = tmp_path / "every_kind.py"
    plugin.write_text(
        "from pathreport import REGISTRIES\n\n"
        "for kind, registry in REGISTRIES.items():\n"
        "    if kind not in ('models', 'encoders'):\n"
        "        registry.register(f'probe_{kind}', paper='none')(lambda *a, **k: None)\n"
    )
    try:
        load_plugin_file(plugin)
        for kind, registry in REGISTRIES.items():
            if kind not in ("models", "encoders"):
                entry = registry.get(f"probe_{kind}")
                assert entry.metadata["paper"] == "none" and entry.provider == str(plugin)
    finally:
        for kind, registry in REGISTRIES.items():
            registry.remove(f"probe_{kind}")


def test_plugin_file_imports_its_helper_package_and_adds_a_command(tmp_path, capsys):
    """A plug-in with code of its own is one file plus a ``_<name>/`` package beside it, imported
    relatively; names starting with ``_`` are never loaded as plug-ins; a plug-in may add a
    ``pathreport`` sub-command (as BiGen adds ``pathreport bigen``)."""
    from pathreport import COMMANDS
    from pathreport.app import cli
    from pathreport.discovery import load_plugin_folder

    folder = tmp_path / "my-models"
    (folder / "_echo").mkdir(parents=True)
    (folder / "_echo" / "__init__.py").write_text("")
    (folder / "_echo" / "words.py").write_text("WORD = 'echoed'\n")
    (folder / "_broken.py").write_text("raise RuntimeError('a helper file is not a plug-in')\n")
    (folder / "echo_cmd.py").write_text(
        textwrap.dedent("""
        from pathreport import COMMANDS

        from ._echo.words import WORD

        @COMMANDS.register("echo_words", help="print a word")
        def add(parser):
            parser.add_argument("--times", type=int, default=1)
            parser.set_defaults(func=lambda args: print(" ".join([WORD] * args.times)))
    """)
    )
    try:
        load_plugin_folder(folder)
        assert cli.main(["echo_words", "--times", "2"]) == 0
        assert capsys.readouterr().out.strip() == "echoed echoed"
        assert COMMANDS.get("echo_words").provider == str(folder.resolve() / "echo_cmd.py")
    finally:
        COMMANDS.remove("echo_words")


def test_plugin_command_named_like_a_builtin_one_is_refused_naming_its_provider(capsys):
    from pathreport import COMMANDS
    from pathreport.app import cli

    COMMANDS.get("bigen")  # discovery first, so the clash is the only change
    COMMANDS.register("list", provider="clashing_plugin.py")(lambda parser: None)
    try:
        assert cli.main(["list", "models"]) == 2
        err = capsys.readouterr().err
        assert "'list'" in err and "clashing_plugin.py" in err and "rename it" in err
    finally:
        COMMANDS.remove("list")


def test_plugin_folders_of_the_same_name_keep_their_own_helpers(tmp_path):
    from pathreport import COMMANDS
    from pathreport.discovery import load_plugin_file

    values = []
    try:
        for owner in ("alice", "bob"):
            folder = tmp_path / owner / "models"
            (folder / "_shared").mkdir(parents=True)
            (folder / "_shared" / "__init__.py").write_text(f"OWNER = {owner!r}\n")
            (folder / "gen.py").write_text(
                "from pathreport import COMMANDS\n\nfrom ._shared import OWNER\n\n"
                "COMMANDS.register(f'probe_{OWNER}')(lambda parser: None)\n"
            )
            values.append(sys.modules[load_plugin_file(folder / "gen.py")].OWNER)
    finally:
        COMMANDS.remove("probe_alice")
        COMMANDS.remove("probe_bob")
    assert values == ["alice", "bob"]
