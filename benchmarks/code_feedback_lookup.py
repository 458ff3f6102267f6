"""The lookup-table policy against ``code-feedback`` on every MBPP and HumanEval row.

Issue 31: a policy that writes no solution (turn 1 a stub, then a table of every assert the
env quoted) scored 1.0 on MBPP through the env's feedback. This plays that policy (and the
``echo`` policy, whose first attempt raises and prints its own arguments) on every row of
every split, and the gold solution, and prints per dataset: rows, the lookup's mean and max
reward, the rows where it beat the format share (the reward of a fenced stub), those where it
also beat the same table built from the prompt alone (a row whose prompt shows its whole test,
as HumanEval/34's docstring does, pays that table in the single-turn task too: the dataset's
doing, not the feedback's), and the gold's mean and the rows it failed. Exit status 1 if the
feedback paid a policy more than both baselines on any row.

    RLVR_DATA_DIR=../shared/data python benchmarks/code_feedback_lookup.py [--limit N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from envs.code_feedback import CodeFeedbackEnv  # noqa: E402
from envs.probe import FAMILIES, Play  # noqa: E402

STUB = "```python\ndef _stub():\n    pass\n```"


def play(env: CodeFeedbackEnv, index: int, policy: str) -> tuple[float, float]:
    """The policy's final reward on row ``index``, and what it may earn without feedback:
    the larger of the format share and the lookup table of the prompt alone."""
    obs, _ = env.reset(options={"row": index})
    prompt_only = FAMILIES["lookup"].policy(Play(list(obs), 1, 1))
    baseline = max(env.task.score(env.row, STUB).total,
                   env.task.score(env.row, prompt_only).total)
    messages, turn, done, reward = list(obs), 0, False, 0.0
    while not done:
        turn += 1
        action = FAMILIES[policy].policy(Play(messages, turn, env.max_turns))
        obs, reward, terminated, truncated, _ = env.step(action)
        messages += obs
        done = terminated or truncated
    return reward, baseline


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="rows per split (default all)")
    parser.add_argument("--policy", action="append", help="lookup and echo by default")
    args = parser.parse_args()
    policies = args.policy or ["lookup", "echo"]
    bad = 0
    for task, splits in (("mbpp", ("prompt", "train", "validation", "test")),
                         ("humaneval", ("test",))):
        start = time.perf_counter()
        stats: dict[str, list] = {p: [] for p in policies}
        over: dict[str, list[str]] = {p: [] for p in policies}
        above_share: dict[str, list[str]] = {p: [] for p in policies}
        gold: list[float] = []
        gold_refused: list[str] = []
        for split in splits:
            env = CodeFeedbackEnv(task, split=split)
            rows = env.rows[: args.limit]
            for i, row in enumerate(rows):
                for policy in policies:
                    reward, baseline = play(env, i, policy)
                    stats[policy].append(reward)
                    if reward > env.task.score(row, STUB).total + 1e-9:
                        above_share[policy].append(row.id)
                    if reward > baseline + 1e-9:
                        over[policy].append(row.id)
                env.reset(options={"row": i})
                _, reward, *_ = env.step(env.task.reference_completion(env.row))
                gold.append(reward)
                if reward < 1.0:
                    gold_refused.append(row.id)
        result = {"task": task, "rows": len(gold), "gold_mean": round(sum(gold) / len(gold), 4),
                  "gold_below_1": gold_refused,
                  "seconds": round(time.perf_counter() - start, 1)}
        for policy in policies:
            rewards = stats[policy]
            result[policy] = {"mean": round(sum(rewards) / len(rewards), 4),
                              "max": round(max(rewards), 4),
                              "rows_above_format_share": above_share[policy],
                              "rows_above_prompt_alone": over[policy]}
            bad += len(over[policy])
        print(json.dumps(result))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
