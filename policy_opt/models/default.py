"""The offline default model's definition: its byte-level tokenizer, its Llama architecture,
the shipped weights' folder and the cache where rebuilt ones live. No loading here
(:mod:`policy_opt.models.loading`), no recipe (:mod:`policy_opt.models.warm_start`).

Example:
    >>> tok = default_tokenizer()
    >>> tok.eos_token, len(tok)
    ('<|im_end|>', 260)
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from transformers import LlamaConfig, PreTrainedTokenizerBase

from policy_opt.models.tokenizer import byte_tokenizer

DEFAULT_NAME = "default"


def default_tokenizer() -> PreTrainedTokenizerBase:
    """The project's own tokenizer: byte-level, no files, with a chat template.

    See :mod:`policy_opt.models.tokenizer` for the token table and the template.

    Example:
        >>> tok = default_tokenizer()
        >>> tok.apply_chat_template([{"role": "user", "content": "2+2"}], tokenize=False)
        '<|im_start|>user\\n2+2<|im_end|>'
    """
    return byte_tokenizer()


def default_config(
    *,
    hidden_size: int = 192,
    num_hidden_layers: int = 4,
    num_attention_heads: int = 6,
    intermediate_size: int = 768,
    max_position_embeddings: int = 1024,
) -> LlamaConfig:
    """The default model's architecture: a Llama with tied embeddings, ~2.4M parameters.

    The size was chosen for training on a CPU (a training step of 64 x 128 tokens takes about
    a second or two on two cores); pass smaller values for tests.

    Example:
        >>> cfg = default_config(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        ...                      intermediate_size=64)
        >>> cfg.model_type, cfg.vocab_size, cfg.eos_token_id
        ('llama', 260, 259)
    """
    tok = byte_tokenizer()
    return LlamaConfig(
        vocab_size=len(tok),
        hidden_size=hidden_size,
        num_hidden_layers=num_hidden_layers,
        num_attention_heads=num_attention_heads,
        num_key_value_heads=num_attention_heads,
        intermediate_size=intermediate_size,
        max_position_embeddings=max_position_embeddings,
        tie_word_embeddings=True,
        rms_norm_eps=1e-5,
        rope_theta=10000.0,
        initializer_range=0.02,
        bos_token_id=None,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
    )


# The default recipe's output ships with the package (9.6 MB of fp32 safetensors), so the
# main job starts at once on a fresh machine instead of spending minutes on the warm start.
# It is used only while its recipe hash equals the current recipe's (a test checks this);
# after a recipe change, rebuild it: `python -m policy_opt.pretrain --out policy_opt/default_model`.
SHIPPED_DIR = Path(__file__).resolve().parent.parent / "default_model"


def shipped_recipe_hash() -> str | None:
    """The recipe hash of the shipped default model, or None when none is shipped."""
    meta = SHIPPED_DIR / "recipe.json"
    if not meta.is_file() or not (SHIPPED_DIR / "model.safetensors").is_file():
        return None
    return json.loads(meta.read_text()).get("recipe_hash")


def cache_root() -> Path:
    """Where built default models live: ``$RLVR_CACHE`` or ``~/.cache/rlvr``."""
    env = os.environ.get("RLVR_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "rlvr"
