"""Builders shared by the PathBind tests: tiny randomly initialised VLMs (no download), fake models
with known behaviour, and generated data files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

CORPUS = [
    "You are a pathology expert. Your task is to answer a multiple-choice question step by step.",
    "Carefully observe the histological features in the provided pathology image and reason "
    "to the answer.",
    "Look at the image and locate: tumor cells in the upper left corner near the gland.",
    "Choose the best answer. Put only the letter inside <answer>...</answer>. yes no",
    "The answer is (C). A. Adenocarcinoma B. Lymphoma C. Necrosis D. Mitosis",
]


def make_tokenizer(specials: list[str], eos: str, pad: str) -> Any:
    """A fast byte-level BPE tokenizer trained on a few sentences, with the model's specials."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    from pathreport.pathbind.config import PromptConfig
    from pathreport.pathbind.prompts import system_prompt

    # the system prompts are in the corpus so that they become few tokens: short sequences,
    # fast tests
    prompts = [
        system_prompt(q, PromptConfig(variant=v))
        for q in ("mc", "yesno")
        for v in ("thinking", "plain")
    ]
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=700,
        special_tokens=specials,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator((CORPUS + prompts) * 3, trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, eos_token=eos, pad_token=pad, unk_token=specials[0]
    )


#: The language decoder of every tiny VLM: 6 layers, so the layer sets (early, mid, late) differ.
TINY_DECODER = {
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 6,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
}


def tiny_llava(seed: int = 0) -> tuple[Any, Any, Any]:
    """(model, tokenizer, image processor): CLIP 28 px / patch 7 -> 4 x 4 grid, 6 decoder layers."""
    import torch
    from transformers import (
        CLIPImageProcessorPil,
        CLIPVisionConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
    )

    tokenizer = make_tokenizer(
        ["<unk>", "<s>", "</s>", "<pad>", "<image>"], eos="</s>", pad="<pad>"
    )
    tokenizer.bos_token = "<s>"
    processor = CLIPImageProcessorPil(
        size={"shortest_edge": 28}, crop_size={"height": 28, "width": 28}
    )
    config = LlavaConfig(
        vision_config=CLIPVisionConfig(
            image_size=28,
            patch_size=7,
            hidden_size=16,
            intermediate_size=32,
            num_hidden_layers=2,
            num_attention_heads=2,
            projection_dim=16,
        ),
        text_config={
            "model_type": "llama",
            "vocab_size": len(tokenizer),
            **TINY_DECODER,
            "max_position_embeddings": 2048,
            "bos_token_id": 1,
            "eos_token_id": 2,
            "pad_token_id": 3,
        },
        image_token_id=tokenizer.convert_tokens_to_ids("<image>"),
        vision_feature_layer=-2,
        vision_feature_select_strategy="default",
    )
    torch.manual_seed(seed)
    model = LlavaForConditionalGeneration._from_config(config, attn_implementation="eager")
    model.generation_config.eos_token_id = 2
    model.generation_config.pad_token_id = 3
    return model.eval(), tokenizer, processor


QWEN_SPECIALS = [
    "<unk>",
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|vision_end|>",
    "<|image_pad|>",
    "<|video_pad|>",
]


def tiny_qwen2_vl(seed: int = 0) -> tuple[Any, Any, Any]:
    """(model, tokenizer, image processor): patch 4, merge 2 (8 px per token), 6 decoder layers."""
    import torch
    from transformers import (
        Qwen2VLConfig,
        Qwen2VLForConditionalGeneration,
        Qwen2VLImageProcessorPil,
    )

    tokenizer = make_tokenizer(QWEN_SPECIALS, eos="<|im_end|>", pad="<|endoftext|>")
    ids = {s: tokenizer.convert_tokens_to_ids(s) for s in QWEN_SPECIALS}
    processor = Qwen2VLImageProcessorPil(
        patch_size=4,
        merge_size=2,
        temporal_patch_size=2,
        size={"shortest_edge": 8 * 8, "longest_edge": 96 * 96},
    )
    config = Qwen2VLConfig(
        vision_config={
            "depth": 2,
            "embed_dim": 16,
            "hidden_size": 32,
            "num_heads": 2,
            "mlp_ratio": 2,
            "patch_size": 4,
            "spatial_merge_size": 2,
            "temporal_patch_size": 2,
            "in_chans": 3,
        },
        text_config={
            "vocab_size": len(tokenizer),
            **TINY_DECODER,
            "max_position_embeddings": 4096,
            "rope_scaling": {"type": "mrope", "mrope_section": [1, 1, 2]},
            "bos_token_id": ids["<|endoftext|>"],
            "eos_token_id": ids["<|im_end|>"],
        },
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
    )
    torch.manual_seed(seed)
    model = Qwen2VLForConditionalGeneration._from_config(config, attn_implementation="eager")
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    model.generation_config.pad_token_id = ids["<|endoftext|>"]
    return model.eval(), tokenizer, processor


def tiny_internvl(seed: int = 0) -> tuple[Any, Any, Any]:
    """(model, tokenizer, processor): 16 px tiles, patch 4, pixel shuffle -> 2 x 2 tokens/tile."""
    import torch
    from transformers import (
        GotOcr2ImageProcessorPil,
        InternVLConfig,
        InternVLForConditionalGeneration,
    )

    specials = [
        "<unk>",
        "<|endoftext|>",
        "<|im_start|>",
        "<|im_end|>",
        "<img>",
        "</img>",
        "<IMG_CONTEXT>",
    ]
    tokenizer = make_tokenizer(specials, eos="<|im_end|>", pad="<|endoftext|>")
    processor = GotOcr2ImageProcessorPil(size={"height": 16, "width": 16}, crop_to_patches=False)
    config = InternVLConfig(
        vision_config={
            "hidden_size": 16,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "intermediate_size": 32,
            "image_size": [16, 16],
            "patch_size": [4, 4],
        },
        text_config={
            "model_type": "qwen2",
            "vocab_size": len(tokenizer),
            **TINY_DECODER,
            "max_position_embeddings": 4096,
        },
        image_token_id=tokenizer.convert_tokens_to_ids("<IMG_CONTEXT>"),
        downsample_ratio=0.5,
        vision_feature_layer=-1,
    )
    torch.manual_seed(seed)
    model = InternVLForConditionalGeneration._from_config(config, attn_implementation="eager")
    return model.eval(), tokenizer, processor


