"""``ToolEnv``: any task, answered with the help of function-calling tools.

Example:
    >>> import envs.tool_env as te
    >>> env = te.ToolEnv("arithmetic", tools=[te.calculator], max_turns=3)
    >>> prompt, _ = env.reset(seed=0)
    >>> [m["role"] for m in prompt]
    ['system', 'user']
    >>> reply, *_ = env.step('<tool_call>{"name": "calculator", "arguments": {"expression": "6*7"}}</tool_call>')
    >>> reply
    [{'role': 'tool', 'content': '42', 'name': 'calculator'}]
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from envs.base import TextEnv, check_int, show
from envs.single_turn import DEFAULT_ROW_LIMIT, TaskEnvMixin, row_messages, score_info
from envs.tools import (
    DEFAULT_MAX_RESULT_CHARS,
    Tool,
    ToolBox,
    has_tool_call,
    parse_tool_calls,
    tools_text,
)

# ----------------------------------------------------------------------- shipped tools


def calculator(expression: str) -> str:
    """Evaluate an arithmetic expression exactly (+ - * / // % **, parentheses, sqrt, abs,
    round, min, max, floor, ceil, log, exp, pi, e).

    Args:
        expression: the expression, for example "123456789 * 987654321"
    """
    from envs.tool_use import CalculatorError, calculate

    try:
        return calculate(expression)
    except CalculatorError as err:
        return f"Error: {err}"


def python(code: str) -> str:
    """Run a Python program in a sandbox and return what it printed (stdout, then stderr).

    Args:
        code: the whole program; print the values you need
    """
    from verifiers.code import run_tests

    result = run_tests(code, [{"stdin": "", "expected_stdout": ""}], timeout=PYTHON_TIMEOUT)
    if result.reward is None or not result.tests:
        return "Error: the sandbox could not run the code this time"
    test = result.tests[0]
    if test.error == "timeout":
        return f"Error: the program did not finish within {PYTHON_TIMEOUT:g} s"
    out = test.stdout or ""
    if test.stderr:
        out += ("\n" if out else "") + test.stderr
    if test.error not in (None, "wrong"):
        out += ("\n" if out else "") + f"[{test.error}]"
    return out or "(no output)"


PYTHON_TIMEOUT = 5.0


def python_tool(timeout: float = PYTHON_TIMEOUT) -> Tool:
    """The ``python`` tool: model-written code runs in ``verifiers.code``'s sandbox (its
    own process, jail and limits), so the call itself needs no extra worker."""
    return Tool(python, isolate=False, timeout=timeout + 10.0)


class CorpusSearch:
    """``search(query)`` over a local corpus: the documents sharing most words with the
    query, best first. A picklable object, so an env holding it crosses processes.

    Example:
        >>> s = CorpusSearch(["The vault KITE opens with 4417.", "Cats purr."])
        >>> s("vault KITE")
        '[1] The vault KITE opens with 4417.'
    """

    def __init__(self, documents: Sequence[str], *, top_k: int = 2):
        if isinstance(documents, str) or not all(isinstance(d, str) for d in documents):
            raise TypeError("documents must be a list of strings")
        self.documents = list(documents)
        self.top_k = check_int("top_k", top_k, minimum=1)
        self._words = [set(_words(d)) for d in self.documents]

    def __call__(self, query: str) -> str:
        """Search the documents.

        Args:
            query: words to look for
        """
        wanted = set(_words(query))
        scored = sorted(((len(wanted & words), -i) for i, words in enumerate(self._words)),
                        reverse=True)
        hits = [(-i) for score, i in scored[: self.top_k] if score > 0]
        if not hits:
            return "No document matches."
        return "\n".join(f"[{i + 1}] {self.documents[i]}" for i in hits)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", text.lower())


def search_tool(documents: Sequence[str], *, top_k: int = 2) -> Tool:
    search = CorpusSearch(documents, top_k=top_k)
    return Tool(search, name="search", isolate=False, timeout=5.0)


# ----------------------------------------------------------------------- the lookup task

_NAMES = ("amber", "basalt", "cobalt", "delta", "ember", "falcon", "garnet", "harbor", "indigo",
          "juniper", "kestrel", "lumen", "marble", "nectar", "onyx", "pylon", "quartz", "raven",
          "saffron", "tundra", "umber", "vortex", "willow", "xenon", "yarrow", "zephyr")


def lookup_corpus(seed: int = 0, size: int = 200) -> list[str]:
    """Seeded facts "The vault NAME-K opens with code N." whose codes are in no prompt."""
    rng = random.Random(f"lookup-{seed}")
    return [f"The vault {_NAMES[i % len(_NAMES)]}-{i // len(_NAMES)} opens with code "
            f"{rng.randrange(10_000, 100_000)}." for i in range(size)]


def lookup_task(documents: Sequence[str]) -> Any:
    """A task whose answers are only in ``documents``: "Which code opens vault NAME-K?"."""
    from tasks.base import Task
    from tasks.prompts import Prompt
    from tasks.rubrics import answer_line_rubric

    facts = []
    for doc in documents:
        match = re.search(r"vault (\S+) opens with code (\d+)", doc)
        if match:
            facts.append((match.group(1), match.group(2)))
    if not facts:
        raise ValueError("the corpus holds no 'vault X opens with code N' fact")
    return Task("lookup", _LookupProblems(facts), answer_line_rubric(),
                prompt=Prompt(instruction="End with the answer line '#### N'."),
                reference=_answer_line, description="codes of vaults, only in the search corpus")


def _answer_line(row: Any) -> str:
    return f"#### {row.answer}"


class _LookupProblems:
    """The lookup task's problem source (a class, not a closure, so the task pickles)."""

    def __init__(self, facts: list[tuple[str, str]]):
        self.facts = facts

    def __call__(self, split: str, seed: int, path: str | None) -> list[Any]:
        from tasks.base import Problem

        # A hash picks the split, so train and test never share a vault.
        chosen = [(v, c) for v, c in self.facts
                  if (int(hashlib.sha256(v.encode()).hexdigest(), 16) % 5 == 0) == (split == "test")]
        random.Random(seed).shuffle(chosen)
        return [Problem(f"lookup/{split}/{v}", f"Which code opens the vault {v}?", c)
                for v, c in chosen]


