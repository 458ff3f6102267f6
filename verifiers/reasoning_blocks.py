r"""Reasoning blocks: where a completion's working stands (issue 30).

A closed reasoning block (``<think> ... </think>``) is the working; the answer after it is
read alone (``verifiers.math_extract``), and a block that never closes gave no final answer
(``unclosed_reasoning``). Other models' delimiters are read as the tags they stand for, before
anything else reads the text (``_as_tags``, called by ``verifiers.answer_text.read_visible``).

>>> _as_tags("\u25c1think\u25b7 x \u25c1/think\u25b7 [THINK]y[/THINK]")
'<think> x </think> <think>y</think>'
>>> _as_tags("<|channel|>analysis<|message|>x<|end|><|start|>assistant<|channel|>final<|message|>5")
'<think>x</think>5'
>>> unclosed_reasoning("<think>So it's 5."), unclosed_reasoning("[THINK]a[/THINK] 5")
(True, False)
"""

from __future__ import annotations

import re

__all__ = ["REASONING_END_MARK", "REASONING_START_MARK", "unclosed_reasoning"]

# The end of a reasoning block: what follows it starts afresh, as on a new line.
_REASONING_END_RE = re.compile(r"</\s*(?:think|thinking|reasoning)\s*>", re.IGNORECASE)
_REASONING_OPEN_RE = re.compile(r"<\s*(?:think|thinking|reasoning)(?:\s[^<>]{0,200})?>", re.IGNORECASE)


# Other models' reasoning delimiters, read as the tags they stand for: Kimi's
# "\u25c1think\u25b7 ... \u25c1/think\u25b7", Magistral's "[THINK] ... [/THINK]", Seed's
# "<seed:think>", and the "<|begin_of_thought|> ... <|end_of_thought|>" of Sky-T1 and
# OpenThoughts (whose "<|begin_of_solution|>" markers around the answer draw nothing).
_OTHER_REASONING_RE = re.compile(
    r"\u25c1(?P<a>/?)[ \t]*(?:think|thinking|reasoning)[ \t]*\u25b7|(?-i:\[(?P<b>/?)THINK\])|<(?P<c>/?)seed:think>"
    r"|<\|(?P<d>begin|end)_of_thought\|(?P<attrs>[^<>\n]{0,300})>|<\|(?P<e>/?)think\|>|<\|(?:begin|end)_of_solution\|>",
    re.IGNORECASE)
_REASONING_HINTS = ("\u25c1", "THINK]", "seed:", "_of_thought|", "_of_solution|", "think|>", "<|channel|>", "assistant",
                    "<start_of_turn>model")
# gpt-oss's harmony channels: "<|channel|>analysis<|message|>" opens the working, and the end of
# that message with the final channel's start closes it ("<|end|><|start|>assistant<|channel|>
# final<|message|>"); the final channel alone marks where the answer starts. An assistant's own
# role header ("<|im_start|>assistant", "<|start_header_id|>assistant<|end_header_id|>",
# "<|assistant|>", "<start_of_turn>model") opens its turn and draws nothing. (Other roles' headers
# and the end-of-turn tokens are read by ``verifiers.answer_text``: a value after an end of turn
# is hidden.)
_CHANNEL_RE = re.compile(
    r"(?P<open>(?:<\|start\|>assistant)?<\|channel\|>analysis<\|message\|>)"
    r"|(?P<close><\|end\|>\s*(?:<\|start\|>assistant)?<\|channel\|>final<\|message\|>)"
    r"|(?P<final>(?:<\|start\|>assistant)?<\|channel\|>final<\|message\|>)"
    r"|(?P<header><\|im_start\|>assistant\n?|<\|start_header_id\|>assistant<\|end_header_id\|>|<\|assistant\|>"
    r"|<start_of_turn>model\n?)")


def _as_channels(text: str) -> str:
    """``text`` with gpt-oss's channels and assistant headers read (``_CHANNEL_RE``). The end of
    a message closes the working only after an analysis channel opened it: a final message that
    ends before another ("<|channel|>final<|message|>6<|end|>...final<|message|>5") ends the
    turn, and what follows is read as after any end of turn."""
    out, at, opened = [], 0, False
    for m in _CHANNEL_RE.finditer(text):
        if m.group("close") and not opened:
            continue
        out.append(text[at : m.start()])
        out.append("<think>" if m.group("open") else "</think>" if m.group("close") else "\n")
        opened = bool(m.group("open")) or (opened and not m.group("close"))
        at = m.end()
    out.append(text[at:])
    return "".join(out)


def _as_tag(m: re.Match[str]) -> str:
    if m.group("d") is not None:  # (its attributes stay, to be read as any tag's: '<|begin_of_thought| answer="899">')
        return f"<think{m.group('attrs')}>" if m.group("d").lower() == "begin" else "</think>"
    slash = [g for g in m.group("a", "b", "c", "e") if g is not None]
    if not slash:
        return "\n"  # a solution's marker
    return "</think>" if slash[0] else "<think>"


def _as_tags(text: str) -> str:
    if not any(hint in text for hint in _REASONING_HINTS):
        return text
    if "<|channel|>" in text or "assistant" in text or "<start_of_turn>model" in text:
        text = _as_channels(text)
    return _OTHER_REASONING_RE.sub(_as_tag, text)


def unclosed_reasoning(text: str) -> bool:
    """Whether ``text`` opens a reasoning block (``<think>``) that never closes: a rollout cut
    off while it thought, which gave no final answer (what the block says on the way is not
    one: paying it would pay a policy for never finishing)."""
    text = _as_tags(text)
    if "<" not in text:
        return False
    last = None
    for last in _REASONING_OPEN_RE.finditer(text):  # noqa: B007 - the last one
        pass
    return last is not None and _REASONING_END_RE.search(text, last.end()) is None


# Where the first end of reasoning stood, in ``read_visible(..., mark_reasoning_end=True)``:
# a paragraph separator, which no reading sees (the translation above makes every one in the
# input a line end before markup is read).
REASONING_END_MARK = "\u2029"
# Where the block that it closes opened (``<think>``): a line separator, which no reading sees
# either. What stands before it is part of the answer, not of the working.
REASONING_START_MARK = "\u2028"
