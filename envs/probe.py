"""Play scripted adversarial policies against an env and report every exploit they find.

The env-level sibling of ``python -m verifiers probe``: a reward can be sound one completion
at a time and still be farmed over an episode (feedback that quotes the answer key, a flood
that overflows the observation, a reward paid after the episode ended). Each *family* is a
policy, ``fn(play) -> action``, that sees what a model would see (``play.messages``, every
message the env sent) and the turn number; the runner plays it for ``rows`` episodes
(seeds ``seed, seed + 1, ...``) under Gymnasium's passive checker and reports:

- **paid**: the family's mean reward reached ``threshold`` (default 0.5);
- **space**: an observation outside ``observation_space``, a non-finite reward, or any
  other warning of Gymnasium's passive checker;
- **endless**: no end after ``max_steps`` steps; **slow**: a step took over ``step_timeout``;
- **crash**: ``reset`` or ``step`` raised on a ``str`` action;
- two built-in checks: **after_end** (a step after the end must raise, never pay) and
  **malformed** (``None``, bytes, a number, a message list: a clear ``TypeError`` or
  ``ValueError``, never a reward, and the episode goes on).

Example:
    >>> report = probe("guess-number", rows=2, families=["stall", "after_end"])
    >>> report.passed, [f.family for f in report.findings]
    (True, [])
"""

from __future__ import annotations

import ast
import math
import re
import time
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium

from envs.base import show

Policy = Callable[["Play"], Any]


@dataclass
class Play:
    """What a policy sees: the env's messages so far (prompt and replies, never its own
    actions), the model turn about to be played (1-based), and the env's turn limit when it
    declares one (``max_turns``)."""

    messages: list[dict[str, str]]
    turn: int
    max_turns: int | None

    @property
    def last_turn(self) -> bool:
        return self.max_turns is not None and self.turn >= self.max_turns

    @property
    def text(self) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.messages)


@dataclass(frozen=True)
class Family:
    name: str
    policy: Policy
    doc: str


FAMILIES: dict[str, Family] = {}
CHECKS = ("after_end", "malformed")  # built into the runner, not policies


def family(name: str) -> Callable[[Policy], Policy]:
    """Register ``fn(play) -> action`` as the family ``name`` (its docstring is the
    description ``--list-families`` prints)."""

    def register(fn: Policy) -> Policy:
        FAMILIES[name] = Family(name, fn, (fn.__doc__ or "").strip().split("\n")[0])
        return fn

    return register


# ----------------------------------------------------------------------- what policies read

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?!\w|\.\d)")
_QUOTED = re.compile(r"'([^'\n]{1,200})'|\"([^\"\n]{1,200})\"")
_DEF = re.compile(r"\bdef\s+([A-Za-z_]\w*)\s*\(")
_CALL_EQ = re.compile(r"([A-Za-z_]\w*)\s*\(")


def literals(text: str) -> list[str]:
    """Every number and quoted string in ``text``, first seen first, without repeats.

    Example:
        >>> literals('assert f("abc") == 3 and 3 < 4.5. It was 7.')
        ['abc', '3', '4.5', '7']
    """
    found = [(m.start(), m.group(0)) for m in _NUMBER.finditer(text)]
    found += [(m.start(), m.group(1) or m.group(2)) for m in _QUOTED.finditer(text)]
    return list(dict.fromkeys(value for _, value in sorted(found)))


def _literal(node: ast.AST) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False, None


def call_table(text: str) -> tuple[list[str], list[tuple[tuple, Any]]]:
    """The function names and ``(args, value)`` pairs of every ``name(args) == value`` in
    ``text`` whose arguments and value are literals: what a lookup-table policy can copy.

    Example:
        >>> call_table('Test 2: assert f("ab", 2) == "b"\\ndef g(x):')
        (['g', 'f'], [(('ab', 2), 'b')])
    """
    names: list[str] = list(_DEF.findall(text))
    table: list[tuple[tuple, Any]] = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        # a doctest pair ">>> f(x)" / "value" reads as "f(x) == value"
        if line.strip().startswith(">>>") and i + 1 < len(lines) and lines[i + 1].strip():
            line = f"{line.strip()[3:]} == {lines[i + 1].strip()}"
        if "==" not in line or len(line) > 5_000:
            continue
        for match in _CALL_EQ.finditer(line):
            try:
                tree = ast.parse(line[match.start():].strip().rstrip(".,;:"), mode="eval")
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            node = tree.body
            if not (isinstance(node, ast.Compare) and isinstance(node.ops[0], ast.Eq)
                    and isinstance(node.left, ast.Call) and isinstance(node.left.func, ast.Name)):
                continue
            args = [_literal(a) for a in node.left.args]
            ok, value = _literal(node.comparators[0])
            if ok and all(a_ok for a_ok, _ in args) and not node.left.keywords:
                names.append(node.left.func.id)
                table.append((tuple(a for _, a in args), value))
            break
    return list(dict.fromkeys(names)), table