# ----------------------------------------------------------------------- the env


class ToolEnv(TaskEnvMixin, TextEnv):
    """A task's question, answered with the help of function-calling tools.

    ## Description
    ``reset`` picks a row of ``task`` and returns its prompt with a system message holding
    the tools section (``tools_in_prompt="system"``, the default: the exact text the default
    chat template writes for ``apply_chat_template(..., tools=env.tool_schemas)``), or the
    bare prompt (``"template"``: render it with ``tools=env.tool_schemas`` yourself). Each
    model turn either calls tools (``<tool_call>{"name": ..., "arguments": ...}
    </tool_call>``, several per turn: one ``tool`` message per call, an ``Error: ...``
    message for a call that is malformed, unknown, mistyped, raising, hanging or over the
    limits) or, with no tool call, gives the final answer, which the task's rubric scores.

    ## Action Space
    ``UnicodeText``: the model's text.

    ## Observation Space
    ``ChatMessages``: the prompt after ``reset``; one ``tool`` message (with ``name``) per
    call after a step; ``[]`` when the episode ends.

    ## Rewards
    0 while tools are called; the rubric total of the final answer at the end, plus
    ``tool_bonus`` if at least one call succeeded *and* the answer is correct (off by
    default; a bonus paid for calls alone would be farmed). ``info``: ``rubric``,
    ``correct``, ``tool_calls``, ``tool_errors``, ``reason`` when the env ended it.

    ## Episode End
    Terminated by a reply without a tool call, or when the episode's calls pass
    ``max_calls`` (reason ``"max_calls"``, reward 0). Truncated after ``max_turns`` turns or
    ``max_chars`` characters (reward 0).

    ## Arguments
    ``task``, ``tools`` (functions or ``Tool``), ``max_turns`` (default 4),
    ``max_calls`` per episode (default 16), ``max_calls_per_turn`` (default 8, at most 63:
    the rest get one error message), ``max_result_chars`` (default 4,000), ``tool_bonus``
    (default 0.0), ``tools_in_prompt``, and ``split``, ``task_kwargs``, ``task_seed``,
    ``limit``, ``path``, ``max_chars``, ``render_mode`` as for ``SingleTurnEnv``.
    """

    reset_options = ("row", "row_id")

    def __init__(self, task: Any = "arithmetic", tools: Sequence[Tool | Callable] = (), *,
                 max_turns: int = 4, max_calls: int = 16, max_calls_per_turn: int = 8,
                 max_result_chars: int = DEFAULT_MAX_RESULT_CHARS, tool_bonus: float = 0.0,
                 tools_in_prompt: str = "system", split: str | None = None,
                 task_kwargs: Mapping[str, Any] | None = None, task_seed: int = 0,
                 limit: int | None = DEFAULT_ROW_LIMIT, path: str | None = None,
                 max_chars: int = 100_000, render_mode: str | None = None):
        max_calls = check_int("max_calls", max_calls, minimum=1)
        max_calls_per_turn = check_int("max_calls_per_turn", max_calls_per_turn, minimum=1,
                                       maximum=63)
        max_result_chars = check_int("max_result_chars", max_result_chars, minimum=1)
        if isinstance(tool_bonus, bool) or not isinstance(tool_bonus, int | float) or not (
                0.0 <= tool_bonus <= 1.0):
            raise ValueError(f"tool_bonus must be a number in [0, 1], got {show(tool_bonus)}")
        if tools_in_prompt not in ("system", "template"):
            raise ValueError(f"tools_in_prompt must be 'system' or 'template', got "
                             f"{show(tools_in_prompt)}")
        super().__init__(max_turns=max_turns, max_chars=max_chars, render_mode=render_mode)
        self._init_task(task, split=split, task_kwargs=task_kwargs, task_seed=task_seed,
                        limit=limit, path=path)
        self.toolbox = ToolBox(tools, max_result_chars=max_result_chars)
        self.max_calls, self.max_calls_per_turn = max_calls, max_calls_per_turn
        self.tool_bonus = float(tool_bonus)
        self.tools_in_prompt = tools_in_prompt
        self.tool_calls = self.tool_errors = self.tool_successes = 0

    @property
    def tool_schemas(self) -> list[dict]:
        """The tools' JSON schemas, for ``apply_chat_template(..., tools=...)``."""
        return self.toolbox.schemas

    def _start(self, options: dict[str, Any]) -> list[dict[str, str]]:
        self.row = self._pick_row(options)
        self.tool_calls = self.tool_errors = self.tool_successes = 0
        prompt = row_messages(self.row)
        if self.tools_in_prompt == "template" or not self.toolbox.tools:
            return prompt
        section = tools_text(self.tool_schemas)
        if prompt and prompt[0]["role"] == "system":
            prompt[0]["content"] = f"{prompt[0]['content']}\n\n{section}"
            return prompt
        return [{"role": "system", "content": section}, *prompt]

    def _counts(self) -> dict[str, Any]:
        return {"row_id": self.row.id, "tool_calls": self.tool_calls,
                "tool_errors": self.tool_errors}

    def _respond(self, text: str) -> tuple[list[dict[str, str]], float, bool, dict[str, Any]]:
        if not has_tool_call(text):
            reward, info = score_info(self.task.score(self.row, text))
            if self.tool_bonus and self.tool_successes and info.get("correct"):
                reward += self.tool_bonus
            info.update(self._counts())
            return [], reward, True, info
        calls = parse_tool_calls(text)
        if len(calls) > self.max_calls - self.tool_calls:
            # Past the episode's budget: end it, unpaid, rather than answer a flood.
            self.tool_calls += len(calls)
            self.tool_errors += len(calls)
            return [], 0.0, True, {**self._counts(), "correct": False, "reason": "max_calls"}
        replies = []
        for call in calls[: self.max_calls_per_turn]:
            result = self.toolbox.run(call)
            self.tool_calls += 1
            if result.startswith("Error:"):
                self.tool_errors += 1
            else:
                self.tool_successes += 1
            replies.append({"role": "tool", "content": result,
                            "name": call.name if call.error is None else "error"})
        dropped = len(calls) - self.max_calls_per_turn
        if dropped > 0:
            # One message for all of them, so a flood cannot push the observation past its
            # space's max_messages.
            replies.append({"role": "tool", "name": "error", "content": (
                f"Error: at most {self.max_calls_per_turn} tool calls per turn; {dropped} more "
                f"{'call was' if dropped == 1 else 'calls were'} dropped")})
            self.tool_calls += dropped
            self.tool_errors += dropped
        return replies, 0.0, False, self._counts()

    def _on_truncate(self) -> tuple[float, dict[str, Any]]:
        return 0.0, {**self._counts(), "correct": False, "reason": "truncated"}


