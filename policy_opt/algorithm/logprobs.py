"""Log-probabilities of the sampled tokens, without the full-vocabulary log_softmax.

    logp[t] = logits[t, tok_t] - logsumexp_v(logits[t, v])

The naive ``logits.log_softmax(-1).gather(-1, tok)`` materialises a second ``[T, V]`` tensor
(2.5 GB in fp32 for 4,096 tokens of Qwen's 151,936-token vocabulary) and keeps it for the
backward pass. ``token_logprobs`` walks the rows in chunks, so the forward pass holds one
``[chunk, V]`` fp32 block at a time and saves only the ``[T]`` logsumexp for backward; the
backward pass writes ``softmax - onehot`` chunk by chunk straight into the gradient of the
logits (which has to exist anyway). The arithmetic is fp32 even for bf16/fp16 logits (fp64
stays fp64); the result is fp32 (fp64 for fp64 logits).

``completion_logprobs`` applies it to a model: log pi(o_t | q, o_<t) of every completion
token of a :class:`policy_opt.algorithm.batch.Batch`, ``[N, L]``, running each group's
shared prompt once (the shared-prompt trick, see its docstring).
"""

from __future__ import annotations

import inspect
from typing import Any

import torch

from policy_opt.algorithm.batch import Batch, prompts_shared

Tensor = torch.Tensor

DEFAULT_CHUNK_SIZE = 256
"""Rows per chunk: 256 x 151,936 fp32 = 156 MB of scratch, large enough to keep the matmul-free
reductions vectorised."""


def _compute_dtype(dtype: torch.dtype) -> torch.dtype:
    return torch.float64 if dtype == torch.float64 else torch.float32


def _flattens(x: Tensor) -> bool:
    """Whether ``[N, L, V]`` can be viewed as ``[N*L, V]`` without a copy."""
    N, L, V = x.shape
    return N == 1 or x.stride(0) == L * x.stride(1)


def _blocks(x: Tensor, chunk_size: int, flat: bool) -> list[tuple[Tensor, slice]]:
    """Split ``[N, L, V]`` into ``[<=chunk_size, V]`` views (never copies), each with its slice
    of the flattened ``N*L`` positions. ``flat`` chunks across sequence boundaries (contiguous
    rows, the usual case); otherwise (e.g. ``model_logits[:, :-1]``) chunks stay in a row."""
    N, L, V = x.shape
    if flat:
        rows = x.flatten(0, 1)
        return [(rows[s : s + chunk_size], slice(s, min(s + chunk_size, N * L)))
                for s in range(0, N * L, chunk_size)]
    return [(x[n, s : s + chunk_size], slice(n * L + s, n * L + min(s + chunk_size, L)))
            for n in range(N) for s in range(0, L, chunk_size)]


class _ChunkedTokenLogprobs(torch.autograd.Function):
    """Autograd op for ``token_logprobs`` on ``[N, L, V]`` logits and flat ``[N*L]`` tokens."""

    @staticmethod
    def forward(ctx, logits: Tensor, tokens: Tensor, chunk_size: int, temperature: float) -> Tensor:
        cdtype = _compute_dtype(logits.dtype)
        T = tokens.shape[0]
        out = torch.empty(T, dtype=cdtype, device=logits.device)
        lse = torch.empty(T, dtype=cdtype, device=logits.device)
        for view, idx in _blocks(logits, chunk_size, _flattens(logits)):
            block = view.to(cdtype)
            if temperature != 1.0:
                block = block / temperature
            lse[idx] = torch.logsumexp(block, dim=-1)
            picked = block.gather(-1, tokens[idx].unsqueeze(-1)).squeeze(-1)
            out[idx] = picked - lse[idx]
        # Saving `logits` keeps a reference, not a copy; the [T] logsumexp is all we add.
        ctx.save_for_backward(logits, tokens, lse)
        ctx.chunk_size = chunk_size
        ctx.temperature = temperature
        return out

    @staticmethod
    def backward(ctx, grad_out: Tensor):
        logits, tokens, lse = ctx.saved_tensors
        chunk_size, temperature = ctx.chunk_size, ctx.temperature
        cdtype = lse.dtype
        grad = torch.empty(logits.shape, dtype=logits.dtype, device=logits.device)
        g_all = grad_out.to(cdtype) / temperature
        flat = _flattens(logits)
        pairs = zip(_blocks(logits, chunk_size, flat), _blocks(grad, chunk_size, flat))
        for (view, idx), (gview, _) in pairs:
            g = g_all[idx].unsqueeze(-1)
            z = view.to(cdtype)
            if temperature != 1.0:
                z = z / temperature
            # d logp / d z = onehot - softmax(z), times the incoming gradient. In fp32/fp64 it
            # is written straight into the gradient buffer: no [chunk, V] temporary.
            out = gview if gview.dtype == cdtype else torch.empty_like(z)
            torch.sub(z, lse[idx].unsqueeze(-1), out=out)
            out.exp_().mul_(-g)
            out.scatter_add_(-1, tokens[idx].unsqueeze(-1), g)
            if out is not gview:
                gview.copy_(out)
        return grad, None, None, None


