"""The shared decoder gives exactly the answers of a plain beam search.

The reference below is the decoder before its cache became preallocated and before finished slides
left the batch: every slide stays until the whole batch is settled, and no cache is used (the whole
prefix is recomputed at every step). The decoder under test must pick the same tokens for every
generator, beam size and stopping situation, while showing that finished slides stop costing steps.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import tests.helpers.generators as fixtures
from pathreport.generation import decoding
from pathreport.generation.decoding import DecodingConfig, _constrain, _length_norm, generate
from pathreport.generation.nn import DecoderCache
from tests.helpers.generators import one_torch_thread  # noqa: F401  (autouse fixture)

ENTRIES = fixtures.trainable_entries()
EOS = fixtures.EOS
IDS = [e.name for e in ENTRIES]
KWARGS = fixtures.SPECIAL_IDS


@torch.no_grad()
def reference_generate(
    model: nn.Module,
    batch,
    cfg: DecodingConfig,
    *,
    max_len: int,
    bos_id: int,
    eos_id: int,
    pad_id: int,
    unk_id: int | None = None,
) -> list[list[int]]:
    """Beam search over the whole batch until every slide is settled, recomputing every prefix."""
    state = model.encode(batch)
    b, k = len(batch), cfg.beam_size
    rows = b * k
    history = torch.full((rows, 1), bos_id, dtype=torch.long)
    scores = torch.zeros(b, k)
    scores[:, 1:] = float("-inf")
    ended = torch.zeros(b, k, dtype=torch.bool)
    lengths = torch.zeros(b, k, dtype=torch.long)
    for step in range(max_len + 1):
        logits = model.decode(state, history)[:, -1].float()
        logp = F.log_softmax(logits / cfg.temperature, dim=-1)
        vocab = logp.shape[-1]
        _constrain(
            logp,
            history,
            step,
            cfg,
            bos_id=bos_id,
            eos_id=eos_id,
            pad_id=pad_id,
            unk_id=unk_id,
            force_eos=step == max_len,
        )
        flat_ended = ended.view(rows)
        logp[flat_ended] = float("-inf")
        logp[flat_ended, pad_id] = 0.0
        candidates = (scores.unsqueeze(-1) + logp.view(b, k, vocab)).view(b, k * vocab)
        scores, flat_index = candidates.topk(k, dim=-1)
        beam_index = flat_index // vocab
        tokens = flat_index % vocab
        row_index = (beam_index + torch.arange(b).unsqueeze(1) * k).view(rows)
        history = torch.cat([history[row_index], tokens.view(rows, 1)], dim=1)
        was_ended = ended.gather(1, beam_index)
        lengths = lengths.gather(1, beam_index) + (~was_ended).long()
        ended = was_ended | (tokens == eos_id)
        if ended.all():
            break
        if cfg.length_penalty == 0:
            best_ended = torch.where(ended, scores, float("-inf")).max(-1).values
            best_live = torch.where(ended, float("-inf"), scores).max(-1).values
            if (best_ended >= best_live).all():
                break
    best = (scores / _length_norm(lengths, cfg.length_penalty)).argmax(-1)
    out = []
    for row in (best + torch.arange(b) * k).tolist():
        seq = []
        for tok in history[row, 1:].tolist():
            if tok in (eos_id, pad_id):
                break
            seq.append(tok)
        out.append(seq)
    return out


class EndsAtItsOwnPace(nn.Module):
    """A generator whose ``<eos>`` logit grows (or, at a negative rate, falls) with the position at
    a rate of its slide's own, so that the slides of one batch finish at different steps; it records
    the rows of every step."""

    def __init__(self, model: nn.Module, rates: list[float]) -> None:
        super().__init__()
        self.model, self.rates, self.rows = model, rates, []

    def encode(self, batch):
        return {
            **self.model.encode(batch),
            "eos_rate": torch.tensor(self.rates, dtype=torch.float64),
        }

    def decode(self, state, tokens, cache: DecoderCache | None = None):
        inner = {key: value for key, value in state.items() if key != "eos_rate"}
        logits = self.model.decode(inner, tokens, cache).clone()
        self.rows.append(tokens.shape[0])
        # the position of each new token: the cache's own history, or the prefix without a cache
        position = (
            cache.append("positions", tokens, dim=1).shape[1]
            if cache is not None
            else tokens.shape[1]
        )
        per_row = state["eos_rate"].repeat_interleave(tokens.shape[0] // state["eos_rate"].shape[0])
        first = position - tokens.shape[1] + 1
        steps = torch.arange(first, position + 1, dtype=logits.dtype)
        logits[:, :, EOS] += per_row[:, None].to(logits.dtype) * steps
        return logits


@pytest.mark.parametrize("beam", [1, 3])
@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_decoder_equals_the_plain_beam_search_when_slides_finish_at_different_steps(
    entry, beam, tmp_path
):
    model = EndsAtItsOwnPace(fixtures.build(entry, tmp_path), rates=[3.0, -5.0, 0.8])
    batch = fixtures.make_batch(entry)
    cfg = DecodingConfig(beam_size=beam)
    fast = generate(model, batch, cfg, max_len=12, **KWARGS)
    steps_rows = list(model.rows)
    assert fast == reference_generate(model, batch, cfg, max_len=12, **KWARGS)
    assert len({len(seq) for seq in fast}) > 1, "the premise: slides end at different lengths"
    assert len(fast[1]) == 12
    # a slide whose answer is settled stops costing a step
    assert steps_rows[0] == 3 * beam and steps_rows[-1] == beam


class Toy(nn.Module):
    """A small real decoder over projected patch memory (random weights, float64)."""

    def __init__(self, vocab: int = 12) -> None:
        super().__init__()
        from pathreport.generation.nn import TextDecoder

        self.proj = nn.Linear(6, 16)
        self.decoder = TextDecoder(vocab, 16, 2, 32, 2, dropout=0.0, max_len=64)

    def encode(self, batch):
        return {"memory": self.proj(batch.features), "mask": batch.mask}

    def decode(self, state, tokens, cache=None):
        return self.decoder(tokens, state["memory"], state["mask"], cache)


def _toy_batch(sizes: list[int], seed: int):
    from pathreport.data.batch import SlideBatch

    g = torch.Generator().manual_seed(seed)
    n = max(sizes)
    mask = torch.arange(n)[None, :] < torch.tensor(sizes)[:, None]
    features = torch.randn(len(sizes), n, 6, generator=g, dtype=torch.float64) * mask[..., None]
    return SlideBatch(
        ids=[str(i) for i in range(len(sizes))],
        features=features,
        mask=mask,
        coords=torch.zeros(len(sizes), n, 2, dtype=torch.long),
    )


SITUATIONS = {
    "greedy": {"beam_size": 1},
    "beam 2": {"beam_size": 2},
    "beam 5, no repeat blocking": {"beam_size": 5, "block_repeat": False},
    "length penalty (stops only when every beam has ended)": {
        "beam_size": 3,
        "length_penalty": 0.6,
    },
    "trigram blocking": {"beam_size": 3, "block_trigrams": True, "block_repeat": False},
    "min_len and temperature": {"beam_size": 4, "min_len": 5, "temperature": 0.7},
}


@pytest.mark.parametrize("settings", list(SITUATIONS.values()), ids=list(SITUATIONS))
def test_decoder_equals_the_plain_beam_search_across_settings(settings):
    torch.manual_seed(3)
    model = EndsAtItsOwnPace(Toy().double().eval(), rates=[-5.0, 0.3, 0.1, 2.0, 0.2])
    batch = _toy_batch([5, 2, 9, 1, 4], seed=4)
    cfg = DecodingConfig(**settings)
    for max_len in (1, 7, 25):
        fast = generate(model, batch, cfg, max_len=max_len, **KWARGS)
        assert fast == reference_generate(model, batch, cfg, max_len=max_len, **KWARGS), max_len
    assert len({len(seq) for seq in fast}) > 2, "the premise: slides end at different lengths"


def test_decoder_names_a_state_tensor_that_is_not_per_slide_when_a_slide_leaves_the_batch():
    class WithTable(EndsAtItsOwnPace):
        def encode(self, batch):
            return {**super().encode(batch), "table": torch.zeros(7, 2)}  # not one row per slide

    model = WithTable(Toy().double().eval(), rates=[4.0, -5.0])
    with pytest.raises(
        ValueError, match=r"state\['table'\].*one row per slide of the batch \(2\), found shape"
    ):
        generate(
            model, _toy_batch([3, 4], seed=1), DecodingConfig(beam_size=2), max_len=10, **KWARGS
        )


@pytest.mark.parametrize("every", [3, 8])
@pytest.mark.parametrize(
    "settings",
    [SITUATIONS["greedy"], SITUATIONS["min_len and temperature"]],
    ids=["greedy", "beam 4"],
)
def test_decoder_that_looks_at_settled_slides_every_few_steps_gives_the_same_answers(
    settings, every, monkeypatch
):
    """What an accelerator does (the flags are read every few steps; settled slides are frozen in
    between), run here on the CPU."""
    monkeypatch.setitem(decoding.SETTLED_CHECK_EVERY, "cpu", every)
    torch.manual_seed(3)
    model = EndsAtItsOwnPace(Toy().double().eval(), rates=[-5.0, 0.3, 0.1, 2.0, 0.2])
    batch = _toy_batch([5, 2, 9, 1, 4], seed=4)
    cfg = DecodingConfig(**settings)
    fast = generate(model, batch, cfg, max_len=25, **KWARGS)
    assert fast == reference_generate(model, batch, cfg, max_len=25, **KWARGS)
    assert 5 * cfg.beam_size in model.rows and cfg.beam_size in model.rows  # frozen, then compacted
