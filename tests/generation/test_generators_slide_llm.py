"""slide_llm: a tiny random Llama and a tokenizer trained on synthetic training reports, offline.

The generic generator tests (``test_generators_parity.py``) already cover slide_llm at its smoke
size; these cover what is its own: its tokenizer, the three training modes, the LM's key/value
cache against recomputing every step, LoRA through a real Lightning checkpoint, a pretrained LM
from a local folder, and the prefix streams.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from pathreport.data.batch import SlideBatch
from pathreport.data.subword import SubwordTokenizer
from pathreport.data.synthetic import generate_cases
from pathreport.data.text import clean_report
from pathreport.data.tokenizer_state import tokenizer_from_state, tokenizer_state
from pathreport.generation.decoding import DecodingConfig, generate
from pathreport.generation.generator import GeneratorContext
from pathreport.generation.nn import DecoderCache
from pathreport.registry import GENERATORS
from tests.helpers.generators import one_torch_thread  # noqa: F401  (autouse fixture)

ENTRY = GENERATORS.get("slide_llm")
SlideLLM, SlideLLMConfig = ENTRY.obj, ENTRY.config
FEATURE_DIM = 10
STREAM_DIMS = {"titan": 6, "conch": 7}
TOL = {"rtol": 1e-9, "atol": 1e-10}


@pytest.fixture(scope="module")
def reports() -> list[str]:
    return [report for report, _ in generate_cases(80, seed=5)]


@pytest.fixture(scope="module")
def tokenizer(reports) -> SubwordTokenizer:
    return SlideLLM.build_tokenizer(SlideLLMConfig(), reports[:60], "reg")


def context(tokenizer: SubwordTokenizer, **extra: object) -> GeneratorContext:
    return GeneratorContext(
        vocab_size=len(tokenizer),
        feature_dim=FEATURE_DIM,
        pad_id=tokenizer.pad_id,
        bos_id=tokenizer.bos_id,
        eos_id=tokenizer.eos_id,
        unk_id=tokenizer.unk_id,
        stream_dims=dict(STREAM_DIMS),
        max_report_tokens=40,
        tokenizer=tokenizer,
        **extra,
    )


def build(
    tokenizer,
    seed: int = 0,
    dtype: torch.dtype = torch.float64,
    ctx: GeneratorContext | None = None,
    **overrides: object,
) -> SlideLLM:
    torch.manual_seed(seed)
    cfg = SlideLLMConfig(name="slide_llm", **{**ENTRY.smoke, **overrides})
    return SlideLLM(cfg, ctx or context(tokenizer)).to(dtype).eval()


def make_batch(
    tokenizer, reports, sizes=(9, 1, 14), dtype=torch.float64, seed: int = 1
) -> SlideBatch:
    g = torch.Generator().manual_seed(seed)
    b, n = len(sizes), max(sizes)
    mask = torch.arange(n)[None, :] < torch.tensor(sizes)[:, None]
    features = torch.randn(b, n, FEATURE_DIM, generator=g, dtype=dtype)
    seqs = [
        [tokenizer.bos_id, *tokenizer.encode(r, 30)[0], tokenizer.eos_id]
        for r in reports[60 : 60 + b]
    ]
    tokens = torch.full((b, max(map(len, seqs))), tokenizer.pad_id, dtype=torch.long)
    for i, seq in enumerate(seqs):
        tokens[i, : len(seq)] = torch.tensor(seq)
    streams = {
        "titan": torch.randn(b, STREAM_DIMS["titan"], generator=g, dtype=dtype),
        "conch": torch.randn(b, n, STREAM_DIMS["conch"], generator=g, dtype=dtype),
    }
    return SlideBatch(
        ids=[f"s{i}" for i in range(b)],
        features=features,
        mask=mask,
        coords=torch.zeros(b, n, 2, dtype=torch.long),
        streams=streams,
        tokens=tokens,
        references=reports[60 : 60 + b],
    )


def decode_kwargs(tokenizer) -> dict:
    return {
        "max_len": 12,
        "bos_id": tokenizer.bos_id,
        "eos_id": tokenizer.eos_id,
        "pad_id": tokenizer.pad_id,
        "unk_id": tokenizer.unk_id,
    }


class WithoutCache(torch.nn.Module):
    """The same model decoded by recomputing the whole hypothesis at every step (no LM cache): the
    hypotheses live in the decoder cache's per-row tensors, which beam search reorders."""

    def __init__(self, model: SlideLLM) -> None:
        super().__init__()
        self.model = model

    def encode(self, batch: SlideBatch) -> dict:
        return self.model.encode(batch)

    def decode(
        self, state: dict, tokens: torch.Tensor, cache: DecoderCache | None = None
    ) -> torch.Tensor:
        history = cache.append("history", tokens, dim=1)
        return self.model.decode(state, history, None)[:, -tokens.shape[1] :]