def token_logprobs(
    logits: Tensor,
    tokens: Tensor,
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    temperature: float = 1.0,
    check_values: bool = True,
) -> Tensor:
    """Log-probability of each sampled token: ``log_softmax(logits / temperature)[..., tok]``.

    Args:
        logits: ``[N, L, V]`` (or ``[T, V]``) floating logits; position t scores token t (shift
            the model's logits by one before calling, as for any causal LM).
        tokens: ``[N, L]`` (or ``[T]``) integer ids in ``[0, V)``.
        chunk_size: rows of ``V`` logits processed at a time (memory/speed trade-off).
        temperature: divide the logits by it first (the sampling temperature, as TRL does).
        check_values: check that every token id is in ``[0, V)`` (reads the range back from
            the device; a caller whose ids index the same model's embedding, as the
            trainer's do, passes ``False``).

    Returns:
        ``[N, L]`` (or ``[T]``) log-probs in float32 (float64 for float64 logits), with
        gradient to ``logits`` when it requires one.

    >>> logits = torch.tensor([[[0.0, 0.0], [2.0, 0.0]]])
    >>> token_logprobs(logits, torch.tensor([[1, 0]]))
    tensor([[-0.6931, -0.1269]])
    """
    if not isinstance(logits, Tensor):
        raise ValueError(f"logits must be a torch.Tensor, got {type(logits).__name__}")
    if not logits.is_floating_point():
        raise ValueError(f"logits must be a floating-point tensor, got dtype {logits.dtype}")
    if not isinstance(tokens, Tensor):
        raise ValueError(f"tokens must be a torch.Tensor, got {type(tokens).__name__}")
    if tokens.dtype not in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
        raise ValueError(f"tokens must be an integer tensor, got dtype {tokens.dtype}")
    if logits.dim() < 2 or tuple(logits.shape[:-1]) != tuple(tokens.shape):
        raise ValueError(f"logits must be tokens' shape plus a vocabulary axis: tokens "
                         f"{tuple(tokens.shape)}, logits {tuple(logits.shape)}")
    if tokens.device != logits.device:
        raise ValueError(f"tokens is on {tokens.device} but logits is on {logits.device}")
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature!r}")
    V = logits.shape[-1]
    if V == 0:
        raise ValueError("logits must have a non-empty vocabulary axis")
    if check_values and tokens.numel():
        lo, hi = torch.stack(torch.aminmax(tokens.reshape(-1))).tolist()  # one read
        if lo < 0 or hi >= V:
            raise ValueError(f"tokens must be ids in [0, {V}), got range [{lo}, {hi}]")
    # [N, L, V] view (no copy) whatever the input's rank; _blocks does the chunking.
    logits3 = logits.reshape(-1, logits.shape[-2], V) if logits.dim() > 2 else logits.unsqueeze(0)
    flat_tokens = tokens.reshape(-1).to(torch.int64)
    out = _ChunkedTokenLogprobs.apply(logits3, flat_tokens, chunk_size, float(temperature))
    return out.view(tokens.shape)


