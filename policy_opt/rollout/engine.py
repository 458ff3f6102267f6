r"""Rollout engines: turn prompt token ids into sampled completions, behind one interface.

* :class:`TransformersEngine` runs the policy in-process (CPU or GPU): one batched prefill
  of the distinct left-padded prompts, then a lean decode loop: over a preallocated
  key/value cache for Llama-family models (:mod:`policy_opt.rollout.kv_decode`), else over the
  model's own ``DynamicCache``.
  A row that finishes (EOS or a stop string) is never extended; finished rows are dropped
  from the batch and the cache in bursts (once a quarter of the batch is done), so the
  remaining rows decode faster.
* :class:`policy_opt.rollout.vllm_engine.VLLMEngine` wraps a colocated ``vllm.LLM`` (imported
  lazily, so the rest of the package works without vLLM) and receives the trainer's weights
  in memory after each update.

Both return one :class:`Generation` per prompt, in prompt order.

Example:
    >>> from policy_opt.models import load_policy                   # doctest: +SKIP
    >>> model, tok = load_policy("default")               # doctest: +SKIP
    >>> engine = TransformersEngine(model, tok)           # doctest: +SKIP
    >>> import tasks                                      # doctest: +SKIP
    >>> row = tasks.get("arithmetic").rows("test", limit=1)[0]  # "What is 6+9+6? ..." # doctest: +SKIP
    >>> ids = tok.apply_chat_template(list(row.prompt),
    ...                               add_generation_prompt=True)["input_ids"]  # doctest: +SKIP
    >>> [g] = engine.generate([ids], max_new_tokens=32, temperature=0.0)  # doctest: +SKIP
    >>> g.finish_reason, tok.decode(g.token_ids)           # doctest: +SKIP
    ('stop', '6+9=15\n15+6=22\n#### 14<|im_end|>')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import torch

from policy_opt.algorithm.logprobs import forward_kwarg_names
from policy_opt.rollout import kv_decode

FINISH_STOP = "stop"
FINISH_LENGTH = "length"
# Generated columns the fast decoder allocates up front (it doubles them when full).
FIRST_CAPACITY = 512
# Decode steps between reads of the sampled tokens on the static path: a finished batch
# runs at most this many steps too many; each read waits for the GPU queue to drain.
STATIC_READ_EVERY = 8


@dataclass
class Generation:
    """One sampled completion.

    ``token_ids``: the sampled ids, verbatim; they end at EOS when the model emitted it (EOS
    included) or right after the token that completed a stop string (its tokens included).
    ``logprobs``: the log-probability of each id under the distribution it was sampled from
    (``log_softmax(logits / temperature)``, before top-p truncation; raw logits when greedy),
    or ``None`` when the engine does not keep them. ``finish_reason``: ``"stop"`` (EOS or stop
    string) or ``"length"`` (hit ``max_new_tokens``).
    """

    token_ids: list[int]
    logprobs: list[float] | None
    finish_reason: str


class ContextOverflow(ValueError):
    """A prompt fills the model's whole context window: no token can be generated after it."""


def context_length(model: Any) -> int | None:
    """The most positions ``model`` takes (``max_position_embeddings``, GPT-2's
    ``n_positions``), or None when its config does not say."""
    n = getattr(getattr(model, "config", None), "max_position_embeddings", None)
    return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None


@runtime_checkable
class Engine(Protocol):
    """What the rollout needs from an engine (see ``docs/architecture.md``)."""

    def generate(
        self,
        prompts: list[list[int]],
        *,
        max_new_tokens: int,
        temperature: float = 1.0,
        top_p: float = 1.0,
        stop: Sequence[str] = (),
        seed: int | None = None,
    ) -> list[Generation]: ...

    def sync_weights(self, model: Any) -> None: ...