def write_image(
    path: Path, size: tuple[int, int], seed: int = 0, color: tuple[int, int, int] | None = None
) -> Path:
    """A small RGB PNG: random noise, or one flat colour."""
    from PIL import Image

    path.parent.mkdir(parents=True, exist_ok=True)
    width, height = size
    if color is None:
        pixels = np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)
    else:
        pixels = np.empty((height, width, 3), dtype=np.uint8)
        pixels[:] = color
    Image.fromarray(pixels).save(path)
    return path


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def vqa_line(**fields: Any) -> dict[str, Any]:
    """A valid multiple-choice VQA line (options x, y; answer A); ``fields`` replace or add keys."""
    line = {"id": "q1", "image": "img/a.png", "question": "Which?", "options": ["x", "y"]}
    return {**line, "answer": "A", "source": "S", **fields}


def grounding_line(
    box: list[float],
    *,
    id: str = "g1",
    image: str = "img/a.png",
    expression: str = "tumour nest",
    split: str = "testA",
) -> dict[str, Any]:
    """A grounding line: one referring ``expression`` and its ``box`` on ``image``."""
    return {"id": id, "image": image, "expression": expression, "box": box, "split": split}


# -- fake models with known behaviour --------------------------------------------------------------
COLOURS = {"A": (255, 0, 0), "B": (0, 255, 0), "C": (0, 0, 255), "D": (128, 128, 128)}


def _fakes():
    """Import lazily so that importing this module does not import pathreport.pathbind."""
    from pathreport.pathbind.vlm import AttentionVLM, EntityAttention, GenerativeVLM

    class BlindVLM(GenerativeVLM):
        """Answers from the question text alone: the image can change nothing."""

        family = "fake"

        def __init__(self, name: str = "blind") -> None:
            self.name = name
            self.calls: list[tuple[str, str, Any]] = []

        def generate(self, system, user, image, decoding):
            self.calls.append((system, user, image))
            return (
                f"<think>reading the text</think><answer>{'ABCD'[sum(map(ord, user)) % 4]}</answer>"
            )

    class SeeingVLM(GenerativeVLM):
        """Reads the answer from the image colour (COLOURS); without a readable image says A."""

        family = "fake"

        def __init__(self, name: str = "seeing", base_model: str | None = None) -> None:
            self.name = name
            self.base_model = base_model

        def generate(self, system, user, image, decoding):
            if image is None:
                return "The answer is (A)."
            colour = tuple(int(v) for v in np.asarray(image)[0, 0])
            for letter, rgb in COLOURS.items():
                if colour == rgb:
                    return f"<answer>{letter}</answer>"
            return "I cannot tell from this picture."

    class BlobVLM(AttentionVLM):
        """Attention from fixed per-layer, per-token maps on a row-major grid."""

        family = "fake"

        def __init__(
            self,
            maps: np.ndarray,
            grid_shape: tuple[int, int],
            name: str = "blob",
            per_query: Any = None,
        ) -> None:
            self.name = name
            self.maps = np.asarray(maps, dtype=np.float32)
            self.grid_shape = grid_shape
            self.per_query = per_query
            self.prompts: list[tuple[str, tuple[int, int]]] = []

        def generate(self, system, user, image, decoding):
            return "<answer>A</answer>"

        def entity_attention(self, image, prompt, entity_span, system=None):
            self.prompts.append((prompt, entity_span))
            entity = prompt[entity_span[0] : entity_span[1]]
            maps = self.per_query(entity) if self.per_query is not None else self.maps
            rows, cols = self.grid_shape
            return EntityAttention(
                layer_token_maps=maps,
                token_grid=np.arange(rows * cols).reshape(rows, cols),
                view_box=(0.0, 0.0, float(image.size[0]), float(image.size[1])),
                image_size=tuple(image.size),
                entity_tokens=entity.split(),
                num_heads=1,
            )

    return BlindVLM, SeeingVLM, BlobVLM


def blind_vlm(name: str = "blind"):
    return _fakes()[0](name)


def seeing_vlm(name: str = "seeing", base_model: str | None = None):
    return _fakes()[1](name, base_model)


def blob_vlm(
    maps: np.ndarray, grid_shape: tuple[int, int], name: str = "blob", per_query: Any = None
):
    return _fakes()[2](maps, grid_shape, name, per_query)


def colour_vqa_file(
    root: Path, answers: list[tuple[str, str, str]], *, component: str | None = None
) -> Path:
    """A VQA file whose image colour shows the answer: rows of (letter, dimension, subset)."""
    rows = []
    for i, (answer, dimension, subset) in enumerate(answers):
        write_image(root / "img" / f"q{i}.png", (12, 10), color=COLOURS[answer])
        row = {
            "id": f"q{i}",
            "image": f"img/q{i}.png",
            "question": f"Question number {i}?",
            "options": {letter: f"option {letter.lower()}" for letter in "ABCD"},
            "answer": answer,
            "dimension": dimension,
            "source": subset,
        }
        if component:
            row["component"] = component
        rows.append(row)
    return write_jsonl(root / "vqa.jsonl", rows)