# -- tokenizer -----------------------------------------------------------------------------------
def test_slide_llm_tokenizer_is_trained_on_training_reports_and_travels_as_plain_json(
    tokenizer, reports
):
    assert (tokenizer.pad_id, tokenizer.bos_id, tokenizer.eos_id, tokenizer.unk_id) == (0, 1, 2, 3)
    for report in reports[60:70]:  # reports it was not trained on decode to their cleaned text
        ids, cut = tokenizer.encode(report)
        assert not cut and tokenizer.decode(ids) == clean_report(report, "reg")
    # the prompt was part of its training text: it costs few tokens
    assert len(tokenizer.encode_text(" What are the main observations")) <= 8
    # a character never seen in training is unknown (and never emitted: decoding suppresses <unk>)
    assert tokenizer.unk_id in tokenizer.encode("Ünïcode")[0]
    state = tokenizer_state(tokenizer)
    assert (
        json.loads(json.dumps(state)) == state
    )  # strings and numbers only: safe for weights_only loads
    assert tokenizer_from_state(state, style="reg") == tokenizer


# -- training modes ------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["full", "frozen", "lora"])
def test_slide_llm_trains_in_each_mode_exactly_the_parameters_it_should(mode, tokenizer, reports):
    overrides = {
        "full": {},
        "frozen": {"lm_frozen": True},
        "lora": {
            "lm_frozen": True,
            "adapter": "lora",
            "lora_r": 4,
            "lora_alpha": 8,
            "lora_dropout": 0.0,
        },
    }[mode]
    model = build(tokenizer, dtype=torch.float32, **overrides).train()
    batch = make_batch(tokenizer, reports, dtype=torch.float32)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    trainable = {n for n, p in model.named_parameters() if p.requires_grad}
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-3)
    losses = []
    for _ in range(8):
        loss, _ = model.loss(batch)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(float(loss))
    assert losses[-1] < losses[0]
    changed = {n for n, p in model.named_parameters() if not torch.equal(p, before[n])}
    lm = {n for n in before if n.startswith("lm.")}
    slide_side = set(before) - lm
    assert slide_side <= changed  # the slide side always learns
    if mode == "full":
        assert changed == set(before) == trainable
    elif mode == "frozen":
        assert changed == slide_side == trainable
    else:
        lora = {n for n in lm if "lora_" in n}
        assert lora and trainable == slide_side | lora and changed == slide_side | lora


def test_slide_llm_gradient_checkpointing_gives_the_same_loss_and_gradients(tokenizer, reports):
    batch = make_batch(tokenizer, reports)
    results = []
    for checkpointing in (False, True):
        model = build(tokenizer, gradient_checkpointing=checkpointing, dropout=0.0).train()
        loss, _ = model.loss(batch)
        loss.backward()
        results.append((loss.detach(), {n: p.grad for n, p in model.named_parameters()}))
    torch.testing.assert_close(results[0][0], results[1][0], **TOL)
    for name, grad in results[0][1].items():
        torch.testing.assert_close(grad, results[1][1][name], **TOL)


# -- decoding ------------------------------------------------------------------------------------
@pytest.mark.parametrize("pooling", ["mean", "attention", "resampler"])
def test_slide_llm_beam_decoding_of_a_batch_equals_each_slide_alone_and_the_no_cache_path(
    pooling, tokenizer, reports
):
    model = build(tokenizer, pooling=pooling, prefix_streams=["titan", "conch"])
    batch = make_batch(tokenizer, reports)
    cfg = DecodingConfig(beam_size=3, block_repeat=False)
    kwargs = decode_kwargs(tokenizer)
    together = generate(model, batch, cfg, **kwargs)
    alone = [generate(model, batch.select([i]), cfg, **kwargs)[0] for i in range(len(batch))]
    recomputed = generate(WithoutCache(model), batch, cfg, **kwargs)
    assert together == alone == recomputed
    assert all(len(seq) > 0 for seq in together)


