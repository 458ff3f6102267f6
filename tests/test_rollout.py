"""The token-exact rollout bridge, driven by a scripted engine."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

import pytest
from test_envs import SumTask

from envs.base import TextEnv
from envs.guess_number import GuessNumberEnv
from envs.single_turn import SingleTurnEnv
from envs.tool_use import ToolUseEnv
from policy_opt.models import default_tokenizer
from policy_opt.rollout.engine import Generation
from policy_opt.rollout.episodes import Episode, TemplateRewritesHistory, collect_episodes


class ScriptedEngine:
    """Answers each prompt with ``policy(decoded prompt)`` encoded, then EOS.

    ``policy`` may return a list of token ids to emit them verbatim. Every emitted sequence
    is recorded so tests can check the episode kept exactly these ids.
    """

    def __init__(self, tokenizer, policy: Callable[[str], str | list[int]], *, eos: bool = True):
        self.tok, self.policy, self.eos = tokenizer, policy, eos
        self.emitted: list[list[int]] = []
        self.calls = 0

    def generate(self, prompts, *, max_new_tokens, temperature=1.0, top_p=1.0, stop=(),
                 seed=None):
        self.calls += 1
        out = []
        for ids in prompts:
            action = self.policy(self.tok.decode(ids, skip_special_tokens=False))
            if isinstance(action, str):
                action = self.tok(action, add_special_tokens=False)["input_ids"]
            ids_out = list(action) + ([self.tok.eos_token_id] if self.eos else [])
            finish = "stop"
            if len(ids_out) > max_new_tokens:
                ids_out, finish = ids_out[:max_new_tokens], "length"
            self.emitted.append(ids_out)
            out.append(Generation(ids_out, [-0.25] * len(ids_out), finish))
        return out

    def sync_weights(self, model) -> None:
        pass


# ----------------------------------------------------------------------------- tokenizers


def qwen_like():
    """The byte tokenizer with a Qwen2.5-style template: a newline after every <|im_end|>."""
    tok = default_tokenizer()
    tok.chat_template = (
        "{% for m in messages %}{{ '<|im_start|>' + m['role'] + '\n' + m['content'] + "
        "'<|im_end|>\n' }}{% endfor %}"
        "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")
    return tok


def drops_reasoning():
    """A template that, like Qwen3's, strips <think> from assistant turns before the last."""
    tok = default_tokenizer()
    tok.chat_template = (
        "{% set n = messages | length %}{% for m in messages %}"
        "{% set c = m['content'] %}"
        "{% if m['role'] == 'assistant' and not loop.last and '</think>' in c %}"
        "{% set c = c.split('</think>')[-1] %}{% endif %}"
        "{{ '<|im_start|>' + m['role'] + '\n' + c + '<|im_end|>' }}{% endfor %}"
        "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")
    return tok


def plain():
    tok = default_tokenizer()
    tok.chat_template = None
    return tok


# ----------------------------------------------------------------------------- policies


