"""Token-by-token decoding of Llama-family models over a preallocated key/value cache.

``TransformersEngine`` samples one token per step for the whole batch. Through
``model.forward`` with a ``DynamicCache`` a step of the 2.4M-parameter default model costs
~17 ms on one CPU core, and the arithmetic is a third of it: every step the cache
concatenates each layer's keys and values into new tensors (over half of the time) and
builds an attention mask, and CPU ``scaled_dot_product_attention`` is slow for a query of
length one. :class:`KVDecoder` runs the same modules (the model's own ``q_proj``,
``mlp``, norms, rotary embedding, so the weights are always the trainer's live ones) but
writes each new key/value into a buffer in place and attends with two batched matmuls.
``python benchmarks/rollout.py`` measures the step against ``model.generate``.

Layout (B rows, K key/value heads, R = query heads per key/value head, D head dim,
T = filled columns, C >= T the buffer's capacity)::

    keys[layer], values[layer]: [B, K, C, D]    column j holds position j of the
                                                left-padded row (prompt, then generated)
    bias:                       [B, C]          0 on real tokens, -inf on left padding
    query of one step:          [B, K, R, D]    grouped like HF's repeat_kv (head h reads
                                                key/value head h // R)
    scores = q @ keys[:, :, :T]^T * D^-1/2 + bias    -> softmax (fp32) -> @ values[:, :, :T]

Which models: ``model_type`` llama, mistral, qwen2 or qwen3 whose every layer attends to the
full context (no sliding window, no other layer kinds), eager/sdpa semantics, no attention
softcapping; :func:`supports` says so and the engine falls back to ``model.forward``
otherwise. Tests check the log-probs against a full forward pass on each of the four.
"""

from __future__ import annotations

from typing import Any

import torch

SUPPORTED_MODEL_TYPES = frozenset({"llama", "mistral", "qwen2", "qwen3"})


def supports(model: Any, total_length: int) -> bool:
    """Whether :class:`KVDecoder` computes exactly what ``model.forward`` does for sequences
    of up to ``total_length`` tokens."""
    cfg = getattr(model, "config", None)
    if cfg is None or getattr(cfg, "model_type", None) not in SUPPORTED_MODEL_TYPES:
        return False
    inner = getattr(model, "model", None)
    if inner is None or not all(hasattr(inner, a) for a in ("embed_tokens", "layers", "norm",
                                                             "rotary_emb")):
        return False
    layer_types = getattr(cfg, "layer_types", None) or ()
    if any(t != "full_attention" for t in layer_types):
        return False
    window = getattr(cfg, "sliding_window", None)
    if getattr(cfg, "use_sliding_window", True) and window is not None and total_length > window:
        return False
    return getattr(cfg, "attn_logit_softcapping", None) is None


