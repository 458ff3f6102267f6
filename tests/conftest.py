"""Fixtures shared by the trainer tests."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    """A 2-layer Llama with the project tokenizer, saved like any local checkpoint."""
    from transformers import LlamaForCausalLM

    from policy_opt.models import default_config, default_tokenizer

    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("tiny")
    cfg = default_config(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                         intermediate_size=64)
    LlamaForCausalLM(cfg).save_pretrained(path)
    default_tokenizer().save_pretrained(path)
    return path