def lookup_program(text: str) -> str:
    """A fenced Python program that answers every call it has seen in ``text`` from a table
    and knows nothing else: the policy that farms a code env whose feedback quotes tests.

    Example:
        >>> print(lookup_program("assert add(1, 2) == 3").splitlines()[1])
        _T = [((1, 2), 3)]
    """
    names, table = call_table(text)
    lines = [f"_T = {table!r}", "", "def _look(*args, **kwargs):",
             "    for key, value in _T:", "        if key == args:", "            return value",
             "    return None", ""]
    lines += [f"{name} = _look" for name in names if name not in ("_look", "print")]
    return "```python\n" + "\n".join(lines) + "\n```"


def answers(values: Sequence[str]) -> str:
    """``values`` written as answers in every format a built-in task reads."""
    return "\n".join(f"{v}\n\\boxed{{{v}}}\n<answer>{v}</answer>\n#### {v}" for v in values)


# ----------------------------------------------------------------------- the families


@family("lookup")
def lookup(play: Play) -> str:
    """Turn 1 a stub; then a table of every literal and assert the env ever sent."""
    if play.turn == 1 and not play.last_turn:
        return "```python\ndef _stub():\n    pass\n```"
    seen = literals(play.text)
    return lookup_program(play.text) + "\n" + answers(seen[-1:])


@family("echo")
def echo(play: Play) -> str:
    """Turn 1 code that prints and raises its arguments; then the lookup table.

    The exception class is named after the arguments too, so an env that quotes the
    class name of a hidden test's error leaks its inputs."""
    if play.turn == 1 and not play.last_turn:
        names = call_table(play.text)[0] or ["solve"]
        body = ["def _echo(*args, **kwargs):", "    print('ARGS', repr(args))",
                "    raise type('Leak_' + ''.join(c for c in repr(args) if c.isalnum()),"
                " (Exception,), {})(repr(args))", ""]
        return "```python\n" + "\n".join(body + [f"{n} = _echo" for n in names]) + "\n```"
    return lookup(play)


@family("several")
def several(play: Play) -> str:
    """Every literal seen and the integers 0..100, as answers in every format, one turn."""
    values = literals(play.text) + [str(i) for i in range(101)]
    return answers(list(dict.fromkeys(values)))


@family("stall")
def stall(play: Play) -> str:
    """Never answer: the episode must end (truncated) and pay nothing."""
    return "Let me think about it some more."


@family("flood")
def flood(play: Play) -> str:
    """A hundred tool calls, code blocks and answers in one turn."""
    return ("<calculator>1</calculator>" * 100
            + '<tool_call>{"name": "calculator", "arguments": {"expression": "2"}}</tool_call>'
            * 100 + "```python\npass\n```\n" * 100 + answers(["1"]) * 100)


@family("huge")
def huge(play: Play) -> str:
    """10 MB of filler, then every literal seen as answers."""
    return "x" * 10_000_000 + "\n" + answers(literals(play.text)[-20:])


# ----------------------------------------------------------------------- the runner


@dataclass
class Finding:
    family: str
    kind: str  # paid | space | endless | slow | crash | after_end | malformed
    detail: str
    seed: int | None = None
    actions: list[Any] = field(default_factory=list)


@dataclass
class Report:
    env: str
    rows: int
    seed: int
    families: dict[str, dict[str, Any]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.findings


def paste(value: Any, limit: int | None = 2_000) -> str:
    """``value`` as a short Python expression: a long run of one unit is written
    ``'unit' * n``; past ``limit`` characters the rest is cut (``None``: never).

    Example:
        >>> paste("ab" * 500 + "!")
        "'ab' * 500 + '!'"
    """
    if not isinstance(value, str) or len(value) <= 300:
        return repr(value)
    for width in range(1, 65):
        unit = value[:width]
        run = re.match(f"(?:{re.escape(unit)})+", value)
        count = (run.end() if run else 0) // width
        if count * width >= 100:
            rest = value[count * width:]
            head = f"{unit!r} * {count}"
            return f"{head} + {paste(rest, limit)}" if rest else head
    if limit is None or len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r} + <{len(value) - limit} chars cut>"


def episode_code(env_name: str, seed: int | None, actions: Sequence[Any],
                 limit: int | None = 2_000) -> str:
    """The episode as lines to paste into a test (``limit``: as for ``paste``)."""
    lines = ["import envs", f"env = envs.make({env_name!r}).unwrapped",
             f"obs, info = env.reset(seed={seed!r})"]
    lines += [f"print(env.step({paste(a, limit)})[1:4])" for a in actions]
    return "\n".join(lines)