# ----------------------------------------------------------------------- shipped envs


class CalculatorToolEnv(ToolEnv):
    """``rlvr/tool-calculator-v0``: the calculator as a function-calling tool (default task
    ``arithmetic``)."""

    def __init__(self, task: Any = "arithmetic", **kwargs: Any):
        super().__init__(task, tools=[Tool(calculator, timeout=5.0)], **kwargs)


class PythonToolEnv(ToolEnv):
    """``rlvr/tool-python-v0``: a sandboxed ``python`` tool on a math task (default
    ``arithmetic``; ``task="gsm8k"`` for word problems)."""

    def __init__(self, task: Any = "arithmetic", **kwargs: Any):
        super().__init__(task, tools=[python_tool()], **kwargs)


class SearchToolEnv(ToolEnv):
    """``rlvr/tool-search-v0``: a ``search`` tool over a local corpus, on a lookup task
    whose answers are only in the corpus (default: ``lookup_corpus(corpus_seed)``)."""

    def __init__(self, documents: Sequence[str] | None = None, *, corpus_seed: int = 0,
                 **kwargs: Any):
        documents = lookup_corpus(corpus_seed) if documents is None else list(documents)
        kwargs.setdefault("task", lookup_task(documents))
        super().__init__(tools=[search_tool(documents)], **kwargs)
