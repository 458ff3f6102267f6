"""The token-exact bridge between text environments and a rollout engine.

``collect_episodes`` runs ``group_size`` copies of an env per prompt seed (all reset with the
same seed, so a group shares its prompt) and owns the tokens:

- the prompt is the chat template's rendering of the env's first messages with the
  generation prompt (``Role: content`` plain text for tokenizers without a template);
- the ids the engine sampled are appended verbatim, loss mask 1 (never decoded and
  re-tokenised: ``decode(encode(text))`` is not the identity for most tokenizers);
- the env's reply messages are tokenised once, as the chat-template *delta*
  ``render(history + reply, add_generation_prompt=True)[len(render(history)):]``, loss mask 0,
  preceded by whatever closes the assistant turn in the template that the model did not
  sample itself (for example ``"\\n"`` after ``<|im_end|>``).

When the model ends its turn with a special token the template does not use to close a turn
(``<|endoftext|>`` where the template writes ``<|im_end|>``), the sampled token stays and the
template's closing follows it as env tokens: the ids always say what the model saw.

The delta is only right when rendering a longer conversation extends the rendering of the
shorter one. Templates that rewrite history (Qwen3's drops earlier ``<think>`` blocks) break
that, and the bridge raises ``TemplateRewritesHistory`` instead of silently re-tokenising.

Each turn sends every live episode to one ``engine.generate`` call; the ``env.step`` calls of
the batch run in a thread pool so a slow verifier (a code sandbox) does not serialise them.

Example:
    >>> import envs
    >>> from policy_opt.models import default_tokenizer
    >>> episodes = collect_episodes(lambda: envs.make("guess-number"), engine,  # doctest: +SKIP
    ...                             default_tokenizer(), seeds=[0, 1], group_size=4,
    ...                             max_new_tokens=8, max_turns=10)
    >>> len(episodes), episodes[0].group, episodes[4].group  # doctest: +SKIP
    (8, 0, 1)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# A string no template will produce by itself: rendering an assistant message with it as the
# content shows what the template writes after the content (the end-of-turn glue).
_SENTINEL = "\x00rlvr-content-sentinel\x00"


class TemplateRewritesHistory(RuntimeError):
    """The chat template renders earlier turns differently once a new message is added, so
    the env's reply cannot be tokenised as a delta after the ids already sampled."""


@dataclass
class Episode:
    """One rollout, as the trainer consumes it.

    ``prompt_ids``: the first prompt (chat template applied), loss mask 0.
    ``completion_ids``: everything after it (model tokens and env-message tokens).
    ``completion_mask``: 1 on tokens the model sampled, 0 on env-message tokens.
    ``reward``: the sum of the env's rewards (the sequence reward); ``None`` = no signal.
    ``group``: which prompt seed of the batch (``group_size`` episodes share one).
    ``info``: the env's final info (``rubric``, ``correct``, ...) plus ``turns``,
    ``truncated``, ``terminated``, ``length_cut`` (a model turn was cut at its token limit:
    ``max_new_tokens``, the model's context or the episode budget, rather than ended by the
    model), ``messages`` and ``transcript`` (the decoded ids).
    ``completion_logprobs``: the engine's sampling log-probs aligned with
    ``completion_ids`` (0.0 on env tokens), or ``None`` when the engine kept none.
    """

    prompt_ids: list[int]
    completion_ids: list[int]
    completion_mask: list[int]
    reward: float | None
    group: int
    info: dict = field(default_factory=dict)
    completion_logprobs: list[float] | None = None


# --------------------------------------------------------------------------- rendering


