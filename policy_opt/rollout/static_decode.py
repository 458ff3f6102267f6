"""Decoding over a static key/value cache, replayed as one CUDA graph per token on a GPU.

A decode step of a 0.5B model on a GPU is launch-bound: ~24 layers x ~20 small kernels,
each launched from Python, take far longer than the arithmetic (the H200 reads the whole
bf16 model in ~0.2 ms). :class:`StaticDecoder` makes every tensor of a step keep its shape
and address for the whole generation, so the step can be captured once as a CUDA graph and
replayed with one launch per token:

* the cache is ``[B, K, C, D]`` per layer with C = prompt width + new tokens, filled up
  front with the prompts' keys/values; a step writes its column at a device-side index
  (``index_copy_``), not a Python int, so the graph stays valid as the column moves;
* attention always covers all C columns with an additive bias ``[B, C]`` (0 on real
  tokens, -inf on left padding and on columns not written yet), opened one column a step;
* no row is ever dropped (finished rows decode on, their tokens are discarded): fixed
  shapes are what makes the graph possible.

The step runs the model's own modules (projections, norms, rotary embedding, MLP), as
:class:`policy_opt.rollout.kv_decode.KVDecoder` does, so the weights are always the live ones (the
graph records their addresses; AdamW updates them in place). Without CUDA, or with
``graphs=False``, the same step runs eagerly, which is how the CPU tests check it.

Which models: those :func:`policy_opt.rollout.kv_decode.supports` accepts.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any

import torch

from policy_opt.rollout.kv_decode import _rms_norm, _rotate


class StaticDecoder:
    """Decode state for one batch; call :meth:`step` once per token.

    Args:
        model: the causal LM (see :func:`policy_opt.rollout.kv_decode.supports`); call under
            ``torch.inference_mode``.
        prompt_keys, prompt_values: per layer, ``[U, K, P, D]``: the keys/values of the U
            distinct left-padded prompts (a ``DynamicCache``'s ``layers[i].keys``).
        prompt_mask: ``[U, P]``, 1 on real prompt tokens.
        owner: ``[B]``, the prompt of each row.
        new_tokens: columns to reserve for generated tokens (the most steps to be run).
        graphs: capture the step as a CUDA graph (only on a CUDA device).
    """

    def __init__(self, model: Any, prompt_keys: list[torch.Tensor],
                 prompt_values: list[torch.Tensor], prompt_mask: torch.Tensor,
                 owner: torch.Tensor, new_tokens: int, graphs: bool = True):
        self.model = model
        _, k, p, d = prompt_keys[0].shape
        device = owner.device
        b = len(owner)
        self.new_tokens = new_tokens
        self.width = p + new_tokens
        shape = (b, k, self.width, d)
        self.keys, self.values = [], []
        for pk, pv in zip(prompt_keys, prompt_values):
            keys = pk.new_zeros(shape)
            keys[:, :, :p] = pk.index_select(0, owner)
            values = pv.new_zeros(shape)
            values[:, :, :p] = pv.index_select(0, owner)
            self.keys.append(keys)
            self.values.append(values)
        self.bias = torch.full((b, self.width), float("-inf"), dtype=torch.float32,
                               device=device)
        self.bias[:, :p].masked_fill_(prompt_mask.index_select(0, owner) != 0, 0.0)
        self.column = torch.full((1,), p, dtype=torch.long, device=device)
        self.tokens = torch.zeros(b, dtype=torch.long, device=device)
        self.positions = torch.zeros(b, dtype=torch.long, device=device)
        self.graphs = graphs and device.type == "cuda"
        self.steps = 0
        self.graph: Any = None
        self.graph_logits: torch.Tensor | None = None

    def step(self, tokens: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        """Append one token per row (``tokens``, ``positions``: ``[B]``); return the next
        token's logits ``[B, V]`` (on the graph path, a buffer the next step overwrites)."""
        if self.steps >= self.new_tokens:
            raise IndexError(f"StaticDecoder: all {self.new_tokens} new columns are used")
        self.tokens.copy_(tokens)
        self.positions.copy_(positions)
        self.steps += 1
        if not self.graphs:
            return self._step()
        if self.graph is None:
            return self._first_step_then_capture()
        self.graph.replay()
        assert self.graph_logits is not None
        return self.graph_logits

    def _first_step_then_capture(self) -> torch.Tensor:
        # The first step runs eagerly: it warms up the libraries' lazy state (cuBLAS handles
        # and workspaces) that must not be created inside a capture.
        with _graph_safe_autocast():
            logits = self._step()
        # Capturing records the kernels without running them: the state (column, bias,
        # cache) stays where the eager step left it, and the first replay runs step 2.
        # Not yet run on a GPU by its authors (README, "One GPU"): a capture the model's kernels
        # refuse falls back to eager steps on the same static cache, with one warning, instead
        # of ending the run. Capture records without running, so the state is untouched.
        try:
            self.graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(self.graph), _graph_safe_autocast():
                self.graph_logits = self._step()
        except Exception as err:  # noqa: BLE001 - any capture failure has the same way out
            self.graph, self.graph_logits, self.graphs = None, None, False
            warnings.warn(f"CUDA graph capture failed ({type(err).__name__}: {err}); decoding "
                          "eagerly over the static cache", RuntimeWarning, stacklevel=2)
        return logits

    def _step(self) -> torch.Tensor:
        inner = self.model.model
        b = self.tokens.shape[0]
        self.bias.index_fill_(1, self.column, 0.0)
        x = inner.embed_tokens(self.tokens[:, None])  # [B, 1, H]
        cos, sin = inner.rotary_emb(x, self.positions[:, None])
        cos, sin = cos[:, None], sin[:, None]  # [B, 1, 1, D]
        half = cos.shape[-1] // 2
        sin = torch.cat((-sin[..., :half], sin[..., half:]), dim=-1)
        bias = self.bias[:, None, None, :]  # [B, 1, 1, C]
        for i, layer in enumerate(inner.layers):
            attn = layer.self_attn
            d = attn.head_dim
            keys, values = self.keys[i], self.values[i]
            kh = keys.shape[1]
            h = _rms_norm(layer.input_layernorm, x)
            q = attn.q_proj(h).view(b, 1, -1, d)
            k = attn.k_proj(h).view(b, 1, kh, d)
            v = attn.v_proj(h).view(b, kh, 1, d)
            if hasattr(attn, "q_norm"):
                q, k = attn.q_norm(q), attn.k_norm(k)
            q = _rotate(q.view(b, kh, -1, d), cos, sin) * attn.scaling  # [B, K, R, D]
            k = _rotate(k.view(b, kh, 1, d), cos, sin)
            keys.index_copy_(2, self.column, k.to(keys.dtype))
            values.index_copy_(2, self.column, v.to(values.dtype))
            scores = torch.matmul(q.to(keys.dtype), keys.transpose(-1, -2)) + bias
            probs = torch.softmax(scores.float(), dim=-1).to(values.dtype)
            out = torch.matmul(probs, values)  # [B, K, R, D]
            x = x + attn.o_proj(out.reshape(b, 1, -1))
            x = x + layer.mlp(_rms_norm(layer.post_attention_layernorm, x))
        self.column.add_(1)
        return self.model.lm_head(_rms_norm(inner.norm, x))[:, 0]


def _graph_safe_autocast() -> Any:
    """The caller's autocast, with its weight-cast cache off: a cached cast made during a
    capture would be replayed as a stale copy of weights that AdamW has since moved."""
    if not torch.is_autocast_enabled("cuda"):
        return contextlib.nullcontext()
    return torch.autocast("cuda", dtype=torch.get_autocast_dtype("cuda"), cache_enabled=False)