def check_sampling_args(
    prompts: Any, max_new_tokens: Any, temperature: Any, top_p: Any, stop: Any
) -> None:
    """Raise ``ValueError``/``TypeError`` naming the bad argument (shared by all engines)."""
    if not isinstance(prompts, (list, tuple)):
        raise TypeError(f"prompts must be a list of lists of token ids, got {type(prompts)}")
    for i, p in enumerate(prompts):
        if not isinstance(p, (list, tuple)) or not all(
            isinstance(t, int) and not isinstance(t, bool) for t in p
        ):
            raise TypeError(f"prompts[{i}] must be a list of int token ids")
        if len(p) == 0:
            raise ValueError(f"prompts[{i}] is empty; a prompt needs at least one token")
    if not isinstance(max_new_tokens, int) or isinstance(max_new_tokens, bool):
        raise TypeError(f"max_new_tokens must be an int, got {max_new_tokens!r}")
    if max_new_tokens < 1:
        raise ValueError(f"max_new_tokens must be >= 1, got {max_new_tokens}")
    if not isinstance(temperature, (int, float)) or not temperature >= 0:
        raise ValueError(f"temperature must be a number >= 0, got {temperature!r}")
    if not isinstance(top_p, (int, float)) or not 0 < top_p <= 1:
        raise ValueError(f"top_p must be in (0, 1], got {top_p!r}")
    if isinstance(stop, str) or not all(isinstance(s, str) and s for s in stop):
        raise TypeError(f"stop must be a sequence of non-empty strings, got {stop!r}")