def binary_search_policy(text: str) -> str:
    # Everything after the first assistant turn is the game; the instructions come before.
    marker = re.search(r"assistant\n|Assistant:", text)
    game = text[marker.start():]
    low, high = 1, 100
    for guess, hint in re.findall(r"(\d+)(?:<\|im_end\|>)?\s*(?:<\|im_start\|>user\n|User: )"
                                  r"(Higher|Lower)\.", game):
        if hint == "Higher":
            low = int(guess) + 1
        else:
            high = int(guess) - 1
    return str((low + high) // 2)


def binary_search_turns(secret: int, low: int = 1, high: int = 100) -> int:
    turns = 0
    while True:
        turns += 1
        guess = (low + high) // 2
        if guess == secret:
            return turns
        low, high = (guess + 1, high) if secret > guess else (low, guess - 1)


def secret_for(seed: int) -> int:
    env = GuessNumberEnv()
    env.reset(seed=seed)
    return env.secret


def model_ids(ep: Episode) -> list[int]:
    return [t for t, m in zip(ep.completion_ids, ep.completion_mask) if m == 1]


def assert_token_exact(ep: Episode, tok, emitted: list[list[int]]):
    """The loss mask covers exactly the ids the engine emitted, in order."""
    assert len(ep.completion_ids) == len(ep.completion_mask) == len(ep.completion_logprobs)
    assert model_ids(ep) == [t for ids in emitted for t in ids]
    assert tok.decode(ep.prompt_ids + ep.completion_ids) == ep.info["transcript"]
    # Log-probs: the engine's on model tokens, 0.0 on env tokens.
    assert [lp for lp, m in zip(ep.completion_logprobs, ep.completion_mask) if m] == \
        [-0.25] * sum(ep.completion_mask)
    assert all(lp == 0.0 for lp, m in zip(ep.completion_logprobs, ep.completion_mask) if not m)


def emitted_per_episode(engine: ScriptedEngine, episodes: list[Episode]) -> list[list[list[int]]]:
    """Split the engine's record by episode: each call answers the live episodes in order."""
    out: list[list[list[int]]] = [[] for _ in episodes]
    live = list(range(len(episodes)))
    k = 0
    for turn in range(max(ep.info["turns"] for ep in episodes)):
        for i in live:
            out[i].append(engine.emitted[k])
            k += 1
        live = [i for i in live if episodes[i].info["turns"] > turn + 1]
    assert k == len(engine.emitted)
    return out


# ----------------------------------------------------------------------------- multi-turn


@pytest.mark.parametrize("tokenizer", [default_tokenizer, qwen_like, plain])
def test_guess_number_binary_search_is_token_exact(tokenizer):
    tok = tokenizer()
    engine = ScriptedEngine(tok, binary_search_policy)
    seeds = [0, 1, 2, 3]
    episodes = collect_episodes(GuessNumberEnv, engine, tok, seeds, 2, max_new_tokens=8,
                                max_turns=10, seed=0, workers=3)
    assert len(episodes) == 8 and [e.group for e in episodes] == [0, 0, 1, 1, 2, 2, 3, 3]
    for ep, emitted in zip(episodes, emitted_per_episode(engine, episodes)):
        secret = secret_for(seeds[ep.group])
        assert ep.reward == 1.0 and ep.info["correct"] and ep.info["terminated"]
        assert not ep.info["truncated"]
        assert ep.info["turns"] == binary_search_turns(secret) == len(emitted)
        assert ep.info["messages"][-1]["content"] == str(secret)
        assert_token_exact(ep, tok, emitted)
    # The transcript is the template's rendering of the conversation (the byte template's
    # assistant turn ends at the EOS the model sampled; Qwen's adds a newline after it).
    messages = episodes[0].info["messages"]
    if tok.chat_template:
        rendered = tok.apply_chat_template(messages, tokenize=False)
        glue = "\n" if tokenizer is qwen_like else ""
        assert episodes[0].info["transcript"] + glue == rendered
    else:
        assert episodes[0].info["transcript"].startswith("System: You are playing")


def test_env_tokens_get_mask_zero_and_include_the_template_glue():
    tok = qwen_like()
    engine = ScriptedEngine(tok, binary_search_policy)
    [ep] = collect_episodes(GuessNumberEnv, engine, tok, [0], 1, max_new_tokens=8, max_turns=10)
    # The first env block: "\n" after <|im_end|>, the reply, and the next generation prompt.
    start = ep.completion_mask.index(0)
    end = ep.completion_mask.index(1, start)
    env_text = tok.decode(ep.completion_ids[start:end])
    assert re.fullmatch(r"\n<\|im_start\|>user\n(Higher|Lower)\.<\|im_end\|>\n"
                        r"<\|im_start\|>assistant\n", env_text)


def test_tool_env_episode_through_the_bridge():
    tok = default_tokenizer()

    def policy(text: str) -> str:
        if "<|im_start|>tool\n" not in text:
            question = re.findall(r"What is (\d+) \+ (\d+)\?", text)[-1]
            return f"<calculator>{question[0]} + {question[1]}</calculator>"
        result = re.findall(r"<\|im_start\|>tool\n(\d+)<\|im_end\|>", text)[-1]
        return f"The answer is {result}.\n#### {result}"

    engine = ScriptedEngine(tok, policy)
    episodes = collect_episodes(lambda: ToolUseEnv(SumTask()), engine, tok, [0, 1, 2], 2,
                                max_new_tokens=64, max_turns=4)
    for ep, emitted in zip(episodes, emitted_per_episode(engine, episodes)):
        assert (ep.reward, ep.info["turns"], ep.info["correct"]) == (1.0, 2, True)
        assert ep.info["rubric"] == {"accuracy": 1.0} and ep.info["tool_calls"] == 1
        assert_token_exact(ep, tok, emitted)
        assert ep.info["transcript"] == tok.apply_chat_template(ep.info["messages"],
                                                                tokenize=False)
        # The tool's answer is in the env tokens (mask 0), never in the model's.
        env_text = tok.decode([t for t, m in zip(ep.completion_ids, ep.completion_mask) if not m])
        assert "<|im_start|>tool\n" in env_text
        assert "<|im_start|>tool" not in tok.decode(model_ids(ep))


def test_group_copies_share_the_prompt_and_groups_differ():
    tok = default_tokenizer()
    engine = ScriptedEngine(tok, lambda text: "#### 0")
    episodes = collect_episodes(lambda: SingleTurnEnv(SumTask()), engine, tok, [0, 1, 2, 3], 3,
                                max_new_tokens=16)
    by_group = {}
    for ep in episodes:
        by_group.setdefault(ep.group, set()).add(tuple(ep.prompt_ids))
        assert ep.info["turns"] == 1 and ep.info["terminated"]
        assert ep.completion_mask == [1] * len(ep.completion_ids)
    assert all(len(prompts) == 1 for prompts in by_group.values())
    assert len({next(iter(p)) for p in by_group.values()}) > 1
    # Same seeds, same episodes.
    again = collect_episodes(lambda: SingleTurnEnv(SumTask()), engine, tok, [0, 1, 2, 3], 3,
                             max_new_tokens=16)
    assert [e.prompt_ids for e in again] == [e.prompt_ids for e in episodes]


def test_sampled_ids_are_kept_verbatim_even_when_they_do_not_round_trip():
    tok = default_tokenizer()
    # 0xC3 alone is half a UTF-8 character: decoding gives U+FFFD, which re-encodes to three
    # other bytes. The episode must hold the byte the model sampled.
    engine = ScriptedEngine(tok, lambda text: [ord("4"), 0xC3])
    [ep] = collect_episodes(lambda: SingleTurnEnv(SumTask()), engine, tok, [0], 1,
                            max_new_tokens=8)
    assert ep.completion_ids == [ord("4"), 0xC3, tok.eos_token_id]
    assert tok(tok.decode(ep.completion_ids), add_special_tokens=False)["input_ids"] != \
        ep.completion_ids


def test_template_that_rewrites_history_fails_loudly():
    tok = drops_reasoning()
    engine = ScriptedEngine(tok, lambda text: "<think>hmm</think>50")
    with pytest.raises(TemplateRewritesHistory, match="drops earlier reasoning"):
        collect_episodes(GuessNumberEnv, engine, tok, [0], 1, max_new_tokens=32, max_turns=3)
    # Without reasoning the same template only appends, so it works.
    engine = ScriptedEngine(tok, binary_search_policy)
    [ep] = collect_episodes(GuessNumberEnv, engine, tok, [0], 1, max_new_tokens=8, max_turns=10)
    assert ep.reward == 1.0


# ----------------------------------------------------------------------------- limits


def test_max_turns_truncates_with_zero_reward():
    tok = default_tokenizer()
    engine = ScriptedEngine(tok, lambda text: "1")
    [ep] = collect_episodes(GuessNumberEnv, engine, tok, [5], 1, max_new_tokens=4, max_turns=3)
    assert (ep.reward, ep.info["turns"], ep.info["truncated"], ep.info["correct"]) == \
        (0.0, 3, True, False)
    # The episode ends with the model's last turn: no dangling env reply.
    assert ep.completion_mask[-1] == 1


def test_token_budget_truncates_the_episode():
    tok = default_tokenizer()
    engine = ScriptedEngine(tok, lambda text: "1")
    episodes = collect_episodes(GuessNumberEnv, engine, tok, [5, 6], 1, max_new_tokens=4,
                                max_turns=10, max_episode_tokens=60)
    for ep in episodes:
        assert ep.info["truncated"] and ep.reward == 0.0
        assert 0 < len(ep.completion_ids) <= 60
        assert ep.info["turns"] < 10
    # A turn longer than the room left is cut to fit.
    engine = ScriptedEngine(tok, lambda text: "7" * 50)
    [ep] = collect_episodes(GuessNumberEnv, engine, tok, [5], 1, max_new_tokens=64,
                            max_turns=10, max_episode_tokens=20)
    assert len(ep.completion_ids) == 20 and ep.info["truncated"]


def test_length_cut_turn_gets_the_end_of_turn_marker_as_env_tokens():
    tok = default_tokenizer()
    engine = ScriptedEngine(tok, binary_search_policy, eos=False)
    [ep] = collect_episodes(GuessNumberEnv, engine, tok, [0], 1, max_new_tokens=8, max_turns=10)
    assert ep.reward == 1.0
    first_env = ep.completion_mask.index(0)
    assert ep.completion_ids[first_env] == tok.eos_token_id  # <|im_end|> added, mask 0
    assert tok.decode(ep.prompt_ids + ep.completion_ids) == ep.info["transcript"]


# ----------------------------------------------------------------------------- concurrency


class BarrierEnv(TextEnv):
    """step() waits until ``parties`` steps are in flight at once (fails, never hangs)."""

    def __init__(self, barrier: threading.Barrier, timeout: float = 30.0):
        super().__init__(max_turns=1)
        self.barrier, self.timeout = barrier, timeout

    def _start(self, options):
        return [{"role": "user", "content": "go"}]

    def _respond(self, text):
        self.barrier.wait(timeout=self.timeout)
        return [], 1.0, True, {"correct": True}


def test_env_steps_of_a_batch_run_concurrently():
    tok = default_tokenizer()
    barrier = threading.Barrier(6)
    engine = ScriptedEngine(tok, lambda text: "ok")
    episodes = collect_episodes(lambda: BarrierEnv(barrier), engine, tok, [0, 1, 2], 2,
                                max_new_tokens=4, workers=6)
    assert [e.reward for e in episodes] == [1.0] * 6
    # With one worker the steps run one at a time, in the calling thread, so two can never
    # meet at the barrier.
    threads = set()
    engine_inline = ScriptedEngine(tok, lambda text: "ok")

    class ThreadEnv(BarrierEnv):
        def _respond(self, text):
            threads.add(threading.get_ident())
            return [], 1.0, True, {"correct": True}

    collect_episodes(lambda: ThreadEnv(None), engine_inline, tok, [0, 1], 2, max_new_tokens=4,
                     workers=1)
    assert threads == {threading.get_ident()}
    barrier = threading.Barrier(2)
    with pytest.raises(threading.BrokenBarrierError):
        collect_episodes(lambda: BarrierEnv(barrier, timeout=0.2), engine, tok, [0], 2,
                         max_new_tokens=4, workers=1)


class NoSignalEnv(TextEnv):
    def _start(self, options):
        return [{"role": "user", "content": "q"}]

    def _respond(self, text):
        return [], 0.0, True, {"no_signal": True}


def test_no_signal_becomes_reward_none():
    tok = default_tokenizer()
    [ep] = collect_episodes(NoSignalEnv, ScriptedEngine(tok, lambda t: "a"), tok, [0], 1,
                            max_new_tokens=4)
    assert ep.reward is None


def test_bad_arguments_name_the_argument():
    tok = default_tokenizer()
    engine = ScriptedEngine(tok, lambda t: "a")
    for kwargs, name in [({"group_size": 0}, "group_size"), ({"max_new_tokens": 0},
                         "max_new_tokens"), ({"workers": 0}, "workers"),
                         ({"max_turns": 0}, "max_turns")]:
        args = {"group_size": 1, "max_new_tokens": 4, **kwargs}
        group_size = args.pop("group_size")
        with pytest.raises(ValueError, match=name):
            collect_episodes(NoSignalEnv, engine, tok, [0], group_size, **args)
    assert collect_episodes(NoSignalEnv, engine, tok, [], 2, max_new_tokens=4) == []


# ----------------------------------------------------------------------------- real engine


def test_bridge_with_the_transformers_engine_and_a_tiny_random_model():
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    from policy_opt.rollout.engine import TransformersEngine

    tok = default_tokenizer()
    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(
        vocab_size=len(tok), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=1024,
        eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id)).eval()
    engine = TransformersEngine(model, tok)

    def roll():
        return collect_episodes(lambda: GuessNumberEnv(max_turns=3), engine, tok, [0, 1], 2,
                                max_new_tokens=6, max_turns=2, seed=7, workers=2)

    episodes = roll()
    for ep in episodes:
        assert tok.decode(ep.prompt_ids + ep.completion_ids) == ep.info["transcript"]
        assert len(ep.completion_logprobs) == len(ep.completion_ids)
        assert 1 <= ep.info["turns"] <= 2 and 0 < sum(ep.completion_mask) <= 12
    assert [e.completion_ids for e in roll()] == [e.completion_ids for e in episodes]


