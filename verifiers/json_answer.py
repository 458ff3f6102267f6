"""A JSON object that ends a completion as its final answer (issue 30, round 12): the
structured output many RL prompts ask for, ``{"answer": 5}`` alone or in a fenced block
(``{"answer": "72", "confidence": 0.9}``), read as a commitment of ``verifiers.math_extract``'s
grammar (source ``json``).

The object is read by ``json``, never by the prose readers, and by allow-list:

    object   := "{" member ("," member)* "}"     the last thing in the completion, its "{"
                                                  opening a line; a closing code fence may follow
    member   := answer-key ":" value              every answer key holds the same value
              | ignored-key ":" anything          "confidence", "reasoning", "explanation", ...
              | other-key ":" no value            a string, list or object with no digit

Any other key whose value holds a number is a value offered beside the answer (``{"answer":
5, "alternative": 6}``, ``{"answer": 5, "maybe": "6"}``): reason ``hedged``. Numbers keep the
spelling they have in the source (``1e3`` stays ``1e3``, ``0.10`` stays ``0.10``).

>>> json_answer('The sum is 12.\\n{"answer": 12, "confidence": 0.9}')[0]
'12'
>>> json_answer('{"answer": 5, "other": 6}')[0]
'hedged'
"""

from __future__ import annotations

import json
import re

from verifiers.types import HEDGED, MALFORMED

__all__ = ["json_answer"]

# Keys, lower-cased without spaces, "_" and "-", that name the answer.
ANSWER_KEYS = frozenset({"answer", "finalanswer", "final", "result", "finalresult"})
# Keys whose values are about the answer, never a second one.
_IGNORED = """
    confidence certainty probability reasoning explanation rationale justification steps step
    work working thoughts thought thinking notes note comment comments method approach summary
    unit units format question problem id
"""
IGNORED_KEYS = frozenset(_IGNORED.split())
MAX_JSON_CHARS = 20_000  # an object longer than this is not read as the answer
_MAX_STARTS = 16  # line-opening braces tried, from the earliest in the window
_OBJECT_START_RE = re.compile(r"^[ \t]*\{", re.MULTILINE)
_DECODER = json.JSONDecoder(parse_int=str, parse_float=str, parse_constant=str)
_KEY_JUNK_RE = re.compile(r"[\s_\-]")
_FENCE_BEFORE_RE = re.compile(r"^[ \t]*```[A-Za-z]*[ \t]*\n[ \t]*\Z", re.MULTILINE)


def _object_at_end(text: str) -> tuple[int, int, int, dict] | None:
    """``(opening, start, end, object)`` of the JSON object that ends ``text`` (before a
    closing code fence), its ``{`` opening a line; ``opening`` is where its code fence opens
    (``start`` when it has none). None when there is none."""
    end = len(text.rstrip())
    fenced = text.endswith("```", 0, end)
    if fenced:
        end = len(text[: end - 3].rstrip())
    if end == 0 or text[end - 1] != "}":
        return None
    starts = [m.end() - 1 for m in _OBJECT_START_RE.finditer(text, max(0, end - MAX_JSON_CHARS), end)]
    for start in reversed(starts[-_MAX_STARTS:]):  # the object's own "{" comes before any inner one
        try:
            obj, stop = _DECODER.raw_decode(text[start:end])
        except (ValueError, RecursionError):
            continue
        if start + stop == end and isinstance(obj, dict):
            fence = _FENCE_BEFORE_RE.search(text, max(0, start - 40), start) if fenced else None
            return (start if fence is None else fence.start()), start, end, obj
    return None


def _holds_value(value: object, depth: int = 0) -> bool:
    """Whether a JSON value holds a number: a number, a string with a digit, or a list or
    object holding one (``true``, ``null`` and words hold none)."""
    if isinstance(value, str):
        return any(c.isdigit() for c in value)
    if isinstance(value, list) and depth < 8:
        return any(_holds_value(v, depth + 1) for v in value)
    if isinstance(value, dict) and depth < 8:
        return any(_holds_value(v, depth + 1) for v in value.values())
    return False


def json_answer(text: str) -> tuple[str, int, int] | tuple[str, str] | None:
    """``(answer, start, end)`` when a JSON object ends ``text`` and names its answer
    (``start``/``end`` span the object, from its code fence's opening if it has one);
    ``(reason, why)`` when that object offers more than one
    value or an answer that is no value; None when no such object ends the text."""
    found = _object_at_end(text)
    if found is None:
        return None
    opening, _, end, obj = found
    answers, others = [], []
    for key, value in obj.items():
        name = _KEY_JUNK_RE.sub("", key.lower())
        if name in ANSWER_KEYS:
            answers.append(value)
        elif name not in IGNORED_KEYS and _holds_value(value):
            others.append(key)
    if not answers:
        return None  # no answer named: the object is read as any other text is
    if others:
        return HEDGED, f"another value in the JSON answer, under {others[0][:40]!r}"
    if not all(isinstance(v, str) for v in answers):
        return MALFORMED, "the JSON answer is no single value (a list, an object, true or null)"
    values = dict.fromkeys(v.strip() for v in answers)
    if len(values) > 1:
        return HEDGED, "the JSON object names several answers"
    return next(iter(values)), opening, end