def forward_kwarg_names(model: Any) -> tuple[str, str | None]:
    """(the forward's cache keyword, its logits-to-keep keyword or None) for ``model``."""
    # transformers renamed `past_key_values` to `cache` (5.x, old name deprecated);
    # `logits_to_keep` (skip the vocab projection of all but the last prompt position) is
    # missing on older or custom models.
    params = inspect.signature(model.forward).parameters
    cache_kw = "cache" if "cache" in params else "past_key_values"
    keep_kw = next((k for k in ("logits_to_keep", "num_logits_to_keep") if k in params), None)
    return cache_kw, keep_kw


def completion_logprobs(model: torch.nn.Module, batch: Batch, micro_batch_size: int = 0,
                        group_size: int = 1, shared: bool | None = None) -> torch.Tensor:
    """log pi(o_t | q, o_<t) of every completion token: [N, L] float32.

    When the G rows of a group share their prompt (``group_size`` > 1), the prompt is run
    once per group and its key/value cache is repeated for the G completions: the same
    values and gradients as running it G times (the cache stays in the autograd graph, so
    the prompt's gradient sums over the group), at 1/G of the prompt's cost. Long prompts
    (GSM8K in bytes: ~400 tokens against ~16 generated) make this the step's main saving.

    Only the completion positions' logits are computed (``logits_to_keep``), and the sampled
    tokens' log-probs are gathered chunk by chunk (policy_opt.algorithm.logprobs) so the full
    [N, L, V] log-softmax never exists.

    ``shared``: whether the groups share their prompts, when the caller already knows it
    (the check reads the answer back from the device).
    """
    n, length = batch.completion_ids.shape
    if shared is None:
        shared = prompts_shared(batch, group_size)
    g = group_size if shared else 1
    step = max(g, (micro_batch_size or n) // g * g)
    # transformers 5 renamed past_key_values to cache (and warns on the old name); a DDP or
    # FSDP wrapper hides the signature, so look at the module it wraps.
    cache_kw = forward_kwarg_names(getattr(model, "module", model))[0] if g > 1 else ""
    out = []
    for s in range(0, n, step):
        mb = batch.rows(slice(s, s + step))
        if g > 1:
            out.append(_shared_prompt_logprobs(model, mb, g, cache_kw))
            continue
        logits = model(input_ids=mb.input_ids, attention_mask=mb.attention_mask,
                       position_ids=mb.position_ids, logits_to_keep=length + 1,
                       use_cache=False).logits
        out.append(token_logprobs(logits[:, :-1], mb.completion_ids, check_values=False))
    return torch.cat(out)


def _shared_prompt_logprobs(model: torch.nn.Module, mb: Batch, g: int,
                            cache_kw: str) -> torch.Tensor:
    from transformers import DynamicCache

    length = mb.completion_ids.shape[1]
    p = mb.input_ids.shape[1] - length
    lead = slice(None, None, g)
    prompt = model(input_ids=mb.input_ids[lead, :p], attention_mask=mb.attention_mask[lead, :p],
                   position_ids=mb.position_ids[lead, :p], **{cache_kw: DynamicCache()},
                   use_cache=True, logits_to_keep=1)
    # The output's field is named like the forward's keyword (reading the old name warns).
    cache = getattr(prompt, cache_kw)
    cache.batch_repeat_interleave(g)
    # The prompt's last position predicts the first completion token.
    # The ids index this model's embedding already: no range check (a read from the device).
    first = token_logprobs(prompt.logits.repeat_interleave(g, dim=0), mb.completion_ids[:, :1],
                           check_values=False)
    if length == 1:
        return first
    logits = model(input_ids=mb.completion_ids[:, :-1], attention_mask=mb.attention_mask[:, :-1],
                   position_ids=mb.position_ids[:, p:-1], **{cache_kw: cache},
                   use_cache=True).logits
    return torch.cat([first, token_logprobs(logits, mb.completion_ids[:, 1:],
                                            check_values=False)], dim=1)
