"""The project's own byte-level tokenizer: built in memory, no file, no download.

Every UTF-8 byte is one token (so every digit is a single token, which is what a tiny
arithmetic model needs), plus four special tokens that are never split:

========================  ===  ==================================================
token                     id   use
========================  ===  ==================================================
``<|endoftext|>``         256  end of a document (pre-training text)
``<|pad|>``               257  padding
``<|im_start|>``          258  opens a chat message (followed by ``role\\n``)
``<|im_end|>``            259  closes a chat message; the EOS of a sampled turn
========================  ===  ==================================================

The chat template renders a message as ``<|im_start|>{role}\\n{content}<|im_end|>`` with no
separator, no BOS and no default system message, so the rendering of a conversation is the
plain concatenation of the renderings of its messages, and a generation prompt is
``<|im_start|>assistant\\n``. Because tokens are bytes, the token ids of a concatenation are
the concatenation of the token ids too: a multi-turn rollout can tokenise each new env
message once, as a delta, and append it after the ids the model sampled (which end at
``<|im_end|>``).

Example:
    >>> tok = byte_tokenizer()
    >>> tok.apply_chat_template([{"role": "user", "content": "1+2?"}],
    ...                         tokenize=False, add_generation_prompt=True)
    '<|im_start|>user\\n1+2?<|im_end|><|im_start|>assistant\\n'
    >>> tok.convert_ids_to_tokens(tok.encode("12", add_special_tokens=False))
    ['1', '2']
"""

from __future__ import annotations

from tokenizers import Tokenizer, decoders, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

EOT = "<|endoftext|>"
PAD = "<|pad|>"
IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
SPECIAL_TOKENS = (EOT, PAD, IM_START, IM_END)

# One message renders to exactly this, whatever comes before or after it (the concatenation
# property above). `add_generation_prompt` appends the opening of an assistant message. With
# `tools=` (JSON schemas), a system message lists them in the Hermes/Qwen form and assistant
# `tool_calls` render as `<tool_call>{json}</tool_call>`; without tools the output is the
# same bytes the shipped model was trained on (tests/test_tool_env.py checks it).
CHAT_TEMPLATE = (
    "{%- if tools %}{{ '<|im_start|>system\\n' }}"
    "{% if messages and messages[0]['role'] == 'system' %}{{ messages[0]['content'] +"
    " '\\n\\n' }}"
    "{% endif %}{{ '# Tools\\n\\nYou may call one or more functions to assist with the "
    'user query.\\n\\nYou are provided with function signatures within <tools></tools> '
    "XML tags:\\n<tools>' }}"
    "{% for tool in tools %}{{ '\\n' }}{{ tool | tojson }}"
    "{% endfor %}{{ '\\n</tools>\\n\\nFor each function call, return a json object with "
    'function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call'
    '>\\n{"name": <function-name>, "arguments": <args-json-object>}\\n</tool_call><|im_'
    "end|>' }}"
    '{% endif %}'
    '{% for message in messages %}'
    "{% if not (tools and loop.first and message['role'] == 'system') %}{{ '<|im_star"
    "t|>' + message['role'] + '\n' + message['content'] }}"
    "{% if message['tool_calls'] is defined and message['tool_calls'] %}"
    "{% for call in message['tool_calls'] %}"
    "{% set f = call['function'] if call['function'] is defined else call %}"
    "{% if message['content'] or not loop.first %}{{ '\\n' }}"
    '{% endif %}{{ \'<tool_call>\\n{"name": "\' + f[\'name\'] + \'", "arguments": \' }}'
    "{% if f['arguments'] is string %}{{ f['arguments'] }}"
    "{% else %}{{ f['arguments'] | tojson }}"
    "{% endif %}{{ '}\\n</tool_call>' }}"
    '{% endfor %}'
    "{% endif %}{{ '<|im_end|>' }}"
    '{% endif %}'
    '{% endfor %}'
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}"
    '{% endif %}'
)


def render_message(message: dict) -> str:
    """The template's rendering of one message, as a string (no tokenizer needed).

    Example:
        >>> render_message({"role": "user", "content": "hi"})
        '<|im_start|>user\\nhi<|im_end|>'
    """
    return f"{IM_START}{message['role']}\n{message['content']}{IM_END}"


def byte_tokenizer() -> PreTrainedTokenizerFast:
    """Build the byte-level tokenizer (vocabulary 260: 256 bytes + 4 special tokens).

    ``eos_token`` is ``<|im_end|>`` (a sampled assistant turn ends there), ``pad_token`` is
    ``<|pad|>``, ``padding_side`` is ``"left"`` (generation pads prompts on the left).

    Example:
        >>> tok = byte_tokenizer()
        >>> (len(tok), tok.eos_token, tok.eos_token_id, tok.pad_token_id)
        (260, '<|im_end|>', 259, 257)
    """
    # GPT-2's byte-to-unicode alphabet, in byte order, so that token id == byte value.
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    byte_chars = sorted(alphabet, key=_byte_of_char)
    vocab = {ch: i for i, ch in enumerate(byte_chars)}
    # BPE with no merges is a pure byte model; the ByteLevel pre-tokenizer maps bytes to the
    # alphabet above and the ByteLevel decoder maps them back.
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[], fuse_unk=False))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(list(SPECIAL_TOKENS))
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token=IM_END,
        pad_token=PAD,
        bos_token=None,
        unk_token=None,
        padding_side="left",
        chat_template=CHAT_TEMPLATE,
        model_max_length=4096,
        clean_up_tokenization_spaces=False,
    )


def _byte_of_char(ch: str) -> int:
    # Inverse of GPT-2's bytes_to_unicode: printable bytes map to themselves, the other 68
    # bytes to code points 256.. in byte order.
    printable = (
        list(range(ord("!"), ord("~") + 1))
        + list(range(ord("¡"), ord("¬") + 1))
        + list(range(ord("®"), ord("ÿ") + 1))
    )
    code = ord(ch)
    if code in printable:
        return code
    others = [b for b in range(256) if b not in printable]
    return others[code - 256]