def _checked(call: Callable[[], Any]) -> tuple[Any, list[str], float]:
    """``call()``'s result, the passive checker's warnings and the seconds it took."""
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [str(w.message) for w in caught], time.perf_counter() - start


class _Runner:
    def __init__(self, name: str, make: Callable[[], gymnasium.Env], *, rows: int, seed: int,
                 threshold: float, max_steps: int, step_timeout: float) -> None:
        self.name, self.make, self.rows, self.seed = name, make, rows, seed
        self.threshold, self.max_steps, self.step_timeout = threshold, max_steps, step_timeout

    def _reset(self, env: gymnasium.Env, seed: int) -> tuple[Any, list[str]]:
        from gymnasium.utils.passive_env_checker import env_reset_passive_checker

        (obs, _), warned, _ = _checked(lambda: env_reset_passive_checker(env, seed=seed))
        if obs not in env.observation_space:
            warned.append(f"reset observation outside the space: {show(obs, 200)}")
        return obs, warned

    def _step(self, env: gymnasium.Env, action: Any) -> tuple[tuple, list[str], float]:
        from gymnasium.utils.passive_env_checker import env_step_passive_checker

        result, warned, took = _checked(lambda: env_step_passive_checker(env, action))
        obs, reward, terminated, truncated, _ = result
        if obs not in env.observation_space:
            warned.append(f"observation outside the space: {show(obs, 200)}")
        if not isinstance(reward, int | float) or not math.isfinite(reward):
            warned.append(f"reward is not a finite number: {show(reward)}")
        return result, warned, took

    def play(self, fam: Family) -> tuple[dict[str, Any], list[Finding]]:
        findings: list[Finding] = []
        rewards: list[float] = []
        paid_example: tuple[int, list[Any], float] | None = None
        for seed in range(self.seed, self.seed + self.rows):
            env = self.make()
            actions: list[Any] = []
            try:
                obs, warned = self._reset(env, seed)
                messages = list(obs)
                total, done, steps = 0.0, False, 0
                max_turns = getattr(env.unwrapped, "max_turns", None)
                while not done and steps < self.max_steps:
                    steps += 1
                    action = fam.policy(Play(messages, steps, max_turns))
                    actions.append(action)
                    (obs, reward, terminated, truncated, _), more, took = self._step(env, action)
                    warned += more
                    if took > self.step_timeout:
                        findings.append(Finding(fam.name, "slow", f"a step took {took:.1f} s "
                                                f"(> {self.step_timeout:g} s)", seed, actions))
                    total += float(reward) if isinstance(reward, int | float) else 0.0
                    messages += list(obs or [])
                    done = bool(terminated or truncated)
                if not done:
                    findings.append(Finding(fam.name, "endless", f"no end after {steps} steps",
                                            seed, actions))
                if warned:
                    findings.append(Finding(fam.name, "space", "; ".join(dict.fromkeys(warned)),
                                            seed, actions))
                rewards.append(total)
                if paid_example is None or total > paid_example[2]:
                    paid_example = (seed, list(actions), total)
            except Exception as err:  # the env's bug on a str action: reported, run goes on
                findings.append(Finding(fam.name, "crash", f"{type(err).__name__}: "
                                        f"{show(str(err), 200)}", seed, actions))
            finally:
                env.close()
        mean = sum(rewards) / len(rewards) if rewards else 0.0
        if rewards and mean >= self.threshold and paid_example is not None:
            findings.append(Finding(fam.name, "paid", f"mean reward {mean:.3f} over "
                                    f"{len(rewards)} episodes (>= {self.threshold:g}); this "
                                    f"one got {paid_example[2]:.3f}", paid_example[0],
                                    paid_example[1]))
        return {"episodes": len(rewards), "mean_reward": round(mean, 4),
                "max_reward": round(max(rewards, default=0.0), 4),
                "findings": len(findings)}, findings

    def after_end(self) -> tuple[dict[str, Any], list[Finding]]:
        """Play to the end, then answer again: the step must raise, never pay."""
        findings = []
        for seed in range(self.seed, self.seed + self.rows):
            env = self.make()
            actions: list[Any] = []
            try:
                env.reset(seed=seed)
                done = False
                while not done and len(actions) < self.max_steps:
                    actions.append(stall(Play([], len(actions) + 1, None)))
                    _, _, terminated, truncated, _ = env.step(actions[-1])
                    done = terminated or truncated
                late = answers(["1"])
                actions.append(late)
                try:
                    result = env.step(late)
                except Exception:  # EpisodeOver / ResetNeeded: the right answer
                    continue
                if isinstance(result[1], int | float) and result[1] > 0:
                    findings.append(Finding("after_end", "after_end", f"a step after the end "
                                            f"paid {result[1]!r}", seed, actions))
            except Exception as err:
                findings.append(Finding("after_end", "crash", f"{type(err).__name__}: "
                                        f"{show(str(err), 200)}", seed, actions))
            finally:
                env.close()
        return {"episodes": self.rows, "findings": len(findings)}, findings

    def malformed(self) -> tuple[dict[str, Any], list[Finding]]:
        """Non-str actions: a clear TypeError/ValueError and the episode goes on."""
        findings = []
        bad: list[Any] = [None, b"#### 1", 1, 1.5, ["1"], {"role": "assistant", "content": "1"}]
        for seed in range(self.seed, self.seed + self.rows):
            env = self.make()
            try:
                env.reset(seed=seed)
                for action in bad:
                    try:
                        result = env.step(action)
                    except (TypeError, ValueError, gymnasium.error.Error):
                        continue
                    except Exception as err:
                        findings.append(Finding("malformed", "malformed", f"raised "
                                                f"{type(err).__name__}, not a TypeError or "
                                                f"ValueError", seed, [action]))
                        continue
                    if isinstance(result[1], int | float) and result[1] > 0:
                        findings.append(Finding("malformed", "malformed", f"paid {result[1]!r} "
                                                f"for a {type(action).__name__}", seed, [action]))
                    break  # it took the action: the episode may be over
                else:
                    try:  # refused every one: the episode must still take a real action
                        env.step(stall(Play([], 1, None)))
                    except Exception as err:
                        findings.append(Finding("malformed", "malformed", f"after refusing "
                                                f"bad actions the env raised {type(err).__name__}"
                                                f" on a str: {show(str(err), 200)}", seed,
                                                [*bad, "Let me think about it some more."]))
            except Exception as err:
                findings.append(Finding("malformed", "crash", f"{type(err).__name__}: "
                                        f"{show(str(err), 200)}", seed, []))
            finally:
                env.close()
        return {"episodes": self.rows, "findings": len(findings)}, findings