class KVDecoder:
    """Decode state for one batch whose rows may share prompts; call :meth:`step` per token.

    Args:
        model: the causal LM (see :func:`supports`); call under ``torch.inference_mode``.
        prompt_keys, prompt_values: per layer, ``[U, K, P, D]``: the keys/values of the U
            distinct left-padded prompts (a ``DynamicCache``'s ``layers[i].keys`` after the
            prefill). They are used in place, never copied per row.
        prompt_mask: ``[U, P]``, 1 on real prompt tokens.
        owner: ``[B]``, the prompt of each row.
        capacity: generated columns to allocate at first (grown by doubling when full).
    """

    def __init__(self, model: Any, prompt_keys: list[torch.Tensor],
                 prompt_values: list[torch.Tensor], prompt_mask: torch.Tensor,
                 owner: torch.Tensor, capacity: int):
        self.model = model
        self.prompt_keys, self.prompt_values = prompt_keys, prompt_values
        u, k, _, d = prompt_keys[0].shape
        b = len(owner)
        # Each row gets a slot in a [U, S] grid (S = most rows per prompt), so the attention
        # to the shared prompt is one batched matmul per prompt over its rows.
        self.n_prompts = u
        counts = torch.bincount(owner, minlength=u)
        self.per_prompt = int(counts.max())
        seen = [0] * u
        rank = []
        for o in owner.tolist():
            rank.append(seen[o])
            seen[o] += 1
        self.slot = owner * self.per_prompt + torch.tensor(rank, device=owner.device)
        self._check_identity()
        self.prompt_bias = torch.zeros(prompt_mask.shape, dtype=torch.float32,
                                       device=prompt_mask.device)
        self.prompt_bias.masked_fill_(prompt_mask == 0, float("-inf"))
        cap = max(1, capacity)
        self.keys = [prompt_keys[0].new_empty((b, k, cap, d)) for _ in prompt_keys]
        self.values = [prompt_keys[0].new_empty((b, k, cap, d)) for _ in prompt_keys]
        self.length = 0  # generated columns filled

    def _check_identity(self) -> None:
        # Row i in slot i (every prompt has S rows, in order): the grid is a plain view.
        n = self.n_prompts * self.per_prompt
        self.identity = len(self.slot) == n and bool(
            torch.equal(self.slot, torch.arange(n, device=self.slot.device)))

    def select(self, rows: torch.Tensor) -> None:
        """Keep only ``rows`` (a 1-D index tensor) of the batch, in that order."""
        self.slot = self.slot[rows]
        self._check_identity()
        self.keys = [t.index_select(0, rows) for t in self.keys]
        self.values = [t.index_select(0, rows) for t in self.values]

    def _grow(self) -> None:
        def doubled(t: torch.Tensor) -> torch.Tensor:
            out = t.new_empty((*t.shape[:2], 2 * t.shape[2], t.shape[3]))
            out[:, :, : t.shape[2]] = t
            return out

        self.keys = [doubled(t) for t in self.keys]
        self.values = [doubled(t) for t in self.values]

    def _to_grid(self, x: torch.Tensor) -> torch.Tensor:
        """[B, K, R, X] per row -> [U, K, S*R, X] per prompt (empty slots are 0)."""
        b, k, r, n = x.shape
        u = self.prompt_bias.shape[0]
        grid = x if self.identity else (
            x.new_zeros((u * self.per_prompt, k, r, n)).index_copy_(0, self.slot, x))
        return grid.view(u, self.per_prompt, k, r, n).transpose(1, 2).reshape(u, k, -1, n)

    def _from_grid(self, x: torch.Tensor, r: int) -> torch.Tensor:
        """[U, K, S*R, X] per prompt -> [B, K, R, X] per row."""
        u, k, _, n = x.shape
        x = x.view(u, k, self.per_prompt, r, n).transpose(1, 2).reshape(-1, k, r, n)
        return x if self.identity else x.index_select(0, self.slot)

    def step(self, tokens: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        """Append one token per row (``tokens``, ``positions``: ``[B]``); return the next
        token's logits ``[B, V]``."""
        if self.length == self.keys[0].shape[2]:
            self._grow()
        t = self.length
        inner = self.model.model
        x = inner.embed_tokens(tokens[:, None])  # [B, 1, H]
        cos, sin = inner.rotary_emb(x, positions[:, None])  # [B, 1, D]
        cos, sin = cos[:, None], sin[:, None]  # [B, 1, 1, D], broadcast over heads
        half = cos.shape[-1] // 2
        # rotate_half(x) * sin == roll(x, half) * [-sin_1, sin_2]: 4 ops a rotation, not 7.
        sin = torch.cat((-sin[..., :half], sin[..., half:]), dim=-1)
        bias = self.prompt_bias[:, None, None, :]  # [U, 1, 1, P]
        p = self.prompt_bias.shape[1]
        b = tokens.shape[0]
        for i, layer in enumerate(inner.layers):
            attn = layer.self_attn
            d = attn.head_dim
            kh = self.keys[i].shape[1]
            h = _rms_norm(layer.input_layernorm, x)
            q = attn.q_proj(h).view(b, 1, -1, d)
            k = attn.k_proj(h).view(b, 1, kh, d)
            v = attn.v_proj(h).view(b, kh, d)
            if hasattr(attn, "q_norm"):  # qwen3 normalises each head before the rotation
                q, k = attn.q_norm(q), attn.k_norm(k)
            # Scaling q once scales both score blocks (the prompt's and the row's own).
            q = _rotate(q.view(b, kh, -1, d), cos, sin) * attn.scaling  # [B, K, R, D]
            r = q.shape[2]
            self.keys[i][:, :, t] = _rotate(k.view(b, kh, 1, d), cos, sin)[:, :, 0]
            self.values[i][:, :, t] = v
            # Scores against the shared prompt (per prompt) and the row's own tokens, one
            # softmax over both, then the two weighted sums of values.
            to_prompt = torch.matmul(self._to_grid(q), self.prompt_keys[i].transpose(-1, -2))
            to_prompt = self._from_grid(to_prompt + bias, r)  # [B, K, R, P]
            to_own = torch.matmul(q, self.keys[i][:, :, : t + 1].transpose(-1, -2))
            probs = torch.softmax(torch.cat([to_prompt, to_own], dim=-1).float(), dim=-1)
            probs = probs.to(q.dtype)
            out = self._from_grid(
                torch.matmul(self._to_grid(probs[..., :p]), self.prompt_values[i]), r)
            out = out + torch.matmul(probs[..., p:], self.values[i][:, :, : t + 1])
            x = x + attn.o_proj(out.reshape(b, 1, -1))
            x = x + layer.mlp(_rms_norm(layer.post_attention_layernorm, x))
        self.length = t + 1
        return self.model.lm_head(_rms_norm(inner.norm, x))[:, 0]


def _rotate(x: torch.Tensor, cos: torch.Tensor, signed_sin: torch.Tensor) -> torch.Tensor:
    """Rotary embedding, HF's ``rotate_half`` convention: x*cos + rotate_half(x)*sin, with
    ``signed_sin`` = [-sin_1, sin_2] (the halves of the last dim)."""
    return x * cos + x.roll(x.shape[-1] // 2, dims=-1) * signed_sin


def _rms_norm(norm: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    """``norm(x)`` for the Llama-family RMSNorm (weight * x / rms(x), computed in float32)
    in two ops instead of seven; any other norm module is called as is."""
    eps = getattr(norm, "variance_epsilon", None)
    if eps is None or not type(norm).__name__.endswith("RMSNorm"):
        return norm(x)
    y = torch.nn.functional.rms_norm(x.float(), (x.shape[-1],), eps=eps)
    return norm.weight * y.to(x.dtype)
