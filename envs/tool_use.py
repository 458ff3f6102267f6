"""Tool use: the model may call a calculator before it answers a task's question.

This is the private-text-protocol calculator (``rlvr/calculator-v0``). The same calculator
as a function-calling tool (JSON schema, ``<tool_call>`` JSON, chat-template ``tools=``) is
``envs.tool_env.calculator`` in ``rlvr/tool-calculator-v0`` (``envs.tool_env.ToolEnv``).

The calculator never calls ``eval``: expressions are parsed with ``ast`` and only numbers,
``+ - * / // % **``, unary signs, parentheses and a few functions are evaluated, with limits
on exponents and sizes so ``9**9**9`` (or ``round(1, -10**18)``) is refused or answered
at once instead of freezing the env; ``inf`` and ``nan`` are never results.

Example:
    >>> calculate("2 * (3 + 4) - 1")
    '13'
    >>> calculate("10 / 4"), calculate("sqrt(16)")
    ('2.5', '4')
    >>> parse_tool_calls('<calculator>1+1</calculator>')
    [ToolCall(name='calculator', arguments='1+1', error=None)]
"""

from __future__ import annotations

import ast
import json
import math
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from envs.base import TextEnv, check_int, show
from envs.single_turn import DEFAULT_ROW_LIMIT, TaskEnvMixin, row_messages, score_info

# ----------------------------------------------------------------------- the calculator


class CalculatorError(ValueError):
    """The expression is not one the calculator accepts (the message says why)."""


_BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNARY = {ast.UAdd: operator.pos, ast.USub: operator.neg}
MAX_EXPRESSION_CHARS = 500
_MAX_EXPONENT = 10_000
_MAX_BITS = 13_300  # about 4,000 decimal digits: larger results are refused
# round(x, n) computes 10 ** -n for an int x and n < 0, so round(1, -10**18) would run for
# ever. Every value the calculator holds is below 10**4010 in size and any finite float has
# fewer than 400 digits after the point, so clamping n to +-5,000 changes no result.
_MAX_ROUND_DIGITS = 5_000


def _round(value: int | float, ndigits: int | None = None) -> int | float:
    if isinstance(ndigits, int):
        ndigits = max(-_MAX_ROUND_DIGITS, min(_MAX_ROUND_DIGITS, ndigits))
    return round(value, ndigits)


_FUNCTIONS = {"sqrt": math.sqrt, "abs": abs, "round": _round, "min": min, "max": max,
              "floor": math.floor, "ceil": math.ceil, "log": math.log, "exp": math.exp}
_CONSTANTS = {"pi": math.pi, "e": math.e}


def _check_size(value: int | float) -> int | float:
    if isinstance(value, int) and value.bit_length() > _MAX_BITS:
        raise CalculatorError("the result is too large")
    if isinstance(value, float) and not math.isfinite(value):
        raise CalculatorError("the result is not a finite number")
    return value


def _evaluate(node: ast.AST) -> int | float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return _check_size(node.value)  # 1e400 is a float literal for inf
    if isinstance(node, ast.Name) and node.id in _CONSTANTS:
        return _CONSTANTS[node.id]
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        # Refuse results too large to compute quickly before computing them.
        if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
            raise CalculatorError(f"the exponent {right} is too large")
        if (isinstance(node.op, ast.Pow) and isinstance(left, int) and isinstance(right, int)
                and right > 0 and left.bit_length() * right > _MAX_BITS):
            raise CalculatorError("the result is too large")
        if (isinstance(node.op, ast.Mult) and isinstance(left, int) and isinstance(right, int)
                and left.bit_length() + right.bit_length() > _MAX_BITS):
            raise CalculatorError("the result is too large")
        try:
            result = _BINARY[type(node.op)](left, right)
        except ZeroDivisionError:
            raise CalculatorError("division by zero") from None
        except OverflowError:
            raise CalculatorError("the result is too large") from None
        if isinstance(result, complex):
            raise CalculatorError("the result is not a real number")
        return _check_size(result)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _FUNCTIONS and not node.keywords):
        args = [_evaluate(a) for a in node.args]
        try:
            return _check_size(_FUNCTIONS[node.func.id](*args))
        except ZeroDivisionError:  # log(2, 1)
            raise CalculatorError(f"{node.func.id}: division by zero") from None
        except (ValueError, TypeError, OverflowError) as err:
            raise CalculatorError(f"{node.func.id}: {err}") from None
    what = ast.unparse(node) if isinstance(node, ast.expr) else type(node).__name__
    raise CalculatorError(f"unsupported expression: {what[:60]}")