def probe(env: str | Callable[[], gymnasium.Env], *, rows: int = 3, seed: int = 0,
          families: Iterable[str] | None = None, threshold: float = 0.5, max_steps: int = 100,
          step_timeout: float = 30.0, env_kwargs: Mapping[str, Any] | None = None) -> Report:
    """Play every family (or ``families``) for ``rows`` episodes of ``env`` (a name for
    ``envs.make`` or a zero-argument factory) and return the report."""
    from envs.registry import make

    if isinstance(env, str):
        name, kwargs = env, dict(env_kwargs or {})
        factory: Callable[[], gymnasium.Env] = lambda: make(name, **kwargs)  # noqa: E731
    else:
        name, factory = getattr(env, "__name__", repr(env)), env
    known = [*FAMILIES, *CHECKS]
    chosen = list(families) if families is not None else known
    unknown = [f for f in chosen if f not in known]
    if unknown:
        raise ValueError(f"unknown family {show(unknown[0])}; known: {', '.join(known)}")
    runner = _Runner(name, factory, rows=rows, seed=seed, threshold=threshold,
                     max_steps=max_steps, step_timeout=step_timeout)
    report = Report(name, rows, seed)
    for fam in chosen:
        if fam in FAMILIES:
            row, found = runner.play(FAMILIES[fam])
        else:
            row, found = getattr(runner, fam)()
        report.families[fam] = row
        report.findings += found
    return report


def format_report(report: Report) -> str:
    """The report as text: a line per family, then each finding with its episode."""
    lines = [f"probe {report.env}: {report.rows} episodes per family, seeds {report.seed}.."
             f"{report.seed + report.rows - 1}",
             f"{'family':<12} {'episodes':>8} {'mean':>7} {'max':>7} {'findings':>8}"]
    for fam, row in report.families.items():
        mean = f"{row['mean_reward']:.3f}" if "mean_reward" in row else "-"
        top = f"{row['max_reward']:.3f}" if "max_reward" in row else "-"
        lines.append(f"{fam:<12} {row['episodes']:>8} {mean:>7} {top:>7} {row['findings']:>8}")
    for f in report.findings:
        lines.append(f"EXPLOIT {f.family}/{f.kind}: {f.detail}")
        lines += ["    " + line for line in episode_code(report.env, f.seed, f.actions).splitlines()]
    verdict = "PASS" if report.passed else f"FAIL: {len(report.findings)} finding(s)"
    lines.append(f"probe {report.env}: {verdict}")
    return "\n".join(lines)


def report_json(report: Report) -> dict[str, Any]:
    return {"env": report.env, "passed": report.passed, "rows": report.rows,
            "seed": report.seed, "families": report.families,
            "findings": [{"family": f.family, "kind": f.kind, "detail": f.detail,
                          "seed": f.seed,
                          "episode": episode_code(report.env, f.seed, f.actions, None)}
                         for f in report.findings]}
