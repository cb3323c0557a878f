"""Every registered trainable generator, at its smoke size, in float64: batching, masking, caching
and seeding must not change what a slide gets.

These are the properties the shared decoder and the batched trainer rely on; a generator file added
to ``models/`` is tested here without new test code.
"""

from __future__ import annotations

import pytest
import torch

from pathreport.generation.decoding import DecodingConfig, generate
from pathreport.generation.generator import R2GenGenerator, token_cross_entropy
from pathreport.generation.nn import DecoderCache
from tests.helpers.generators import (
    PAD,
    SPECIAL_IDS,
    build,
    make_batch,
    one_torch_thread,  # noqa: F401  (autouse fixture)
    single,
    trainable_entries,
)

ENTRIES = trainable_entries()
IDS = [e.name for e in ENTRIES]
TOL = {"rtol": 1e-9, "atol": 1e-10}


def test_generators_registry_has_the_four_paper_generators():
    assert {"migen", "histgen", "bigen", "scout"} <= set(IDS)


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_generator_batched_forward_and_loss_equal_per_slide(entry, tmp_path):
    model = build(entry, tmp_path)
    batch = make_batch(entry)
    with torch.no_grad():
        logits = model.decode(model.encode(batch), batch.tokens[:, :-1])
        loss, _ = model.loss(batch)
        per_slide_losses, weights = [], []
        for i in range(len(batch)):
            one = single(batch, i)
            alone = model.decode(model.encode(one), one.tokens[:, :-1])
            t = alone.shape[1]
            torch.testing.assert_close(logits[i, :t], alone[0], **TOL)
            per_slide_losses.append(model.loss(one)[0])
            weights.append(int((one.tokens[:, 1:] != PAD).sum()))
    # Every term of the loss is a mean over real target tokens, so the batch loss is the
    # token-weighted mean of the slides' losses.
    expected = sum(w * v for w, v in zip(weights, per_slide_losses, strict=True)) / sum(weights)
    torch.testing.assert_close(loss, expected, **TOL)


@pytest.mark.parametrize("beam", [1, 3])
@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_generator_decoding_a_batch_equals_decoding_each_slide(entry, beam, tmp_path):
    model = build(entry, tmp_path)
    batch = make_batch(entry)
    cfg = DecodingConfig(beam_size=beam)
    kwargs = {"max_len": 10, **SPECIAL_IDS}
    together = generate(model, batch, cfg, **kwargs)
    alone = [generate(model, single(batch, i), cfg, **kwargs)[0] for i in range(len(batch))]
    assert together == alone
    assert all(len(seq) > 0 for seq in together)


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_generator_cached_decoding_matches_teacher_forcing(entry, tmp_path):
    """Cached step-by-step decoding, two hypotheses per slide, gives the teacher-forced logits."""
    model = build(entry, tmp_path)
    batch = make_batch(entry)
    tokens = batch.tokens[:, :-1].repeat_interleave(2, dim=0)  # R = B x 2 rows, slide-major
    with torch.no_grad():
        state = model.encode(batch)
        full = model.decode(state, tokens)
        cache = DecoderCache()
        steps = [model.decode(state, tokens[:, t : t + 1], cache) for t in range(tokens.shape[1])]
    torch.testing.assert_close(torch.cat(steps, dim=1), full, **TOL)


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_generator_ignores_padded_patches(entry, tmp_path):
    model = build(entry, tmp_path)
    batch = make_batch(entry)
    other = make_batch(entry)
    pad = ~other.mask
    other.features[pad] = 1e3 * torch.randn_like(other.features[pad])
    for stream in other.streams.values():
        if stream.dim() == 3:
            stream[pad] = -7.0
    with torch.no_grad():
        a = model.decode(model.encode(batch), batch.tokens[:, :-1])
        b = model.decode(model.encode(other), other.tokens[:, :-1])
    torch.testing.assert_close(a, b, **TOL)


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_generator_seeded_build_and_training_step_are_deterministic(entry, tmp_path):
    def run(seed: int):
        model = build(entry, tmp_path, seed=seed).train()  # dropout on
        torch.manual_seed(123)
        loss, _ = model.loss(make_batch(entry))
        loss.backward()
        grads = [p.grad.clone() for p in model.parameters() if p.grad is not None]
        return model.state_dict(), loss.detach(), grads

    s1, l1, g1 = run(0)
    s2, l2, g2 = run(0)
    assert s1.keys() == s2.keys()
    assert all(torch.equal(s1[k], s2[k]) for k in s1)
    assert torch.equal(l1, l2)
    assert len(g1) == len(g2) and all(torch.equal(a, b) for a, b in zip(g1, g2, strict=True))
    s3, _, _ = run(1)
    assert any(not torch.equal(s1[k], s3[k]) for k in s1 if s1[k].is_floating_point())


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_generator_every_parameter_learns(entry, tmp_path):
    """No parameter is dead: one teacher-forced loss gives every parameter a non-zero gradient
    (this is what the reference's BiGen retrieval projection and unused modules failed)."""
    model = build(entry, tmp_path)
    loss, _ = model.loss(make_batch(entry))
    loss.backward()
    dead = [
        n for n, p in model.named_parameters() if p.grad is None or not bool(p.grad.abs().sum() > 0)
    ]
    assert dead == []


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_generator_loss_is_token_cross_entropy_plus_declared_terms(entry, tmp_path):
    model = build(entry, tmp_path)
    batch = make_batch(entry)
    with torch.no_grad():
        loss, parts = model.loss(batch)
        logits = model.decode(model.encode(batch), batch.tokens[:, :-1])
    nll = token_cross_entropy(logits, batch.tokens[:, 1:], PAD)
    torch.testing.assert_close(parts["nll"], nll, **TOL)
    assert torch.isfinite(loss) and loss.dim() == 0


R2GEN = [e for e in ENTRIES if issubclass(e.obj, R2GenGenerator)]


def test_r2gen_family_shares_one_trunk():
    assert {"migen", "histgen", "bigen"} <= {e.name for e in R2GEN}


@pytest.mark.parametrize("entry", R2GEN, ids=[e.name for e in R2GEN])
def test_r2gen_trunk_keeps_the_state_dict_keys_of_saved_checkpoints(entry, tmp_path):
    """Checkpoints store the trunk's modules under these names; renaming one would orphan them."""
    model = build(entry, tmp_path)
    keys = set(model.state_dict())
    trunk = {
        "wsi_mapping.weight",
        "wsi_mapping.bias",
        "att_embed.0.weight",
        "att_embed.0.bias",
        "decoder.embed.weight",
        "decoder.layers.0.cross_attn.q_proj.weight",
        "decoder.norm.weight",
        "decoder.logit.weight",
    }
    assert trunk <= keys
    assert ("prompt" in keys) == (model.prompt is not None)
    assert model.decoder.positions.table.shape[0] == model.ctx.max_positions