def _format(value: int | float) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    if isinstance(value, float):
        return repr(round(value, 10))
    return str(value)


def calculate(expression: str) -> str:
    """Evaluate an arithmetic expression safely; raise ``CalculatorError`` on anything else.

    Example:
        >>> calculate("2 ** 10"), calculate("7 // 2"), calculate("-3 % 5")
        ('1024', '3', '2')
        >>> try:
        ...     calculate("__import__('os')")
        ... except CalculatorError as err:
        ...     print(err)
        unsupported expression: __import__('os')
    """
    if not isinstance(expression, str):
        raise CalculatorError(f"the expression must be a string, got {type(expression).__name__}")
    if len(expression) > MAX_EXPRESSION_CHARS:
        raise CalculatorError(f"the expression is longer than {MAX_EXPRESSION_CHARS} characters")
    # People (and models) write 3×4, 3÷4 and 2^3; accept them.
    text = expression.strip().replace("×", "*").replace("÷", "/").replace("^", "**")
    text = text.replace(",", "") if re.fullmatch(r"[\d,.\s+\-*/()%]*", text) else text
    if not text:
        raise CalculatorError("the expression is empty")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError) as err:
        reason = err.msg if isinstance(err, SyntaxError) else str(err)
        raise CalculatorError(f"cannot parse {expression[:60]!r}: {reason}") from None
    except (RecursionError, MemoryError):  # the parser's own nesting limits, version-dependent
        raise CalculatorError("the expression is nested too deeply") from None
    try:
        return _format(_evaluate(tree))
    except RecursionError:
        raise CalculatorError("the expression is nested too deeply") from None


# ----------------------------------------------------------------------- tool calls


@dataclass(frozen=True)
class ToolCall:
    """One call found in the model's text; ``error`` says why it could not be read."""

    name: str
    arguments: str
    error: str | None = None


_TAGS = {"<calculator>": "</calculator>", "<tool_call>": "</tool_call>"}


def _tag_bodies(text: str, open_tag: str, close_tag: str) -> list[tuple[int, str]]:
    """``(start, body)`` of every ``open_tag body close_tag``, shortest body first from the
    left, like ``re.finditer(open + "(.*?)" + close, DOTALL)``. Written with ``str.find``
    because that regex is quadratic: it rescans to the end of the text from every unclosed
    opening tag (8,000 ``<calculator>`` took 3.4 s, 100,000 did not finish)."""
    bodies = []
    position = 0
    while (start := text.find(open_tag, position)) >= 0:
        end = text.find(close_tag, start + len(open_tag))
        if end < 0:
            break  # no later opening tag can be closed either
        bodies.append((start, text[start + len(open_tag):end]))
        position = end + len(close_tag)
    return bodies


