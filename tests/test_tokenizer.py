"""The project's byte-level tokenizer: no files, digits as single tokens, a chat template
whose rendering is a concatenation of per-message renderings, and a save/load round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from transformers import AutoTokenizer, LlamaConfig, Qwen2Config

from policy_opt.models import default_tokenizer
from policy_opt.models.tokenizer import (
    CHAT_TEMPLATE,
    IM_END,
    IM_START,
    SPECIAL_TOKENS,
    render_message,
)

MESSAGES = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "What is 7+5?\nEnd with '#### N'."},
    {"role": "assistant", "content": "7+5=12\n#### 12"},
    {"role": "user", "content": "Wrong, try again: ünïcode ☃"},
]


_TOK = default_tokenizer()


@pytest.fixture(scope="module")
def tok():
    return _TOK


def test_special_tokens_and_ids(tok):
    assert len(tok) == 260
    assert tok.eos_token == IM_END and tok.pad_token == "<|pad|>"
    assert tok.eos_token_id != tok.pad_token_id
    for s in SPECIAL_TOKENS:
        assert tok.encode(s, add_special_tokens=False) == [tok.convert_tokens_to_ids(s)]
    assert tok.padding_side == "left"


def test_digits_are_single_tokens(tok):
    for d in "0123456789":
        assert tok.encode(d, add_special_tokens=False) == [ord(d)]
    assert tok.encode("#### 1234", add_special_tokens=False) == list(b"#### 1234")


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=40))
def test_bytes_round_trip(text):
    tok = _TOK
    ids = tok.encode(text, add_special_tokens=False)
    assert ids == list(text.encode("utf-8"))
    assert tok.decode(ids) == text


def test_chat_template_is_concatenation_of_messages(tok):
    whole = tok.apply_chat_template(MESSAGES, tokenize=False)
    assert whole == "".join(render_message(m) for m in MESSAGES)
    # Token ids too: a rollout may tokenise each new message once, as a delta.
    ids = tok.encode(whole, add_special_tokens=False)
    pieces = [tok.encode(render_message(m), add_special_tokens=False) for m in MESSAGES]
    assert ids == [t for p in pieces for t in p]


def test_generation_prompt_and_eos_ends_the_turn(tok):
    prompt = tok.apply_chat_template(MESSAGES[:2], tokenize=False, add_generation_prompt=True)
    assert prompt.endswith(f"{IM_START}assistant\n")
    # The model's completion + EOS, then the next user message, equals the full rendering.
    completion = MESSAGES[2]["content"] + tok.eos_token
    assert prompt + completion + render_message(MESSAGES[3]) == tok.apply_chat_template(
        MESSAGES, tokenize=False
    )


def test_role_markers_are_single_tokens(tok):
    ids = tok.encode(render_message({"role": "user", "content": "x"}), add_special_tokens=False)
    assert ids[0] == tok.convert_tokens_to_ids(IM_START)
    assert ids[-1] == tok.eos_token_id


@pytest.mark.parametrize("config_cls", [LlamaConfig, Qwen2Config])
def test_save_and_autotokenizer_round_trip(tok, tmp_path, config_cls):
    # Saved next to a model config, AutoTokenizer must come back with the same vocabulary.
    tok.save_pretrained(tmp_path)
    config_cls(vocab_size=len(tok)).save_pretrained(tmp_path)
    back = AutoTokenizer.from_pretrained(tmp_path)
    text = "What is 3+4? ☃ <|im_end|>"
    assert len(back) == len(tok)
    assert back.encode(text, add_special_tokens=False) == tok.encode(text, add_special_tokens=False)
    assert back.eos_token_id == tok.eos_token_id and back.pad_token_id == tok.pad_token_id
    assert back.chat_template == CHAT_TEMPLATE
    assert back.apply_chat_template(MESSAGES, tokenize=False, add_generation_prompt=True) == (
        tok.apply_chat_template(MESSAGES, tokenize=False, add_generation_prompt=True)
    )


def test_the_shipped_template_is_the_code_template():
    """A rebuild of the default model writes CHAT_TEMPLATE; the shipped file must already be
    it (a tools section added to one and not the other would vanish on the next rebuild)."""
    from policy_opt.models.default import SHIPPED_DIR

    assert (SHIPPED_DIR / "chat_template.jinja").read_text() == CHAT_TEMPLATE
