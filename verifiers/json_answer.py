"""A JSON object that ends a completion as its final answer (issue 30, round 12): the
structured output many RL prompts ask for, ``{"answer": 5}`` alone or in a fenced block
(``{"answer": "72", "confidence": 0.9}``), read as a commitment of ``verifiers.math_extract``'s
grammar (source ``json``).

The object is read by ``json`` and by allow-list, member by member (duplicate keys included:
``{"answer": 5, "answer": 6}`` names two answers, whatever a dict would keep):

    object   := "{" member ("," member)* "}"     the last thing in the completion, its "{"
                                                  opening a line; a closing code fence may follow
    member   := answer-key ":" value              every answer key holds the same value
              | unit-key ":" words                the answer's unit ("unit": "cm")
              | about-key ":" number              "confidence", "probability": how sure it is
              | affirm-key ":" true               "correct", "verified", "final": true
              | prose-key ":" text or list        "reasoning", "explanation", "steps", ...:
                                                  read beside the answer, on its line
    object   := "{" key ":" object "}"            one wrapper ({"result": {"answer": 5}})

The prose members are handed back as text (``prose``, one line), and the reader reads them as
the sentences just before "The answer is <value>." on its line: the members of an object stand
side by side, so what they say is said beside the answer, not in working that a later line
settles ("I am unsure between 197 and 198", "2+3 = 228, but actually it is 229", "maybe 448",
"the answer is 6" refuse it as they would in the answer's own line), and so does one that
denies the answer's own value ("it is not 979"). A member under any other key is one the
reader cannot vouch for: a value offered beside the answer (``{"answer": 5, "alternative":
6}``), a flag on it (``"correct": false``, ``"approximate": true``) or words about it
(``"status": "wrong"``): reason ``hedged``. Numbers keep the spelling they have in the source (``0.10`` stays ``0.10``),
except that an exponent is written out (``668e0`` is ``668``: in prose ``e`` is Euler's number).

>>> json_answer('The sum is 12.\\n{"answer": 12, "confidence": 0.9}').value
'12'
>>> json_answer('{"answer": 5, "other": 6}').problem[0]
'hedged'
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from verifiers.types import HEDGED, MALFORMED

__all__ = ["JsonAnswer", "json_answer"]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Keys, lower-cased without spaces, "_" and "-": what each member of the object is.
ANSWER_KEYS = _words("answer finalanswer final result finalresult")
UNIT_KEYS = _words("unit units unitofmeasure measure")
ABOUT_KEYS = _words("confidence certainty probability confidencelevel")
# Flags that vouch for the answer: true says nothing more; false or anything else disowns it.
AFFIRM_KEYS = _words("correct iscorrect verified isverified checked final isfinal certain confident sure")
PROSE_KEYS = _words(
    """
    reasoning explanation rationale justification steps step work working thoughts thought
    thinking notes note comment comments method approach summary solution calculation
    calculations derivation
    """
)
VALUE_KEYS = _words("value amount number")  # inside an answer object: {"answer": {"value": 5}}
QUESTION_KEYS = _words("question problem task prompt id")  # the question echoed, never an answer
# A member's value that is one number and nothing else.
_LONE_VALUE_RE = re.compile(r"[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?")
MAX_JSON_CHARS = 20_000  # an object longer than this is not read as the answer
MAX_PROSE_CHARS = 8_000  # the prose members read as working, at most
_MAX_STARTS = 16  # line-opening braces tried, from the latest in the window
_OBJECT_START_RE = re.compile(r"^[ \t]*\{", re.MULTILINE)
# Members as pairs, in order: a duplicate key is a second member, not an overwrite.
def _float_text(token: str) -> str:
    """A JSON number token as the comparator reads numbers: an exponent written out
    ("668e0" is 668, "1.5E3" is 1500; in prose "e" would be Euler's number). Kept as written
    when the exponent is too large to write out."""
    if "e" not in token.lower():
        return token
    try:
        number = Decimal(token)
    except InvalidOperation:
        return token
    exponent = number.as_tuple().exponent
    return token if not isinstance(exponent, int) or abs(exponent) > 40 else format(number, "f")


_DECODER = json.JSONDecoder(parse_int=str, parse_float=_float_text, parse_constant=str, object_pairs_hook=list)
_KEY_JUNK_RE = re.compile(r"[\s_\-]")
_STOP_END_RE = re.compile(r"[.!?\u3002]\s*\Z")
_FENCE_BEFORE_RE = re.compile(r"^[ \t]*```[A-Za-z]*[ \t]*\n[ \t]*\Z", re.MULTILINE)


@dataclass(frozen=True)
class JsonAnswer:
    """What a JSON object that ends a completion commits to: ``value`` (with its ``unit``
    member, if any) spanning ``start:end`` (from its code fence, if fenced), ``prose`` (its
    working members as text), or ``problem`` (``(reason, why)``) when it offers more."""

    value: str | None
    start: int
    end: int
    prose: str = ""
    problem: tuple[str, str] | None = None
    notes: tuple[str, ...] = ()  # the prose members one by one (``prose`` joins them)


def _object_at_end(text: str) -> tuple[int, int, list] | None:
    """``(opening, end, members)`` of the JSON object that ends ``text`` (before a closing
    code fence), its ``{`` opening a line; ``opening`` is where its code fence opens (its
    ``{`` when it has none). None when there is none."""
    end = len(text.rstrip())
    fenced = text.endswith("```", 0, end)
    if fenced:
        end = len(text[: end - 3].rstrip())
    if end == 0 or text[end - 1] != "}":
        return None
    starts = [m.end() - 1 for m in _OBJECT_START_RE.finditer(text, max(0, end - MAX_JSON_CHARS), end)]
    for start in reversed(starts[-_MAX_STARTS:]):  # the object's own "{" comes before any inner one
        try:
            members, stop = _DECODER.raw_decode(text[start:end])
        except (ValueError, RecursionError):
            continue
        if start + stop == end and isinstance(members, list):
            fence = _FENCE_BEFORE_RE.search(text, max(0, start - 40), start) if fenced else None
            return (start if fence is None else fence.start()), end, members
    return None


def _is_object(value: object) -> bool:
    return isinstance(value, list) and bool(value) and isinstance(value[0], tuple)


def _as_text(value: object, depth: int = 0) -> str:
    """A prose member as lines: a string, or the strings of a list (of steps) one per line."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and depth < 4:
        return "\n".join(_as_text(v[1] if isinstance(v, tuple) else v, depth + 1) for v in value)
    return ""


def _read_members(members: list, start: int, end: int, depth: int = 0, *, wrapped: bool = False) -> JsonAnswer | None:
    answers: list[object] = []
    units: list[str] = []
    prose: list[str] = []
    others: list[str] = []
    if len(members) == 1 and _is_object(members[0][1]) and depth < 2:
        # {"result": {"answer": 5}}; {"answer": {"value": 5}} names the answer's own value
        named = _KEY_JUNK_RE.sub("", members[0][0].lower()) in ANSWER_KEYS
        return _read_members(members[0][1], start, end, depth + 1, wrapped=named)
    for key, value in members:
        name = _KEY_JUNK_RE.sub("", key.lower())
        if name in ANSWER_KEYS and _is_object(value) and depth < 2:
            inner = _read_members(value, start, end, depth + 1, wrapped=True)  # {"answer": {"value": 5}}
            if inner is None or inner.problem is not None:
                return inner or JsonAnswer(None, start, end, problem=(MALFORMED, "the JSON answer is an object with no value"))
            answers.append(inner.value)
            prose.append(inner.prose)
        elif name in ANSWER_KEYS or (wrapped and name in VALUE_KEYS):
            answers.append(value)
        elif name in UNIT_KEYS and isinstance(value, str) and _unit_like(value):
            units.append(value.strip())
        elif name in UNIT_KEYS and isinstance(value, str):
            prose.append(value)  # "unit": "~", "units": "a guess": no unit, read as a note on it
        elif name in PROSE_KEYS and isinstance(value, str) and _LONE_VALUE_RE.fullmatch(value.strip()):
            answers.append(value)  # {"solution": 88}: a value alone under a working key is an answer
        elif name in PROSE_KEYS:
            prose.append(_as_text(value))
        elif name in ABOUT_KEYS and isinstance(value, str) and not any(c.isdigit() for c in value):
            prose.append(value)  # "certainty": "guess": how sure, in words: read as a note on it
        elif name in ABOUT_KEYS or name in QUESTION_KEYS or (name in AFFIRM_KEYS and value is True):
            continue  # ("correct": true vouches for it; "correct": false is read below, as a flag off the lists)
        else:  # a member off the lists: a value, a flag ("correct": false) or words ("status": "wrong")
            others.append(key)
    if not answers:
        return None  # no answer named: the object is read as any other text is
    if others:
        why = f"a member beside the JSON answer that is no answer, unit, confidence or working: {others[0][:40]!r}"
        return JsonAnswer(None, start, end, problem=(HEDGED, why))
    if not all(isinstance(v, str) for v in answers):
        why = "the JSON answer is no single value (a list, an object, true or null)"
        return JsonAnswer(None, start, end, problem=(MALFORMED, why))
    values = list(dict.fromkeys(v.strip() for v in answers))  # type: ignore[union-attr]
    if len(values) > 1:
        return JsonAnswer(None, start, end, problem=(HEDGED, "the JSON object names several answers"))
    if len(set(units)) > 1:
        return JsonAnswer(None, start, end, problem=(HEDGED, "the JSON object names several units"))
    value = values[0] if not units else f"{values[0]} {units[0]}"
    # each member a sentence of its own ("maybe 448" reads as "maybe 448.", a short offer)
    text = " ".join(p if _STOP_END_RE.search(p) else p + "." for p in (" ".join(p.split()) for p in prose) if p)
    notes = tuple(" ".join(p.split()) for p in prose if p.strip())
    return JsonAnswer(value, start, end, text[:MAX_PROSE_CHARS], notes=notes)


# (possessive runs: a run of letters is one word and a run of spaces one gap, never split
# across the repetition: "a a a ..." took exponential time, h47)
_UNIT_SHAPE_RE = re.compile(
    r"[ \t]*+(?:[A-Za-z]++|[\u00b0%$\u20ac\u00a3\u00a5])(?:[ \t]*+[/^*\u00b7]?[ \t]*+(?:[A-Za-z]++|\d))*+[ \t]*")


def _unit_like(value: str) -> bool:
    """Whether a unit member's value is a unit: symbols and unit words joined by ``/``, ``^``
    or a product (``km/h``, ``m^2``, ``kg m/s``), each word one the comparators read as a unit
    or count noun, or a symbol of at most three letters.

    >>> _unit_like("km/h"), _unit_like("dollars"), _unit_like("~"), _unit_like("a guess")
    (True, True, False, False)
    """
    from verifiers.exact_numbers import parse_quantity

    return bool(_UNIT_SHAPE_RE.fullmatch(value)) and all(
        (len(w) <= 3 and w.lower() not in ("a", "an", "or")) or parse_quantity(f"1 {w}") is not None
        for w in re.findall(r"[A-Za-z]+", value))


def json_answer(text: str) -> JsonAnswer | None:
    """The answer of a JSON object that ends ``text`` and names one (see the module doc), or
    None when no such object ends the text."""
    found = _object_at_end(text)
    if found is None:
        return None
    opening, end, members = found
    return _read_members(members, opening, end)