def test_slide_llm_cache_keeps_the_prefix_once_per_slide_and_moves_only_generated_positions(
    tokenizer, reports
):
    model = build(tokenizer)
    batch = make_batch(tokenizer, reports)
    state = model.encode(batch)
    prefix_len = state["prefix"].shape[1]
    assert prefix_len == len(model.prompt_before) + model.cfg.num_slide_tokens + len(
        model.prompt_after
    )
    cache = DecoderCache()
    rows = 3 * len(batch)
    model.decode(state, torch.full((rows, 1), tokenizer.bos_id), cache)
    layer = cache.external["lm"].layers[0]
    assert layer.shared == prefix_len and layer.length == prefix_len + 1
    keys_before = layer.keys.clone()
    index = torch.tensor([2, 0, 0, 3, 5, 4, 8, 6, 7])  # beam selection: rows of the same slide only
    cache.reorder(index)
    torch.testing.assert_close(
        layer.keys[:, :, :prefix_len], keys_before[:, :, :prefix_len], rtol=0, atol=0
    )
    torch.testing.assert_close(
        layer.keys[:, :, prefix_len:], keys_before[index, :, prefix_len:], rtol=0, atol=0
    )


def test_slide_llm_cache_reorder_never_waits_for_an_accelerator(tokenizer, reports):
    """On an accelerator the LM cache does not read the index (that would wait for the device at
    every step) and moves every position: the same cache, since a slide's hypotheses share the
    prefix. Meta tensors stand in for the device: reading a value from one raises."""
    model = build(tokenizer)
    state = model.encode(make_batch(tokenizer, reports))
    cache = DecoderCache()
    model.decode(state, torch.full((9, 1), tokenizer.bos_id), cache)
    lm_cache = cache.external["lm"]
    index = torch.tensor([2, 0, 0, 3, 5, 4, 8, 6, 7])
    moved_everywhere = [layer.keys[index] for layer in lm_cache.layers]
    cache.reorder(index)
    for layer, expected in zip(lm_cache.layers, moved_everywhere, strict=True):
        torch.testing.assert_close(layer.keys, expected, rtol=0, atol=0)
    for layer in lm_cache.layers:
        layer.buffers = [buf.to("meta") for buf in layer.buffers]
    lm_cache.reorder(index.to("meta"))
    assert lm_cache.layers[0].keys.shape == moved_everywhere[0].shape


class TeacherOracle(torch.nn.Module):
    """A generator that has memorised its batch perfectly: at every step it scores the reference's
    next token highest (its greedy decoding is the teacher-forced argmax by construction). The
    references are per-slide state, so they follow their slides when finished slides leave the
    batch."""

    def __init__(self, tokens: torch.Tensor, vocab_size: int) -> None:
        super().__init__()
        self.tokens, self.vocab_size = tokens, vocab_size

    def encode(self, batch: SlideBatch) -> dict:
        return {"references": self.tokens}

    def decode(
        self, state: dict, tokens: torch.Tensor, cache: DecoderCache | None = None
    ) -> torch.Tensor:
        position = cache.append("history", tokens, dim=1).shape[1]
        references = state["references"]
        padded = torch.nn.functional.pad(
            references, (0, position + 1), value=self.tokens[0, -1].item()
        )
        logits = torch.zeros(tokens.shape[0], 1, self.vocab_size)
        logits.scatter_(2, padded[:, position, None, None], 30.0)
        return logits