class ChatRenderer:
    """Renders messages with the tokenizer's chat template, or as plain text without one.

    Example:
        >>> from policy_opt.models import default_tokenizer
        >>> r = ChatRenderer(default_tokenizer())
        >>> r.render([{"role": "user", "content": "hi"}], generation_prompt=True)
        '<|im_start|>user\\nhi<|im_end|><|im_start|>assistant\\n'
    """

    def __init__(self, tokenizer: Any):
        self.tokenizer = tokenizer
        self.templated = bool(getattr(tokenizer, "chat_template", None))

    def render(self, messages: Sequence[dict], *, generation_prompt: bool) -> str:
        messages = [dict(m) for m in messages]
        if self.templated:
            return self.tokenizer.apply_chat_template(
                messages, tokenize=False, add_generation_prompt=generation_prompt)
        from tasks.prompts import render_plain

        return render_plain(messages, add_generation_prompt=generation_prompt)

    def encode(self, text: str, *, first: bool = False) -> list[int]:
        # A chat template writes its own BOS; a plain-text prompt gets the tokenizer's.
        special = first and not self.templated
        return list(self.tokenizer(text, add_special_tokens=special)["input_ids"])

    def decode(self, ids: Sequence[int], *, skip_special: bool) -> str:
        return self.tokenizer.decode(list(ids), skip_special_tokens=skip_special,
                                     clean_up_tokenization_spaces=False)

    def turn_end(self, history: Sequence[dict]) -> str:
        """What the template writes after an assistant message's content."""
        text = self.render([*history, {"role": "assistant", "content": _SENTINEL}],
                           generation_prompt=False)
        if text.count(_SENTINEL) != 1:
            raise TemplateRewritesHistory(
                "the chat template does not render an assistant message's content verbatim "
                "exactly once, so the end of an assistant turn cannot be located")
        return text.split(_SENTINEL, 1)[1]


# --------------------------------------------------------------------------- one episode


@dataclass
class _Running:
    env: Any
    group: int
    messages: list[dict]
    prompt_ids: list[int]
    rendered: str  # the template's rendering of `messages` with the generation prompt
    transcript: str  # what the ids decode to, piece by piece
    completion_ids: list[int] = field(default_factory=list)
    completion_mask: list[int] = field(default_factory=list)
    logprobs: list[float] | None = field(default_factory=list)
    reward: float = 0.0
    no_signal: bool = False
    length_cut: bool = False  # a model turn ended at its token limit, not by the model
    turns: int = 0
    done: bool = False
    terminated: bool = False
    truncated: bool = False
    final_info: dict = field(default_factory=dict)

    def episode(self) -> Episode:
        info = dict(self.final_info)
        info.pop("turn", None)
        info.update(turns=self.turns, terminated=self.terminated, truncated=self.truncated,
                    length_cut=self.length_cut, messages=[dict(m) for m in self.messages], transcript=self.transcript)
        info.setdefault("correct", False)
        return Episode(self.prompt_ids, self.completion_ids, self.completion_mask,
                       None if self.no_signal else self.reward, self.group, info,
                       self.logprobs)


def _reply_delta(ep: _Running, renderer: ChatRenderer, sampled: list[int],
                 reply: list[dict]) -> tuple[str, str]:
    """The text to tokenise after the model's turn: the end-of-turn glue the model did not
    sample, the env's reply and the next generation prompt. Returns ``(delta, rendered)``
    where ``rendered`` is the template's rendering of the conversation with the reply."""
    history = ep.messages[:-1]
    closed = renderer.render(ep.messages, generation_prompt=False)
    following = renderer.render([*ep.messages, *reply], generation_prompt=True)
    if not closed.startswith(ep.rendered):
        raise TemplateRewritesHistory(
            "rendering the assistant's turn changed the text before it (the generation prompt "
            "is not a prefix of the rendered assistant message), so the sampled ids cannot be "
            f"followed by a template delta. Turn {ep.turns}, assistant content "
            f"{ep.messages[-1]['content'][:80]!r}")
    if not following.startswith(closed):
        raise TemplateRewritesHistory(
            "the chat template renders earlier turns differently once the env's reply is "
            "added (for example it drops earlier reasoning), so the reply cannot be tokenised "
            "as a delta after the ids already sampled. Use a template that only appends, or "
            "single-turn episodes.")
    end = renderer.turn_end(history)
    # The model may have sampled the start of the end-of-turn glue itself (its EOS): that
    # stays as sampled and only the rest is added.
    special = set(getattr(renderer.tokenizer, "all_special_ids", ()) or ())
    if sampled and sampled[-1] in special:
        last = renderer.decode(sampled[-1:], skip_special=False)
        if last and end.startswith(last):
            end = end[len(last):]
    return end + following[len(closed):], following


