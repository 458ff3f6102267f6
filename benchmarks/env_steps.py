"""Env steps per second through the rollout bridge, sequential vs concurrent env steps.

Each case rolls out the same episodes twice with ``collect_episodes``: once with
``workers=1`` (every ``env.step`` of a batch after the other: the baseline) and once with a
thread pool (``--workers``). An instant scripted engine stands in for the model, so the time
is the envs' own (verifiers, sandbox) plus the bridge's tokenisation. Printed: steps/s for
both and the ratio concurrent / sequential.

    RLVR_DATA_DIR=../shared/data python benchmarks/env_steps.py            # all cases
    RLVR_DATA_DIR=../shared/data python benchmarks/env_steps.py --quick    # fewer episodes

The thread pool pays off when a step waits (a remote judge; the code sandbox, which runs in
worker processes, as many as there are CPUs); a pure-Python verifier holds the GIL, and for
a trivial env (guess-number) the pool's overhead is larger than the step.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from envs.code_feedback import CodeFeedbackEnv  # noqa: E402
from envs.guess_number import GuessNumberEnv  # noqa: E402
from envs.single_turn import SingleTurnEnv  # noqa: E402
from policy_opt.models import default_tokenizer  # noqa: E402
from policy_opt.rollout.engine import Generation  # noqa: E402
from policy_opt.rollout.episodes import collect_episodes  # noqa: E402


class FixedEngine:
    """Answers every prompt with the same text (encoded once) and EOS: no model time."""

    def __init__(self, tokenizer, text: str):
        self.ids = tokenizer(text, add_special_tokens=False)["input_ids"] + [tokenizer.eos_token_id]

    def generate(self, prompts, *, max_new_tokens, temperature=1.0, top_p=1.0, stop=(), seed=None):
        return [Generation(list(self.ids[:max_new_tokens]), None, "stop") for _ in prompts]

    def sync_weights(self, model) -> None:
        pass


class RemoteJudgeEnv(SingleTurnEnv):
    """arithmetic, with a 50 ms wait per step standing in for a remote verifier (an LLM
    judge or a sandbox service): the step waits without holding the GIL or a CPU."""

    def _respond(self, text):
        time.sleep(0.05)
        return super()._respond(text)


WRONG_CODE = "```python\ndef solution(*args):\n    return None\n```"

CASES = {
    # name: (kind, env factory, the engine's text, max_turns)
    "arithmetic (single-turn, in-process verifier)": (
        "single",
        lambda: SingleTurnEnv("arithmetic"),
        "#### 4",
        1,
    ),
    "arithmetic + 50 ms remote judge (single-turn, waits)": (
        "single",
        lambda: RemoteJudgeEnv("arithmetic"),
        "#### 4",
        1,
    ),
    "mbpp (single-turn, sandbox)": ("single", lambda: SingleTurnEnv("mbpp"), WRONG_CODE, 1),
    "guess-number (multi-turn, 10 turns)": (
        "multi",
        lambda: GuessNumberEnv(low=1, high=10**6),
        "500000",
        10,
    ),
    "code-feedback mbpp (multi-turn, 3 attempts, sandbox)": (
        "multi",
        lambda: CodeFeedbackEnv("mbpp"),
        WRONG_CODE,
        3,
    ),
}


def run(make_env, engine, tok, *, episodes: int, max_turns: int, workers: int) -> tuple[int, float]:
    start = time.perf_counter()
    eps = collect_episodes(
        make_env,
        engine,
        tok,
        list(range(episodes)),
        1,
        max_new_tokens=64,
        max_turns=max_turns,
        workers=workers,
    )
    return sum(e.info["turns"] for e in eps), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=32)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--quick", action="store_true", help="8 episodes per case")
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    args = parser.parse_args()
    episodes = 8 if args.quick else args.episodes
    if not os.environ.get("RLVR_DATA_DIR"):
        data = Path(__file__).resolve().parents[2] / "shared" / "data"
        if data.is_dir():
            os.environ["RLVR_DATA_DIR"] = str(data)
    tok = default_tokenizer()
    print(
        f"episodes per case: {episodes}; concurrent = thread pool of {args.workers}; "
        f"cpus: {os.cpu_count()}"
    )
    print(f"{'case':<55} {'seq steps/s':>12} {'conc steps/s':>13} {'ratio':>7}")
    for name, (_, make_env, text, max_turns) in CASES.items():
        if args.only not in name:
            continue
        engine = FixedEngine(tok, text)
        run(make_env, engine, tok, episodes=2, max_turns=max_turns, workers=2)  # warm caches
        steps_seq, t_seq = run(
            make_env, engine, tok, episodes=episodes, max_turns=max_turns, workers=1
        )
        steps_conc, t_conc = run(
            make_env, engine, tok, episodes=episodes, max_turns=max_turns, workers=args.workers
        )
        assert steps_seq == steps_conc, (steps_seq, steps_conc)
        seq, conc = steps_seq / t_seq, steps_conc / t_conc
        print(f"{name:<55} {seq:>12.1f} {conc:>13.1f} {conc / seq:>6.2f}x")


if __name__ == "__main__":
    main()