def parse_tool_calls(text: str) -> list[ToolCall]:
    """Every tool call in ``text``, in order: ``<calculator>EXPR</calculator>`` or
    ``<tool_call>{"name": "calculator", "arguments": {"expression": EXPR}}</tool_call>``.

    A call that cannot be read (bad JSON, missing fields, an unclosed tag) is returned with
    ``error`` set, so the env can tell the model what went wrong.

    Example:
        >>> parse_tool_calls('<tool_call>{"name": "calculator", "arguments": {"expression": "6*7"}}</tool_call>')
        [ToolCall(name='calculator', arguments='6*7', error=None)]
        >>> parse_tool_calls("<tool_call>{oops</tool_call>")[0].error[:18]
        'invalid JSON in to'
        >>> parse_tool_calls("no tools here")
        []
    """
    found: list[tuple[int, ToolCall]] = []
    for start, body in _tag_bodies(text, "<calculator>", "</calculator>"):
        found.append((start, ToolCall("calculator", body)))
    for start, body in _tag_bodies(text, "<tool_call>", "</tool_call>"):
        found.append((start, _parse_json_call(body)))
    if not found:
        for tag, close in _TAGS.items():
            if tag in text:
                found.append((text.index(tag), ToolCall("?", "", f"{tag} is never closed with "
                                                                 f"{close}")))
    return [call for _, call in sorted(found, key=lambda pair: pair[0])]


def _loads(body: str) -> tuple[Any, str | None]:
    """``json.loads`` that reports instead of raising: besides bad syntax, JSON nested a
    thousand deep raises ``RecursionError`` and a number of 4,301 digits ``ValueError``."""
    try:
        return json.loads(body), None
    except json.JSONDecodeError as err:
        return None, f"{err.msg} at char {err.pos}"
    except RecursionError:
        return None, "nested too deeply"
    except ValueError as err:
        return None, str(err).split(";")[0]


def _parse_json_call(body: str) -> ToolCall:
    payload, error = _loads(body)
    if error is not None:
        return ToolCall("?", body, f"invalid JSON in tool call: {error}")
    if not isinstance(payload, dict) or not isinstance(payload.get("name"), str):
        return ToolCall("?", body, 'a tool call must be a JSON object with a "name" string')
    arguments = payload.get("arguments", {})
    if isinstance(arguments, str):  # some models send the arguments JSON-encoded twice
        decoded, error = _loads(arguments)
        arguments = {"expression": arguments} if error is not None else decoded
    if not isinstance(arguments, dict) or not isinstance(arguments.get("expression"), str):
        return ToolCall(payload["name"], body,
                        '"arguments" must be an object with an "expression" string')
    return ToolCall(payload["name"], arguments["expression"])


def run_tool_call(call: ToolCall) -> str:
    """The tool's reply to one call: the result, or an error message (never an exception).

    Example:
        >>> run_tool_call(ToolCall("calculator", "1/0"))
        'Error: division by zero'
        >>> run_tool_call(ToolCall("search", "cats"))
        "Error: unknown tool 'search' (available: calculator)"
    """
    if call.error is not None:
        return f"Error: {call.error}"
    if call.name != "calculator":
        return f"Error: unknown tool {show(call.name, 60)} (available: calculator)"
    try:
        return calculate(call.arguments)
    except CalculatorError as err:
        return f"Error: {err}"


TOOL_INSTRUCTIONS = (
    "You can use a calculator. To call it, write <calculator>EXPRESSION</calculator> (or "
    '<tool_call>{"name": "calculator", "arguments": {"expression": "EXPRESSION"}}</tool_call>) '
    "and stop; the result comes back in the next message. When you know the answer, reply "
    "without a tool call, in the format the question asks for."
)