class TransformersEngine:
    """Batched sampling with a KV cache on any transformers causal LM (CPU or GPU).

    Args:
        model: a ``PreTrainedModel`` (the trainer's live policy: no copy is made, so
            ``sync_weights`` is a no-op).
        tokenizer: its tokenizer; gives the pad id, the EOS id(s) and decodes stop strings.
        max_batch_size: prompts decoded together at most (``None``: all at once).
        fast_decode: decode Llama-family models over a preallocated key/value cache
            (:mod:`policy_opt.rollout.kv_decode`, ~3x faster per token on CPU); other models, or
            ``False``, step through ``model.forward`` with a ``DynamicCache``.
        static_cache: with ``fast_decode``, decode over a fixed-shape cache
            (:mod:`policy_opt.rollout.static_decode`) instead: no row is dropped, and on CUDA each
            token is one CUDA graph replay. ``None`` (default): on CUDA devices only.
        cuda_graphs: on the static path on CUDA, capture and replay the step as a graph
            (``False``: run it eagerly, for debugging).

    ``temperature=0`` is greedy decoding. Same prompts, arguments and ``seed`` give the same
    generations on the same device; ``seed=None`` draws a fresh seed.

    A row never runs past the model's context (``max_context``): it ends there with finish
    reason ``"length"``, as at ``max_new_tokens`` (a Llama would otherwise decode on at
    positions it was never trained on, and learned position tables fail with an index
    error). A prompt with no room left raises ``ContextOverflow``.

    Example:
        >>> engine = TransformersEngine(model, tok)    # doctest: +SKIP
        >>> gens = engine.generate([[258, 117], [258]], max_new_tokens=8, seed=0)  # doctest: +SKIP
    """

    def __init__(self, model: Any, tokenizer: Any, *, max_batch_size: int | None = None,
                 fast_decode: bool = True, static_cache: bool | None = None,
                 cuda_graphs: bool = True):
        if max_batch_size is not None and max_batch_size < 1:
            raise ValueError(f"max_batch_size must be >= 1 or None, got {max_batch_size}")
        self.model = model
        self.tokenizer = tokenizer
        self.max_batch_size = max_batch_size
        self.fast_decode = fast_decode
        self.static_cache = static_cache
        self.cuda_graphs = cuda_graphs
        self.eos_ids = _eos_ids(model, tokenizer)
        pad = tokenizer.pad_token_id
        self.pad_id = pad if pad is not None else (min(self.eos_ids) if self.eos_ids else 0)

    def sync_weights(self, model: Any) -> None:
        """Point the engine at ``model`` (the in-process engine shares the trainer's weights)."""
        self.model = model

    @property
    def max_context(self) -> int | None:
        """Tokens a row may hold, prompt and generation together (None: no known limit)."""
        return context_length(self.model)

    def generate(
        self,
        prompts: list[list[int]],
        *,
        max_new_tokens: int,
        temperature: float = 1.0,
        top_p: float = 1.0,
        stop: Sequence[str] = (),
        seed: int | None = None,
    ) -> list[Generation]:
        """Sample one completion per prompt; see :class:`Generation` for what comes back."""
        check_sampling_args(prompts, max_new_tokens, temperature, top_p, stop)
        if not prompts:
            return []
        limit = self.max_context
        if limit is not None:
            for i, p in enumerate(prompts):
                if len(p) >= limit:
                    raise ContextOverflow(
                        f"prompts[{i}] has {len(p)} tokens but the model's context is {limit} "
                        "(max_position_embeddings): no room to generate")
        device = next(self.model.parameters()).device
        gen = torch.Generator(device=device)
        gen.manual_seed(seed if seed is not None else random.SystemRandom().getrandbits(63))
        size = self.max_batch_size or len(prompts)
        out: list[Generation] = []
        was_training = self.model.training
        self.model.eval()
        try:
            with torch.inference_mode():
                for start in range(0, len(prompts), size):
                    chunk = [list(p) for p in prompts[start : start + size]]
                    out.extend(
                        self._generate_batch(
                            chunk,
                            max_new_tokens,
                            float(temperature),
                            float(top_p),
                            tuple(stop),
                            gen,
                            device,
                        )
                    )
        finally:
            self.model.train(was_training)
        return out

    def _generate_batch(
        self,
        prompts: list[list[int]],
        max_new_tokens: int,
        temperature: float,
        top_p: float,
        stop: tuple[str, ...],
        gen: torch.Generator,
        device: torch.device,
    ) -> list[Generation]:
        from transformers import DynamicCache

        n = len(prompts)
        width = max(len(p) for p in prompts)
        limit = self.max_context
        # Tokens each row may generate: the budget, or what its context has left.
        room = [max_new_tokens if limit is None else min(max_new_tokens, limit - len(p))
                for p in prompts]
        max_new_tokens = max(room)
        ids = torch.full((n, width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((n, width), dtype=torch.long)
        for i, p in enumerate(prompts):
            ids[i, width - len(p) :] = torch.tensor(p, dtype=torch.long)
            mask[i, width - len(p) :] = 1
        ids, mask = ids.to(device), mask.to(device)
        # Left padding: each row's real tokens start at position 0, as in model.generate.
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        next_pos = positions[:, -1] + 1

        cache = DynamicCache(config=self.model.config)
        cache_kw, keep_kw = forward_kwarg_names(self.model)
        prefill_kw = {keep_kw: 1} if keep_kw else {}
        # Prefill each distinct prompt once: the G copies of a GRPO group share their prompt,
        # so its keys/values are computed once and gathered back to every copy.
        uniq, inverse = torch.unique(torch.cat([ids, mask], dim=1), dim=0, return_inverse=True)
        rep = torch.empty(len(uniq), dtype=torch.long, device=device).scatter_(
            0, inverse, torch.arange(n, device=device))
        logits = self.model(
            input_ids=ids[rep],
            attention_mask=mask[rep],
            position_ids=positions[rep],
            use_cache=True,
            **{cache_kw: cache},
            **prefill_kw,
        ).logits[:, -1, :][inverse]
        # torch.unique sorts its rows: the cache is in `uniq` order until gathered back.
        static = self.static_cache if self.static_cache is not None else device.type == "cuda"
        if static and self.fast_decode and kv_decode.supports(self.model, width + max_new_tokens):
            from policy_opt.rollout.static_decode import StaticDecoder

            decoder = StaticDecoder(
                self.model, [layer.keys for layer in cache.layers],
                [layer.values for layer in cache.layers], mask[rep], inverse,
                new_tokens=max(1, max_new_tokens - 1), graphs=self.cuda_graphs)
            del cache  # its keys/values now live in the decoder's buffers
            return self._decode_static(decoder, logits, next_pos, room, max_new_tokens,
                                       temperature, top_p, stop, gen)
        decoder = None
        if self.fast_decode and kv_decode.supports(self.model, width + max_new_tokens):
            decoder = kv_decode.KVDecoder(
                self.model, [layer.keys for layer in cache.layers],
                [layer.values for layer in cache.layers], mask[rep], inverse,
                capacity=min(max_new_tokens, FIRST_CAPACITY))
        elif not torch.equal(inverse, torch.arange(n, device=device)):
            cache.batch_select_indices(inverse)

        eos = torch.tensor(sorted(self.eos_ids), dtype=torch.long, device=device)
        stop_window = max((len(s.encode()) for s in stop), default=0) + 1
        tokens: list[list[int]] = [[] for _ in range(n)]
        logps: list[list[float]] = [[] for _ in range(n)]
        reasons = [FINISH_LENGTH] * n
        row_list: list[int | None] = list(range(n))  # batch slot -> prompt (None: finished)
        live = n

        for step in range(max_new_tokens):
            token, logp = _sample(logits.float(), temperature, top_p, gen)
            # One read from the device per step, not three (ids are exact in float64).
            done = torch.isin(token, eos) if len(eos) else torch.zeros_like(token, dtype=torch.bool)
            token_l, logp_l, done_l = torch.stack(
                [token.double(), logp.double(), done.double()]).tolist()
            token_l = [int(t) for t in token_l]
            for slot, r in enumerate(row_list):
                if r is None:
                    continue  # finished earlier: its row in the batch is ignored
                tokens[r].append(token_l[slot])
                logps[r].append(logp_l[slot])
                if done_l[slot] or (stop and self._hit_stop(tokens[r], stop, stop_window)):
                    reasons[r] = FINISH_STOP
                    row_list[slot] = None
                    live -= 1
                elif len(tokens[r]) >= room[r]:  # the context is full (reason: length)
                    row_list[slot] = None
                    live -= 1
            if live == 0 or step == max_new_tokens - 1:
                break
            if live <= len(row_list) * 3 // 4:
                # Drop finished rows from the batch and the cache. Done in bursts, not per
                # finished row, because each drop copies the whole cache.
                keep = [slot for slot, r in enumerate(row_list) if r is not None]
                sel = torch.tensor(keep, dtype=torch.long, device=device)
                if decoder is not None:
                    decoder.select(sel)
                else:
                    cache.batch_select_indices(sel)
                mask, next_pos, token = mask[sel], next_pos[sel], token[sel]
                row_list = [row_list[s] for s in keep]
            if decoder is not None:
                logits = decoder.step(token, next_pos)
            else:
                mask = torch.cat([mask, mask.new_ones((len(row_list), 1))], dim=1)
                logits = self.model(
                    input_ids=token[:, None],
                    attention_mask=mask,
                    position_ids=next_pos[:, None],
                    use_cache=True,
                    **{cache_kw: cache},
                ).logits[:, -1, :]
            next_pos = next_pos + 1

        return [Generation(tokens[i], logps[i], reasons[i]) for i in range(n)]

    def _decode_static(self, decoder: Any, logits: torch.Tensor, next_pos: torch.Tensor,
                       room: list[int], max_new_tokens: int, temperature: float, top_p: float,
                       stop: tuple[str, ...], gen: torch.Generator) -> list[Generation]:
        """The decode loop over a :class:`~policy_opt.rollout.static_decode.StaticDecoder`: every row
        decodes every step; the host reads the sampled tokens every ``STATIC_READ_EVERY``
        steps (not per token, which would stall the GPU queue each step) and applies EOS,
        stop strings and each row's room there, as the main loop does per token."""
        n = len(room)
        device = logits.device
        sampled = torch.empty((n, max_new_tokens), dtype=torch.long, device=device)
        sampled_logp = torch.empty((n, max_new_tokens), dtype=torch.float32, device=device)
        stop_window = max((len(s.encode()) for s in stop), default=0) + 1
        tokens: list[list[int]] = [[] for _ in range(n)]
        logps: list[list[float]] = [[] for _ in range(n)]
        reasons = [FINISH_LENGTH] * n
        open_rows = set(range(n))
        read = 0
        for step in range(max_new_tokens):
            token, logp = _sample(logits.float(), temperature, top_p, gen)
            sampled[:, step] = token
            sampled_logp[:, step] = logp
            last = step == max_new_tokens - 1
            if last or (step + 1) % STATIC_READ_EVERY == 0:
                new_tokens = sampled[:, read:step + 1].tolist()
                new_logps = sampled_logp[:, read:step + 1].tolist()
                read = step + 1
                for r in list(open_rows):
                    for t, lp in zip(new_tokens[r], new_logps[r]):
                        tokens[r].append(t)
                        logps[r].append(lp)
                        if t in self.eos_ids or (
                                stop and self._hit_stop(tokens[r], stop, stop_window)):
                            reasons[r] = FINISH_STOP
                            open_rows.discard(r)
                            break
                        if len(tokens[r]) >= room[r]:
                            open_rows.discard(r)
                            break
                if not open_rows:
                    break
            if last:
                break
            logits = decoder.step(token, next_pos)
            next_pos = next_pos + 1
        return [Generation(tokens[i], logps[i], reasons[i]) for i in range(n)]

    def _hit_stop(self, tokens: list[int], stop: tuple[str, ...], window: int) -> bool:
        # A stop string completed by the last token lies within the last `window` tokens
        # (every token decodes to at least one byte), so decoding that tail is enough.
        tail = self.tokenizer.decode(tokens[-window:], skip_special_tokens=False)
        return any(s in tail for s in stop)


def _sample(
    logits: torch.Tensor, temperature: float, top_p: float, gen: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """Draw one token per row; return it and its log-prob under logits / temperature."""
    if temperature == 0.0:
        logp = torch.log_softmax(logits, dim=-1)
        token = logits.argmax(dim=-1)
        return token, logp.gather(-1, token[:, None]).squeeze(-1)
    logp = torch.log_softmax(logits / temperature, dim=-1)
    probs = logp.exp()
    if top_p < 1.0:
        # Nucleus: keep the smallest prefix of the sorted distribution whose mass reaches
        # top_p (the top token always survives).
        sorted_p, order = probs.sort(dim=-1, descending=True)
        drop = sorted_p.cumsum(-1) - sorted_p >= top_p
        sorted_p = sorted_p.masked_fill(drop, 0.0)
        probs = torch.zeros_like(probs).scatter_(-1, order, sorted_p)
    token = torch.multinomial(probs, 1, generator=gen).squeeze(-1)
    return token, logp.gather(-1, token[:, None]).squeeze(-1)


def _eos_ids(model: Any, tokenizer: Any) -> set[int]:
    ids: set[int] = set()
    if getattr(tokenizer, "eos_token_id", None) is not None:
        ids.add(int(tokenizer.eos_token_id))
    gen_cfg = getattr(model, "generation_config", None)
    cfg_eos = getattr(gen_cfg, "eos_token_id", None) if gen_cfg is not None else None
    if isinstance(cfg_eos, int):
        ids.add(cfg_eos)
    elif isinstance(cfg_eos, (list, tuple)):
        ids.update(int(e) for e in cfg_eos)
    return ids