# --------------------------------------------------------------------------- the batch


def _turn_seed(seed: int, turn: int) -> int:
    return int(np.random.SeedSequence([seed, turn]).generate_state(1)[0])


def _make_env(make_env: Callable[[], Any] | str) -> Any:
    if isinstance(make_env, str):
        import envs

        return envs.make(make_env)
    return make_env()


def collect_episodes(
    make_env: Callable[[], Any] | str,
    engine: Any,
    tokenizer: Any,
    seeds: Sequence[int],
    group_size: int,
    *,
    max_new_tokens: int,
    max_turns: int = 1,
    temperature: float = 1.0,
    top_p: float = 1.0,
    seed: int = 0,
    workers: int = 4,
    max_episode_tokens: int | None = None,
) -> list[Episode]:
    """Roll out ``group_size`` episodes for each seed in ``seeds``; group-major order.

    Arguments:
        make_env: a zero-argument factory of envs (or an ``envs.make`` name).
        engine: anything with ``generate(prompts, *, max_new_tokens, temperature, top_p,
            seed) -> list[Generation]``.
        tokenizer: a transformers tokenizer (its chat template is used when it has one).
        seeds: one env seed per prompt; the ``group_size`` copies share it.
        max_new_tokens: per model turn.
        max_turns: model turns per episode; an episode still running after them is
            truncated (reward = what the env gave so far, usually 0).
        temperature, top_p: sampling; ``seed`` seeds the engine (each turn gets its own
            seed derived from it).
        workers: threads for ``env.reset`` / ``env.step`` (1 = sequential).
        max_episode_tokens: a budget for ``completion_ids`` (model and env tokens); the
            episode is truncated when it runs out. ``None``: no budget. An engine with a
            ``max_context`` (tokens per row) truncates an episode the same way when the
            env's reply would leave no room in it.

    Returns:
        ``len(seeds) * group_size`` episodes, ``group_size`` consecutive ones per seed.
    """
    if group_size < 1:
        raise ValueError(f"group_size must be >= 1, got {group_size}")
    if max_new_tokens < 1:
        raise ValueError(f"max_new_tokens must be >= 1, got {max_new_tokens}")
    if max_turns < 1:
        raise ValueError(f"max_turns must be >= 1, got {max_turns}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    if max_episode_tokens is not None and max_episode_tokens < 1:
        raise ValueError(f"max_episode_tokens must be >= 1 or None, got {max_episode_tokens}")
    seeds = [int(s) for s in seeds]
    if not seeds:
        return []
    renderer = ChatRenderer(tokenizer)
    budget = max_episode_tokens if max_episode_tokens is not None else float("inf")

    # The G episodes of a group reset to the same messages: render and tokenise them once.
    rendered: dict[str, tuple[str, list[int]]] = {}

    # One worker runs inline: a thread would only add hand-offs and GIL contention.
    with (ThreadPoolExecutor(max_workers=workers) if workers > 1 else _Inline()) as pool:

        def start(job: tuple[int, int]) -> _Running:
            group, env_seed = job
            env = _make_env(make_env)
            messages, _ = env.reset(seed=env_seed)
            messages = [dict(m) for m in messages]
            key = repr(messages)
            if key not in rendered:
                text = renderer.render(messages, generation_prompt=True)
                rendered[key] = (text, renderer.encode(text, first=True))
            text, ids = rendered[key]
            return _Running(env, group, messages, list(ids), text, text)

        jobs = [(g, s) for g, s in enumerate(seeds) for _ in range(group_size)]
        running = list(pool.map(start, jobs))
        try:
            _run_turns(running, pool, engine, renderer, max_new_tokens=max_new_tokens,
                       max_turns=max_turns, temperature=temperature, top_p=top_p, seed=seed,
                       budget=budget)
        finally:
            for ep in running:
                ep.env.close()
    return [ep.episode() for ep in running]


class _Inline(contextlib.AbstractContextManager):
    """``ThreadPoolExecutor``'s ``map`` run in the calling thread."""

    def __exit__(self, *exc: object) -> None:
        return None

    @staticmethod
    def map(fn: Callable, *iterables: Any) -> Iterator:
        return map(fn, *iterables)


def _run_turns(running: list[_Running], pool: ThreadPoolExecutor | _Inline, engine: Any,
               renderer: ChatRenderer, *, max_new_tokens: int, max_turns: int,
               temperature: float, top_p: float, seed: int, budget: float) -> None:
    """Up to ``max_turns`` rounds of: one batched generate, concurrent env steps, deltas."""
    context = getattr(engine, "max_context", None)
    for turn in range(max_turns):
        live = [ep for ep in running if not ep.done]
        if not live:
            break
        room = [budget - len(ep.completion_ids) for ep in live]
        generations = engine.generate(
            [ep.prompt_ids + ep.completion_ids for ep in live],
            max_new_tokens=int(min(max_new_tokens, max(room))),
            temperature=temperature, top_p=top_p, seed=_turn_seed(seed, turn),
        )
        if len(generations) != len(live):
            raise RuntimeError(f"engine.generate returned {len(generations)} generations "
                               f"for {len(live)} prompts")
        actions = []
        sampled_turn: dict[int, list[int]] = {}
        for ep, gen, left in zip(live, generations, room):
            ids = [int(t) for t in gen.token_ids]
            logprobs = gen.logprobs
            ep.length_cut = ep.length_cut or getattr(gen, "finish_reason", None) == "length"
            if len(ids) > left:  # the episode's token budget cuts this turn short
                ids = ids[: int(left)]
                logprobs = None if logprobs is None else logprobs[: int(left)]
                ep.length_cut = True
            sampled_turn[id(ep)] = ids
            ep.completion_ids += ids
            ep.completion_mask += [1] * len(ids)
            if ep.logprobs is not None:
                ep.logprobs = None if logprobs is None else ep.logprobs + list(logprobs)
            ep.transcript += renderer.decode(ids, skip_special=False)
            text = renderer.decode(ids, skip_special=True)
            ep.messages.append({"role": "assistant", "content": text})
            ep.turns += 1
            actions.append(text)

        results = list(pool.map(lambda pair: pair[0].env.step(pair[1]), zip(live, actions)))

        for ep, (reply, reward, terminated, truncated, info) in zip(live, results):
            ep.reward += float(reward)
            ep.no_signal = ep.no_signal or bool(info.get("no_signal"))
            ep.final_info = dict(info)
            if terminated or truncated:
                ep.done, ep.terminated, ep.truncated = True, bool(terminated), bool(truncated)
                continue
            if turn + 1 >= max_turns or len(ep.completion_ids) >= budget:
                ep.done, ep.truncated = True, True
                ep.final_info["truncated"] = True
                continue
            reply = [dict(m) for m in reply]
            text, rendered = _reply_delta(ep, renderer, sampled_turn[id(ep)], reply)
            delta = renderer.encode(text) if text else []
            total = len(ep.prompt_ids) + len(ep.completion_ids) + len(delta)
            if len(ep.completion_ids) + len(delta) >= budget or (
                    context is not None and total >= context):
                # No room for the reply and one more sampled token (in the episode's budget
                # or the model's context).
                ep.done, ep.truncated = True, True
                ep.final_info["truncated"] = True
                continue
            ep.messages.extend(reply)
            ep.rendered = rendered
            ep.transcript += text
            ep.completion_ids += delta
            ep.completion_mask += [0] * len(delta)
            if ep.logprobs is not None:
                ep.logprobs += [0.0] * len(delta)
