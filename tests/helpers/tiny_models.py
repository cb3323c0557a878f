"""Tiny transformers models built offline from a config, with tokenizers built by ``tokenizers``.

No weights are downloaded: every model here is created from a config in the test's temporary
folder and saved with ``save_pretrained``, so the code under test loads it exactly as it would
load a real model from a local folder.
"""

from __future__ import annotations

from pathlib import Path

CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|> {{ m['content'] }} {% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def word_tokenizer(words: list[str], *, chat: bool = False, bert: bool = False):
    """A whitespace word-level fast tokenizer over ``words`` (unknown words -> [UNK])."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    special = [
        "[PAD]",
        "[UNK]",
        "[CLS]",
        "[SEP]",
        "<|eos|>",
        "<|system|>",
        "<|user|>",
        "<|assistant|>",
    ]
    vocab = {w: i for i, w in enumerate(dict.fromkeys(special + words))}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    if bert:
        core.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]",
            special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])],
        )
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=core,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        eos_token="<|eos|>",
        model_max_length=512,
    )
    if chat:
        tokenizer.chat_template = CHAT_TEMPLATE
    return tokenizer


def tiny_bert(folder: Path, words: list[str]) -> Path:
    """A 2-layer, 16-wide BERT with random weights and a [CLS] ... [SEP] word tokenizer."""
    import torch
    from transformers import BertConfig, BertModel

    tokenizer = word_tokenizer(words, bert=True)
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=600,
    )
    BertModel(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def causal_lm(folder: Path, words: list[str], *, answer: list[str] | None = None) -> Path:
    """A 1-layer GPT-2 with a chat template; random weights, or wired to always answer ``answer``.

    Wired: attention and MLP outputs are zeroed, embeddings are one-hot and the output layer maps
    each token to the next token of ``answer`` (``<|assistant|>`` -> answer[0] -> ... -> eos), so
    greedy decoding through the real ``generate`` writes ``answer`` whatever the prompt was.
    """
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    tokenizer = word_tokenizer(words + (answer or []), chat=True)
    n = len(tokenizer)
    torch.manual_seed(0)
    config = GPT2Config(
        vocab_size=n,
        n_embd=max(32, n),
        n_layer=1,
        n_head=2,
        n_positions=4096,
        tie_word_embeddings=answer is None,
        bos_token_id=tokenizer.eos_token_id,
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    model = GPT2LMHeadModel(config)
    if answer is not None:
        ids = tokenizer.convert_tokens_to_ids(["<|assistant|>", *answer, "<|eos|>"])
        with torch.no_grad():
            for block in model.transformer.h:
                for layer in (block.attn.c_proj, block.mlp.c_proj):
                    layer.weight.zero_()
                    layer.bias.zero_()
            model.transformer.wpe.weight.zero_()
            model.transformer.wte.weight.copy_(torch.eye(n, config.n_embd))
            head = torch.zeros(n, config.n_embd)
            for here, following in zip(ids, ids[1:]):
                head[following, here] = 10.0
            model.lm_head.weight.copy_(head)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