def test_a_conversation_that_outgrows_the_models_context_is_truncated():
    tok = default_tokenizer()

    class ShortContext(ScriptedEngine):
        max_context = 10**9  # lowered below, once the lengths are known

        def generate(self, prompts, **kw):
            # The engine raises ContextOverflow on a full prompt: the bridge never sends one.
            assert all(len(p) < self.max_context for p in prompts)
            return super().generate(prompts, **kw)

    engine = ShortContext(tok, lambda text: "1")
    [ep] = collect_episodes(GuessNumberEnv, engine, tok, [5], 1, max_new_tokens=4, max_turns=10)
    prompt, turn = len(ep.prompt_ids), len(ep.completion_ids) // ep.info["turns"] + 1
    engine = ShortContext(tok, lambda text: "1")
    engine.max_context = prompt + 3 * turn
    [ep] = collect_episodes(GuessNumberEnv, engine, tok, [5], 1, max_new_tokens=4, max_turns=10)
    assert ep.info["truncated"] and ep.reward == 0.0 and 1 < ep.info["turns"] < 10
    assert len(ep.prompt_ids) + len(ep.completion_ids) < engine.max_context
    assert ep.completion_mask[-1] == 1  # it ends on the model's turn, not a dangling reply


def test_a_completion_cut_at_its_token_limit_is_marked_length_cut():
    from policy_opt.training.metrics import episode_stats, rollout_metrics

    tok = default_tokenizer()
    long = collect_episodes(GuessNumberEnv, ScriptedEngine(tok, lambda text: "7" * 50), tok,
                            [5], 2, max_new_tokens=4, max_turns=1)
    short = collect_episodes(GuessNumberEnv, ScriptedEngine(tok, lambda text: "1"), tok,
                             [5], 2, max_new_tokens=4, max_turns=1)
    assert [e.info["length_cut"] for e in long + short] == [True, True, False, False]
    # The turn limit truncates both alike; only the cut completions count as clipped.
    metrics = rollout_metrics([episode_stats(e) for e in long + short], group_size=2)
    assert metrics["truncated"] == 1.0 and metrics["clipped"] == 0.5
