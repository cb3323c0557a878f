"""Encoder specs: facts from TRIDENT's registry, and validation of spec files."""

from __future__ import annotations

import pytest

from pathreport.encoders import EncoderSpec, coords_folder


@pytest.mark.parametrize(
    ("name", "trident", "dim", "patch"),
    [
        ("conch15", "conch_v15", 768, 512),
        ("uni2", "uni_v2", 1536, 256),
        ("hoptimus1", "hoptimus1", 1536, 224),
        ("conch1", "conch_v1", 512, 512),
    ],
)
def test_encoders_key_specs_match_trident(name, trident, dim, patch):
    from pathreport.registry import ENCODERS

    spec = ENCODERS[name]
    assert (spec.trident_name, spec.embedding_dim, spec.patch_size, spec.magnification) == (
        trident,
        dim,
        patch,
        20.0,
    )
    assert spec.feature_folder == f"features_{trident}"


def test_encoders_titan_is_a_slide_encoder():
    from pathreport.registry import ENCODERS

    titan = ENCODERS["titan"]
    assert titan.kind == "slide" and titan.embedding_dim == 768
    assert titan.feature_folder == "slide_features_titan"


def test_encoders_every_spec_has_licence_and_gated_flag():
    from pathreport.registry import ENCODERS

    for spec in (ENCODERS[n] for n in ENCODERS.names()):
        assert spec.licence and isinstance(spec.gated, bool), spec.name


def test_encoders_spec_file_with_unknown_key_is_rejected(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(
        "name: mine\ntrident_name: mine\nembedding_dim: 8\npatch_size: 224\nembeding: 3\n"
    )
    with pytest.raises(ValueError, match="unknown key"):
        EncoderSpec.from_yaml(path)


def test_encoders_coords_folder_follows_trident_naming():
    assert coords_folder(20, 512, 0) == "20x_512px_0px_overlap"
    assert coords_folder(2.5, 256, 32) == "2.5x_256px_32px_overlap"