def test_slide_llm_greedy_decoding_spells_a_memorised_report_whose_word_repeats_a_piece(tmp_path):
    """A BPE trained on six reports splits words finely ("mam|m|m|otome"): the shared decoder's
    ``block_repeat`` must not forbid the second piece, or the report drifts into another one."""
    from omegaconf import OmegaConf

    from pathreport.app.run import build_datamodule, generator_context
    from pathreport.generation.lit import ReportModule
    from tests.conftest import compose_train, smoke_overrides
    from tests.generation.test_generators_learn import HANDFUL

    cfg = compose_train([*HANDFUL, "model=slide_llm", *smoke_overrides("slide_llm")], tmp_path)
    assert cfg.decoding.block_repeat
    dm = build_datamodule(cfg, ENTRY.obj)
    dm.setup("fit")
    module = ReportModule(
        OmegaConf.to_container(cfg, resolve=True),
        tokenizer_state(dm.tokenizer),
        generator_context(cfg, dm),
    )
    batch = next(iter(dm.train_dataloader()))
    targets = batch.tokens[:, 1:]
    repeats = (targets[:, 1:] == targets[:, :-1]) & (targets[:, 1:] != dm.tokenizer.pad_id)
    assert repeats.any(), (
        "the premise: some report spells a word with the same piece twice in a row"
    )
    module.generator = TeacherOracle(batch.tokens, len(dm.tokenizer))
    with torch.no_grad():
        predictions = module.decode_batch(batch)
    assert predictions == [dm.tokenizer.decode(dm.tokenizer.encode(r)[0]) for r in batch.references]
    # a repeated word is still blocked: the exemption covers pieces inside a word only
    word_start = dm.tokenizer.encode_text(" biopsy")[0]
    assert word_start not in dm.tokenizer.word_continuation_ids()


# -- pretrained LM from a local folder -------------------------------------------------------------
def save_local_lm(folder: Path, tokenizer: SubwordTokenizer, *, with_bos: bool) -> Path:
    """A tiny random Llama and a fast tokenizer in transformers' folder layout (what a hub
    download leaves on disk). Without ``with_bos`` the tokenizer has neither start nor padding
    token (as Qwen2's has no start token)."""
    from tokenizers import Tokenizer
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    specials = {"eos_token": "<eos>", "unk_token": "<unk>"}
    if with_bos:
        specials.update(bos_token="<bos>", pad_token="<pad>")
    PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer.from_str(tokenizer.json), **specials
    ).save_pretrained(folder)
    torch.manual_seed(3)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=16,
        intermediate_size=24,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        eos_token_id=tokenizer.eos_id,
    )
    LlamaForCausalLM(config).save_pretrained(folder)
    return folder


def test_slide_llm_pretrained_lm_with_lora_checkpoints_only_what_it_trains(
    tokenizer, reports, tmp_path
):
    folder = save_local_lm(tmp_path / "lm", tokenizer, with_bos=True)
    local_tokenizer = SlideLLM.build_tokenizer(SlideLLMConfig(lm=str(folder)), [], "reg")
    assert (local_tokenizer.bos_id, local_tokenizer.eos_id) == (tokenizer.bos_id, tokenizer.eos_id)
    cfg = {"lm": str(folder), "lm_frozen": True, "adapter": "lora", "lora_r": 4, "lora_alpha": 8}
    model = build(local_tokenizer, ctx=context(local_tokenizer), **cfg)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.normal_()  # trained adapters (they start at zero)
    saved = model.state_dict()
    assert any("lora_A" in k for k in saved) and not any("base_layer" in k for k in saved)
    assert not any(k.endswith("embed_tokens.weight") for k in saved)
    restored = build(local_tokenizer, seed=9, ctx=context(local_tokenizer), **cfg)
    restored.load_state_dict(saved)  # strict: the LM's own weights come from the folder again
    batch = make_batch(local_tokenizer, reports)
    with torch.no_grad():
        torch.testing.assert_close(
            restored.decode(restored.encode(batch), batch.tokens[:, :-1]),
            model.decode(model.encode(batch), batch.tokens[:, :-1]),
            **TOL,
        )


def test_slide_llm_tokenizer_without_start_or_pad_token_gets_new_ones_and_the_lm_grows(
    tokenizer, reports, tmp_path
):
    folder = save_local_lm(tmp_path / "lm", tokenizer, with_bos=False)
    local = SlideLLM.build_tokenizer(SlideLLMConfig(lm=str(folder)), [], "reg")
    assert len(local) == len(tokenizer) + 2
    assert {local.pad_id, local.bos_id} == {len(tokenizer), len(tokenizer) + 1}
    model = build(local, ctx=context(local), lm=str(folder), lm_frozen=True)
    assert model.lm.get_input_embeddings().num_embeddings == len(local)
    batch = make_batch(local, reports)
    out = generate(model, batch, DecodingConfig(beam_size=2), **decode_kwargs(local))
    assert all(local.bos_id not in seq and local.pad_id not in seq for seq in out)
    # the grown embeddings (their new rows are random) are checkpointed; the rest is read again
    saved = model.state_dict()
    assert (
        "lm.model.embed_tokens.weight" in saved
        and "lm.model.layers.0.mlp.up_proj.weight" not in saved
    )
    restored = build(local, seed=9, ctx=context(local), lm=str(folder), lm_frozen=True)
    restored.load_state_dict(saved)
    assert generate(restored, batch, DecodingConfig(beam_size=2), **decode_kwargs(local)) == out