class ToolUseEnv(TaskEnvMixin, TextEnv):
    """A task's question, answered with the help of a calculator tool.

    ## Description
    ``reset`` picks a row of a task (default ``arithmetic``) and adds a system message that
    explains the calculator. Each model turn either calls the tool (one reply message per
    call with the result, or an error message for a malformed call: never a crash) or, with
    no tool call, gives the final answer, which the task's rubric scores.

    ## Action Space
    ``UnicodeText``: the model's text, with ``<calculator>EXPR</calculator>`` or
    ``<tool_call>{"name": "calculator", "arguments": {"expression": EXPR}}</tool_call>``.

    ## Observation Space
    ``ChatMessages``: the system message and the row's prompt after ``reset``; one message
    of role ``tool_role`` per tool call after a step; ``[]`` when the episode ends.

    ## Rewards
    0 while tools are called; the rubric total of the final answer at the end (``info``:
    ``rubric``, ``reasons``, ``errors``, ``correct``, ``tool_calls``, ``tool_errors``).

    ## Starting State
    A row drawn uniformly from the split with the env's seeded generator;
    ``options={"row": i}`` or ``{"row_id": "..."}`` picks one.

    ## Episode End
    Terminated by a reply without a tool call. Truncated after ``max_turns`` turns (default
    4) or ``max_chars`` characters of conversation, with reward 0.

    ## Arguments
    ``task`` (default ``"arithmetic"``), ``split``, ``task_kwargs``, ``task_seed``,
    ``limit``, ``path`` (as for ``SingleTurnEnv``), ``max_turns``, ``max_calls_per_turn``
    (default 4, at most 63; the calls past it are not run and get one error message that
    says how many were dropped), ``tool_role`` (default ``"tool"``; use ``"user"``
    for chat templates without a tool role), ``max_chars``, ``render_mode`` (``"ansi"``).
    """

    def __init__(self, task: Any = "arithmetic", *, split: str | None = None,
                 task_kwargs: Mapping[str, Any] | None = None, task_seed: int = 0,
                 limit: int | None = DEFAULT_ROW_LIMIT, path: str | None = None,
                 max_turns: int = 4, max_calls_per_turn: int = 4, tool_role: str = "tool",
                 max_chars: int = 100_000, render_mode: str | None = None):
        if tool_role not in ("tool", "user"):
            raise ValueError(f"tool_role must be 'tool' or 'user', got {show(tool_role)}")
        # At most one reply per call plus one for the dropped ones, within ChatMessages' 64.
        max_calls_per_turn = check_int("max_calls_per_turn", max_calls_per_turn, minimum=1,
                                       maximum=63)
        super().__init__(max_turns=max_turns, max_chars=max_chars, render_mode=render_mode)
        self._init_task(task, split=split, task_kwargs=task_kwargs, task_seed=task_seed,
                        limit=limit, path=path)
        self.max_calls_per_turn = max_calls_per_turn
        self.tool_role = tool_role
        self.tool_calls = 0
        self.tool_errors = 0

    def _start(self, options: dict[str, Any]) -> list[dict[str, str]]:
        self.row = self._pick_row(options)
        self.tool_calls = self.tool_errors = 0
        prompt = row_messages(self.row)
        if prompt and prompt[0]["role"] == "system":
            prompt[0]["content"] = f"{prompt[0]['content']}\n\n{TOOL_INSTRUCTIONS}"
            return prompt
        return [{"role": "system", "content": TOOL_INSTRUCTIONS}, *prompt]

    def _respond(self, text: str) -> tuple[list[dict[str, str]], float, bool, dict[str, Any]]:
        calls = parse_tool_calls(text)
        if not calls:
            reward, info = score_info(self.task.score(self.row, text))
            info.update(row_id=self.row.id, tool_calls=self.tool_calls,
                        tool_errors=self.tool_errors)
            return [], reward, True, info
        replies = []
        for call in calls[: self.max_calls_per_turn]:
            result = run_tool_call(call)
            self.tool_calls += 1
            self.tool_errors += result.startswith("Error:")
            replies.append({"role": self.tool_role, "content": result})
        dropped = len(calls) - self.max_calls_per_turn
        if dropped > 0:
            # One message for all of them: a reply per call would let a flood of calls push
            # the observation past its space's max_messages.
            replies.append({"role": self.tool_role, "content": (
                f"Error: at most {self.max_calls_per_turn} tool calls per turn; "
                f"{dropped} more {'call was' if dropped == 1 else 'calls were'} dropped")})
            self.tool_calls += dropped
            self.tool_errors += dropped
        return replies, 0.0, False, {"tool_calls": self.tool_calls,
                                     "tool_errors": self.tool_errors}

    def _on_truncate(self) -> tuple[float, dict[str, Any]]:
        return 0.0, {"correct": False, "reason": "truncated", "row_id": self.row.id,
                     "tool_calls": self.tool_calls, "tool_errors": self.tool_errors}
