"""The ``pathreport`` command: listing registries."""

from __future__ import annotations

import json

import pytest

from pathreport.app.cli import main


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("models", ["histgen", "migen", "most_frequent", "nearest_neighbor"]),
        ("encoders", ["conch15", "uni2", "hoptimus1", "titan"]),
        ("datasets", ["synthetic", "reg2025", "tcga", "histai"]),
        ("evaluators", ["nlg", "crqs"]),
    ],
)
def test_cli_list_prints_registered_plugins(kind, expected, capsys):
    assert main(["list", kind]) == 0
    out = capsys.readouterr().out
    for name in expected:
        assert name in out


def test_cli_list_json_has_encoder_facts(capsys):
    assert main(["list", "encoders", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["uni2"]["embedding_dim"] == 1536 and rows["uni2"]["trident_name"] == "uni_v2"


def test_cli_unknown_kind_is_rejected(capsys):
    with pytest.raises(SystemExit):
        main(["list", "modles"])
    assert "invalid choice" in capsys.readouterr().err