def test_slide_llm_unreachable_lm_names_the_setting(tmp_path):
    with pytest.raises(ValueError, match="model.lm=.*missing"):
        SlideLLM.build_tokenizer(SlideLLMConfig(lm=str(tmp_path / "missing")), [], "reg")


# -- streams and settings ------------------------------------------------------------------------
def test_slide_llm_reads_only_the_streams_it_is_configured_with():
    assert SlideLLM.input_streams(SlideLLMConfig()) == {}
    streams = SlideLLM.input_streams(SlideLLMConfig(prefix_streams=["titan", "conch"]))
    assert (streams["titan"].kind, streams["titan"].encoder) == ("slide", "titan")
    assert (streams["conch"].kind, streams["conch"].encoder) == ("patch", "conch1")


def test_slide_llm_prefix_streams_ignore_padded_patches(tokenizer, reports):
    model = build(tokenizer, prefix_streams=["titan", "conch"], pooling="attention")
    batch = make_batch(tokenizer, reports)
    other = make_batch(tokenizer, reports)
    other.features[~other.mask] = 1e3
    other.streams["conch"][~other.mask] = -7.0
    with torch.no_grad():
        a = model.decode(model.encode(batch), batch.tokens[:, :-1])
        b = model.decode(model.encode(other), other.tokens[:, :-1])
    torch.testing.assert_close(a, b, **TOL)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"adapter": "lora"}, "lm_frozen=true"),
        ({"prompt": "no placeholder"}, "<slide>"),
        ({"pooling": "max"}, "pooling"),
        ({"prefix_streams": ["gecko"]}, "prefix_streams"),
    ],
)
def test_slide_llm_config_rejects_impossible_settings_clearly(overrides, message):
    with pytest.raises(ValueError, match=message):
        SlideLLMConfig(**overrides)


# -- through train.py and a real checkpoint --------------------------------------------------------
def test_slide_llm_lora_run_restores_from_its_checkpoint_and_records_its_prompt(tiny_train):
    import yaml
    from omegaconf import OmegaConf

    from pathreport.app.run import build_datamodule
    from pathreport.data.predictions import read_predictions
    from pathreport.generation.lit import module_from_checkpoint
    from tests.conftest import smoke_overrides

    summary, out = tiny_train(
        "model=slide_llm",
        "encoder=uni2",
        *smoke_overrides("slide_llm"),
        "model.adapter=lora",
        "model.lm_frozen=true",
        "model.lora_r=4",
        "model.lora_alpha=8",
        "eval.metrics=[nlg]",
    )
    config = yaml.safe_load((out / "config.yaml").read_text())
    assert config["model"]["prompt"] == SlideLLMConfig().prompt
    assert json.loads((out / "manifest.json").read_text())["tokenizer"]["kind"] == "subword"
    ckpt = torch.load(summary["best_checkpoint"], map_location="cpu", weights_only=True)
    assert ckpt["hyper_parameters"]["vocab"]["kind"] == "subword"
    lora = {k: v for k, v in ckpt["state_dict"].items() if "lora_B" in k}
    assert lora and any(bool(v.abs().sum() > 0) for v in lora.values())  # the adapters were trained
    module = module_from_checkpoint(summary["best_checkpoint"]).eval()
    restored = module.state_dict()
    assert all(torch.equal(restored[k], v) for k, v in lora.items())
    # the checkpoint alone (its tokenizer, its config) decodes the test split to the same reports
    dm = build_datamodule(
        OmegaConf.create(module.hparams["config"]), SlideLLM, tokenizer=module.tokenizer
    )
    dm.setup("test")
    again = {}
    for batch in dm.test_dataloader():
        again.update(zip(batch.ids, module.decode_batch(batch), strict=True))
    predictions = {r.id: r.prediction for r in read_predictions(out / "predictions" / "test.jsonl")}
    assert again == predictions
