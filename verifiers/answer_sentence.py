r"""The answer's own sentence (issue 30): a condition that opens it (``_condition_before``:
"If n is odd, \boxed{5}.") and the allow-list grammar of its rest after the value
(``_own_sentence``; the grammar is the comment above it: dressing, a head word that names
what the value counts, prose in which no closed-class word stands), with the vocabularies
they read with (closed heads, answer phrases of other scripts, a congruence's modulus).
``hedge_after`` in ``verifiers.answer_tail`` calls it. Moved out of ``verifiers.answer_tail``
unchanged."""

from __future__ import annotations

import re
import unicodedata

from verifiers.answer_closing import CLOSING_WORDS, closing_run_on, unread_closing
from verifiers.answer_values import _clean, _is_check, _seen, _sentence_start, _value_keys
from verifiers.spelled_numbers import spelled_value
from verifiers.types import HEDGED
from verifiers.unit_words import DRESSING_WORDS, read_words

_MODULUS_RE = re.compile(
    r"[\s$]*(?:\\[pb]?mod(?![A-Za-z])|\\pod(?![A-Za-z])|\(\s*(?:\\mod|mod)(?![A-Za-z]))\s*"
    r"(?:\{\s*[-+]?\d{1,40}\s*\}|[-+]?\d{1,40})\s*\)?"
)


# --- the answer's own sentence, and what later sentences may say about it (issue 30) --------
#
# own_sentence := dressing* [head prose] end        -- from the answer to its sentence's end
#   dressing   := space | , ; : ! | closing markup ($ \) \] ** ` }) | LaTeX spacing
#               | an end-of-proof mark (\blacksquare, \square, QED, a check mark)
#               | a unit sign (%, \%, ^\circ, °) | a congruence's modulus
#   head       := a word of the Latin script that names what the value counts or says of it
#                 ("apples", "different ways", "is our answer", "in total", "more than Susan"),
#                 never one of the closed classes below | "(" a check, a unit or a restatement ")"
#               | a word of another script that is an answer phrase ("です", "입니다")
#   prose      := text in which no condition, negation, bound, approximation, "or" or value
#                 word stands (those classes are closed: a language has few of each)
# Anything else there (a symbol such as "~", "+", "²", "❌"; a word of another script that is
# no answer phrase, "左右"; a closed-class word right after the value) refuses: ``hedged``.
_OWN_END_RE = re.compile(r"[.!?\u3002\uff01\uff1f\u0964\u061f](?=\s|$|\\)|\n")


_DISPLAY_CLOSE_RE = re.compile(
    r"[ \t$.,]*\n[ \t]*(?:\\\]|\$\$|\\end\s*\{[A-Za-z*]{1,20}\}|\\\))"
)


_OWN_DRESSING_RE = re.compile(
    r"(?:\s|[.,;:!]|\$|\\\)|\\\]|\*\*|__(?=[ \t]*(?:\n|$))|`|\}|\\[,;:! ]|\\q?quad(?![A-Za-z])|~(?=\s*[A-Za-z])|"
    r"\\(?:blacksquare|square|Box|qed|checkmark|quad|qquad|%)(?![A-Za-z])|%|\^\s*\{?\s*\\circ\s*\}?|"
    r"\\circ(?![A-Za-z])|\\degree(?![A-Za-z])|\u00b0|[\u220e\u25a0\u25a1\u2713\u2714\u2705]|"
    r"\bQ\.?E\.?D\b\.?|[\u3002\uff0e\uff01]|\\end\s*\{[A-Za-z*]{1,20}\}|<\|[a-z_]{1,20}\|>|</s>|</answer>|"
    r"\|(?=[ \t]*(?:\n|$)))*"  # (and the pipe that ends a table row: "| Answer | 10 |")
)


# Right after the value: words that relate it to another value, bound it, condition it,
# scale it or take it back (closed classes, in the languages a policy writes).
# Not "dozen", "score" or "gross": "how many dozen" is answered "5 dozen", a count in that unit.
_CLOSED_HEAD_RE = re.compile(
    r"(?:or|nor|but|if|when|whenever|unless|provided|providing|assuming|supposing|given|"
    # (not "min": after a number it is minutes, "36 min."; "minimum" bounds)
    r"except|only|not|never|no|nope|than|up|at|max|maximum|minimum|tops|plus|minus|times|"
    r"over|under|above|below|besides|instead|rather|vs|versus|either|neither|else|otherwise|"
    r"though|although|however|maybe|perhaps|possibly|probably|likely|approx|approximately|"
    r"about|around|roughly|nearly|almost|circa|ca|some|ish|or\w*|"
    r"grand|lakh|lakhs|crore|crores|bn|mn|mil|mio|mille|"
    r"thousand|million|billion|trillion|hundred|squared|cubed|doubled|halved|tripled|"
    r"half|twice|double|triple|none|nothing|all|few|couple|pair|infinity|undefined|"
    r"wrong|incorrect|false|invalid|guess|estimate|estimated|rounded|"
    r"etwa|ungef\u00e4hr|circa|environ|aprox|aproximadamente|oder|ou|ili|sau|veya|atau|lub|"
    r"falls|wenn|si|cuando|quand|nicht|pas|no|non|nie|bukan|hindi|de\u011fil|kh\u00f4ng)\b",
    re.IGNORECASE,
)


# Anywhere in the answer's sentence after it: a condition, a negation or judgement, a bound,
# an approximation, an alternative ("or"), a value word.
_OWN_PROSE_RE = re.compile(
    r"\b(?:if|when|whenever|unless|provided|providing|assuming|supposing|suppose|only\s+for|"
    r"in\s+(?:the\s+)?case|in\s+(?:most|many|some|general|the\s+(?!same\b)\w+)\s+cases?|"
    r"usually|typically|generally|for\s+(?:positive|negative|even|odd|real|all|some|each|every|any|"
    r"the\s+(?:first|second|other)|[a-z])\b|"
    r"not|never|nope|wrong|incorrect|false|invalid|mistaken|unsure|uncertain|guess\w*|"
    r"estimat\w*|approx\w*|rounded|roughly|bound|at\s+(?:least|most)|"

    r"or|nor|and/or|vs|versus|otherwise|else|and\s+(?:up|above|below|higher|lower|more|less|"
    r"over|under|beyond)|"
    r"si|falls|wenn|cuando|quand|lorsque|nicht|pas|etwa|ungef\u00e4hr|environ|aprox\w*|"
    # a base or a scale the value is written in ("301 in hexadecimal", "301 in thousands")
    r"in\s+(?:hex\w*|binary|octal|base|radix|thousands|millions|billions|trillions|hundreds|"
    r"lakhs?|crores?|dozens|scientific)|"
    # "if" in more languages (Italian/Portuguese, Indonesian, Turkish, Dutch, Polish, Russian)
    r"se|jika|kalau|apabila|e\u011fer|als|wanneer|je\u015bli|je\u017celi|"
    + _seen("\u0435\u0441\u043b\u0438")
    + r")\b|"
    r"n't\b|\\infty|\u221e|[\u274c\u2717\u2718\u2716]",
    re.IGNORECASE,
)


_LATIN_WORD_RE = re.compile(r"[A-Za-z\u00c0-\u024f][A-Za-z\u00c0-\u024f'\-]*")


# Inside a parenthesis after the answer: a check ("since 2 + 3 = 5") or a restatement.
_PAREN_LEAD_RE = re.compile(
    r"\s*(?:(?:since|because|as|check(?:ed)?|verif(?:y|ied|ication)|indeed|i\.?e\.?|that\s+is|"
    r"namely|so)\b[\s:,]*)?",
    re.IGNORECASE,
)


def _new_sentence_unread(body: str) -> bool:
    """Whether ``body``, the rest of the answer's sentence, opens a new sentence without its
    stop (a capital) that holds no value and is no closing prose: it is read as a later
    sentence is, allow-listed words only (``\\boxed{65} I give up.``, ``\\boxed{51} That number
    is a placeholder.``; ``\\boxed{65} Done.`` is closing prose)."""
    return (body[:1].isupper() and not any(c.isdigit() for c in body)
            and unread_closing(body) is not None)


# The value said to fail, right after it ("\boxed{73} leads to a contradiction.", "overshoots",
# "fails the check", "can be excluded", "is too big", h44); not "18 students fail", whose
# subject is the students.
_FAILS_RE = re.compile(
    r"(?:\s|\$|\\[)\]]|[*_)])*"
    # a relative clause or link that says it of the value ("which is extraneous", "that fails",
    # "so it is ruled out", "; this is impossible", h45)
    r"(?:(?:[A-Za-z]+(?:\s+|(?=[,;:\u2014]))){0,3}?[,;:\u2014]\s*(?:which|that|so\s+it|so\s+this|and\s+(?:it|this|that)|this|it|but\s+(?:it|this|that))\s+|"
    r"[,;:\u2014-]?\s*(?:which|that|so\s+it|so\s+this|and\s+(?:it|this|that)|this|it|but\s+(?:it|this|that))\s+)?"
    r"(?:(?:is|was|gets|got|can\s+be|must\s+be|should\s+be|would\s+be|will\s+be|we)\s+)?"
    r"(?:fail\w*|overshoot\w*|undershoot\w*|violat\w*|contradict\w*|leads?\s+to\s+(?:a\s+)?contradiction|"
    r"exclud\w*|reject\w*|ruled?\s+out|discard\w*|too\s+(?:big|small|large|high|low)|off\s+by|"
    # ("10 breaks" counts breaks: the verb takes an object)
    r"(?:breaks?|broke)\s+(?:the|a|an|this|that|our|its|every|all|one|some)\b|is\s+broken|"
    r"extraneous|impossible|absurd|exceeds?\s+(?:the|a|our|its)\b|cannot\s+be\s+(?:right|correct|true)|"
    r"does\s+not\s+(?:work|fit|hold)|doesn't\s+(?:work|fit|hold))\b",
    re.IGNORECASE)


# A currency or counter word of any language right after the value (``unit_words.DRESSING_WORDS``).
_DRESSING_HEAD_RE = re.compile(
    "(?:" + "|".join(re.escape(w) for w in sorted(DRESSING_WORDS, key=len, reverse=True)) + r")(?![^\W\d_])",
    re.IGNORECASE)


def _own_sentence(rest: str, answers: tuple[str, ...]) -> tuple[str, str] | None:
    """Why the rest of the answer's own sentence is no allow-listed closing (grammar above)."""
    start = 0
    for _ in range(8):  # "\\boxed{5}\n\\] or none.": the display's close is on the next line
        close = _DISPLAY_CLOSE_RE.match(rest, start)
        if close is None:
            break
        start = close.end()
    stop = _OWN_END_RE.search(rest, start)
    own = rest[start : len(rest) if stop is None else stop.start()][:2_000]
    i = _OWN_DRESSING_RE.match(own).end()  # type: ignore[union-attr] - always matches
    dressing = rest[:start] + own[:i]
    if "." in dressing and any(c in dressing for c in ("\n", "\\end", "\\]", "$$")):
        return None  # "\\boxed{5}.\n\\end{align*}Checking, ...": its sentence ended there
    modulus = _MODULUS_RE.match(own, i)
    if modulus is not None:  # "\boxed{3} \pmod{7}": the modulus dresses the answer
        i = _OWN_DRESSING_RE.match(own, modulus.end()).end()  # type: ignore[union-attr]
    if i >= len(own):
        return None
    why = HEDGED, f"the answer's sentence goes on with no allow-listed closing: {own[i:i + 40]!r}"
    body = own[i:]
    # "Die Antwort ist 108 Euro.", "Đáp án: 108 đồng.": the amount's currency (other scripts'
    # closing words are read by ``unboxed_answer``)
    currency = _DRESSING_HEAD_RE.match(body) if _LATIN_WORD_RE.match(body) else None
    if currency is not None and not body[currency.end() :].strip(" \t.!*_\u3002"):
        return None
    if _FAILS_RE.match(body):
        return HEDGED, f"the answer's sentence says it fails: {body[:40]!r}"
    if body[:1].isupper() and own[i - 1 : i].isspace():
        if closing_run_on("0 " + body) == 1:
            return None  # "**8840** Let me know if you have any questions.": a closing run on
        if _new_sentence_unread(body):
            return why
    if body[0] == "(":
        close = body.find(")")
        inner = body[1:] if close < 0 else body[1:close]
        if not _paren_ok(inner, answers):
            return why
        return None if close < 0 or _prose_ok(body[close + 1 :]) else why
    head = _LATIN_WORD_RE.match(body)
    if head is not None:
        word = head.group(0).rstrip("'-")
        # "5 K", "5 M": a scale letter (lower-case "m" is metres: "160 m of rope")
        if _CLOSED_HEAD_RE.fullmatch(word) or word in ("K", "M", "k", "B", "G", "T"):
            return why
        if len(word) == 1 and body[1:2].isdigit():
            return why  # "\\boxed{3} e3": an exponent
        if word.lower() in ("i", "v", "x", "a") and not _LATIN_WORD_RE.match(
            body, _skip_spaces(body, head.end())
        ):
            return why  # "\\boxed{5} I" (a Roman one; NFKC reads "Ⅰ" so), "\\boxed{5} a"
        if word.lower() == "and":  # "and then ..." goes on in prose; "and D", "and up" do not
            nxt = _LATIN_WORD_RE.match(body, _skip_spaces(body, head.end()))
            if nxt is None or not nxt.group(0).islower() or len(nxt.group(0)) < 2:
                return why
            if _CLOSED_HEAD_RE.fullmatch(nxt.group(0)):
                return why
        if _IF_OPEN_RE.match(body):
            return why  # "\boxed{5}: Hvis n er ulige.": a condition in any language
        if word.lower() in _COPULA_HEADS and not _predicate_ok(body[head.end() :], word.lower() in ("are", "were")):
            return why  # "301 is too small.", "\boxed{5} is an underestimate."
        if not _heads_ok(body, any(_clean(a).strip() in ("1", "-1") for a in answers)):
            return why
        return None if _prose_ok(body) else why
    if body[0] == "=" and _LONE_VARIABLE_RE.fullmatch(body[1:].replace("$", " ")):
        return None  # "\boxed{17} = x": the answer named by its variable
    if _FOREIGN_WORD_RE.match(body):
        for m in _FOREIGN_WORD_RE.finditer(body):
            if not (_ANSWER_PHRASES_RE.fullmatch(m.group(0)) or (m.start() == len(body) - len(body.lstrip(" \t*_$")) and _COUNTED_RE.fullmatch(m.group(0)))):
                return why
        return None if _prose_ok(body) else why
    if body[0] in "-\u2013\u2014" and body[1:2] == " ":  # "\boxed{5} - the number of apples"
        rest_words = body[1:].lstrip(" -\u2013\u2014")
        if rest_words[:1].isupper() and closing_run_on("0 " + rest_words) == 1:
            return None  # "\\boxed{65} - Hope this helps!"
        if _new_sentence_unread(rest_words):
            return why  # "\\boxed{65} - I give up."
        head = _LATIN_WORD_RE.match(rest_words)
        if (
            head is not None
            and not _CLOSED_HEAD_RE.fullmatch(head.group(0))
            and _heads_ok(rest_words)
            and _prose_ok(body)
        ):
            return None
    return why


# The words that may open the rest of the answer's sentence, or a clause of it after a comma,
# semicolon or dash (an allow-list: "\\boxed{5} Actually double that.", "\\boxed{5} the
# opposite", "\\boxed{5} apples, but double that" refuse): a closing word ("is our answer",
# "in total", "which is ..."), a unit or count noun ("apples", "cm", "people"), a word
# before one ("different ways", "dozen eggs"), "more"/"fewer"/"less" before "than", or a
# determiner before a closing word or count noun ("the total", "the number of apples").
_DETERMINERS = frozenset({"the", "a", "an", "its", "their", "his", "her", "this", "that", "our"})
_IRREGULAR_PLURALS = frozenset({
    "people", "children", "men", "women", "feet", "teeth", "mice", "geese", "sheep", "fish",
    "deer", "moose", "series", "species", "aircraft", "cattle", "police", "staff",
})
_HEAD_EXTRA = frozenset({"left", "remaining", "altogether", "apiece", "each", "per", "since",
                         "because", "then", "there", "who", "that", "where", "whose",
                         # what a count or probability is of: "a \\boxed{\\frac{2}{3}} chance
                         # of winning", "only \\boxed{1} such number", "\\boxed{3} digits"
                         "such", "chance", "chances", "probability", "digit", "digits",
                         "independent", "possible", "distinct"})
_CLAUSE_BREAK_RE = re.compile(r"[,;]|\s[-\u2013\u2014]+\s")


def _counts(word: str, one: bool = False) -> bool:
    """Whether ``word`` names what a value counts (a singular noun only after one: "1 apple")."""
    lower = word.lower()
    return read_words(lower, after_one=one) is not None or lower in _IRREGULAR_PLURALS


# After the value, a copula says what the value is: only an allow-listed predicate may follow
# ("is the answer", "is correct", "is the number of eggs left", "is the smallest such value").
# Any other word judges, bounds or rejects it ("is too small", "is an underestimate", "is what
# a careless student would answer").
_COPULA_HEADS = frozenset({"is", "are", "was", "were", "be"})
_PREDICATE_WORDS = CLOSING_WORDS | _HEAD_EXTRA | frozenset(
    {"of", "to", "in", "for", "on", "such", "possible", "only", "unique", "minimum", "maximum",
     "whole", "entire", "positive", "negative", "integer", "real", "we", "need", "want",
     "needed", "looking", "asked", "question's", "problem's", "amount", "count", "cost", "price",
     "length", "area", "perimeter", "volume", "distance", "time", "age", "weight", "speed",
     "remainder", "probability", "difference", "quotient", "average", "mean", "median", "mode",
     # what a worked solution says of its answer's form ("in simplest radical form", "the
     # smallest integer value that satisfies both conditions")
     "satisfies", "satisfy", "both", "already", "form", "radical", "simplified", "reduced",
     "terms", "exact", "fraction", "decimal", "expression", "condition", "conditions",
     # how the amount arises: a participle of an amount verb ("$720 is left over after ...",
     # "1500 were counted at the station"), and whether it is there ("present", "absent")
     "left", "over", "spent", "paid", "used", "sold", "bought", "made", "eaten", "given",
     "taken", "saved", "earned", "collected", "counted", "raised", "donated", "received", "kept",
     "owed", "shared", "distributed", "added", "removed", "sent", "delivered", "baked", "picked",
     "planted", "grown", "read", "written", "played", "worked", "required", "present", "absent"})
# After one of these, the predicate's noun phrase is read whole ("at the station", "on her
# weekly budget"): a preposition states where or how the amount is, never a judgement of it.
_PREDICATE_PREPOSITIONS = frozenset({"of", "at", "on", "in", "for", "to", "from", "with", "after",
                                     "before", "during", "into", "per", "each"})


def _predicate_ok(text: str, plural: bool = False) -> bool:
    """Whether every Latin word of ``text`` (the own sentence after "is") is an allow-listed
    predicate word or a superlative ("smallest") up to a preposition, after which its object
    is read whole unless it bounds, negates or scales. After a plural copula a count noun may
    name what the value counts ("20 were children"; "5 is mistakes" names no answer)."""
    words = [m.group(0).rstrip("'-") for m in _LATIN_WORD_RE.finditer(text)]
    for k, word in enumerate(words):
        low = word.lower()
        if low in _PREDICATE_PREPOSITIONS:
            return all(not _CLOSED_HEAD_RE.fullmatch(w) for w in words[k + 1 :])
        if not (low in _PREDICATE_WORDS or (low.endswith("est") and len(low) > 4)
                or (plural and k == 0 and _counts(low))):
            return False
    return True


def _head_ok(words: list[str], one: bool) -> bool:
    """Whether the words that open a clause after the value are allow-listed (above)."""
    first = words[0].lower()
    if one and first == words[0] and _counts(first, one) and not _CLOSED_HEAD_RE.fullmatch(first):
        return first not in ("actually", "double", "half", "opposite", "negative", "reciprocal")
    nxt = words[1].lower() if len(words) > 1 else ""
    if first in _DETERMINERS:
        return bool(nxt) and (nxt in CLOSING_WORDS or _counts(nxt) or (
            len(words) > 2 and _counts(words[2])))
    if first in ("more", "fewer", "less"):
        return nxt == "than"
    if first in CLOSING_WORDS or first in _HEAD_EXTRA or _counts(first):
        return True
    # an adjective before a count noun ("different ways"; not "Eigentlich das": a plural's
    # "-s" is read only on a word of four letters or more)
    return words[0].islower() and words[0].isascii() and any(
        len(w) >= 4 and _counts(w) for w in words[1:3])


def _heads_ok(body: str, one: bool = False) -> bool:
    """Whether ``body`` and each clause of it opens with allow-listed words (``_head_ok``)."""
    depth = [0] * (len(body) + 1)
    for a, b in _enclosed_spans(body):
        depth[a + 1] += 1
        depth[b] -= 1
    for i in range(1, len(depth)):
        depth[i] += depth[i - 1]
    starts = [0] + [m.end() for m in _CLAUSE_BREAK_RE.finditer(body) if depth[m.start()] <= 0]
    for start in starts:
        words = [m.group(0).rstrip("'-") for m in _LATIN_WORD_RE.finditer(body[start : start + 80])]
        lead = body[start : start + 80].lstrip(" \t$*")
        if not words or not lead[:1].isalpha():
            continue  # a clause that opens with a value or math is read by the value rules
        if not _head_ok(words[:3], one and start == 0):
            return False
    return True


def _enclosed_spans(text: str) -> list[tuple[int, int]]:
    """Closed ``$..$`` spans and matched brackets of ``text``: a comma inside them separates
    coordinates (``(x, y)``, ``$\\{1, 2\\}$``), not clauses. An opener never closed encloses
    nothing, so it cannot shelter a clause ("apples (, actually double that")."""
    spans: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    dollar = -1
    pairs = {")": "(", "]": "[", "}": "{"}
    for i, c in enumerate(text):
        if c == "$" and (i == 0 or text[i - 1] != "\\"):
            if dollar < 0:
                dollar = i
            else:
                spans.append((dollar, i))
                dollar = -1
        elif c in "([{":
            stack.append((c, i))
        elif c in pairs and stack and stack[-1][0] == pairs[c]:
            spans.append((stack.pop()[1], i))
    return spans


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _prose_ok(text: str) -> bool:
    """Whether ``text`` holds none of the closed classes that qualify a value (a condition,
    a negation or judgement, a bound, an approximation, "or", a value word), and no word of
    another script that is not an answer phrase."""
    if _OWN_PROSE_RE.search(text) or _stray_symbol(text) or _LONE_NUMERAL_RE.search(text):
        return False
    start = len(text) - len(text.lstrip(" \t*_$"))  # a counter right after the value ("441个")
    return all(_ANSWER_PHRASES_RE.fullmatch(m.group(0)) or (m.start() == start and _COUNTED_RE.fullmatch(m.group(0)))
               for m in _FOREIGN_WORD_RE.finditer(text))


# A Roman numeral letter standing alone as a word, not before another word ("apples I",
# NFKC's reading of "apples Ⅰ"); a lower-case "x" is a variable ("the value of x").
_LONE_NUMERAL_RE = re.compile(
    r"(?<![\w'\-.])[IVXiv](?![\w'\-])(?!\.[a-z]\.)(?![ \t]+[A-Za-z])"
)


# Symbols prose may hold besides ASCII, letters, marks, spaces and punctuation: end-of-proof
# and check marks, degree, currency signs, multiplication and minus signs.
_PROSE_SYMBOLS = frozenset("\u220e\u25a0\u25a1\u2713\u2714\u2705\u00b0\u20ac\u00a3\u00a5\u20b9\u00a2\u00d7\u00b7\u2212")


def _stray_symbol(text: str) -> bool:
    """Whether ``text`` holds a character that is neither ASCII, a letter, a mark, a space,
    punctuation nor an allow-listed symbol: an emoji, a superscript, a numeral character, a
    math symbol (an allow-list: ``\\boxed{5} Actually 🔟`` says another value)."""
    if text.isascii():
        return False
    for c in text:
        if c.isascii() or c in _PROSE_SYMBOLS:
            continue
        if unicodedata.category(c)[0] not in "LMZP" or unicodedata.category(c) == "Lm":
            return True
    return False


# A clause whose subject is something named other than the answer.
_OTHER_SUBJECT_RE = re.compile(
    r"(?:the\s+)?(?:option|choice|statement|case|part|graph|figure|equation|answer\s+choice)\s+"
    r"\(?[A-Za-z0-9]{1,3}\)?\s+(?:is|are|was|does|do|has)\b[^()]*\Z",
    re.IGNORECASE,
)


def _paren_ok(inner: str, answers: tuple[str, ...]) -> bool:
    """A parenthesis after the answer may hold a unit, a restatement of the answer or a check
    whose sides evaluate to it ("since 2 + 3 = 5"); nothing else ("(or B)", "(rounded)",
    "(assuming the coin is fair)")."""
    inner = inner[_PAREN_LEAD_RE.match(inner).end() :].strip(" \t$.")  # type: ignore[union-attr]
    if not inner:
        return True
    if _OTHER_SUBJECT_RE.match(inner):
        return True  # "(option B is incorrect)": a judgement of something else
    keys = {k for a in answers for k in _value_keys(a)}
    if "=" in inner:
        return _is_check(inner, keys) and _prose_ok(inner)
    spelled = spelled_value(inner)  # "\boxed{21} (twenty-one)", "\boxed{2} (два)": in words
    if spelled is not None and keys and not keys.isdisjoint(_value_keys(spelled)):
        return True
    if not _prose_ok(inner):
        return False
    if keys and not keys.isdisjoint(_value_keys(inner)):
        return True
    if spelled is not None:
        return False  # another number in words: "\boxed{5} (eins)"
    words = inner.split()
    if 0 < len(words) <= 4 and all(_LATIN_WORD_RE.fullmatch(w) for w in words):
        # a unit or count noun as the comparators read it ("dollars", "apples"), or closing
        # words ("(final answer)"); any other word is unread ("(guess)", "(tentative)")
        read = read_words(inner)
        return (read is not None and read[0] == 1) or unread_closing(inner) is None
    return False


# "If" in the languages a policy writes, opening the answer's sentence (not the temporal
# "when", "als", "quand", nor "se", a Romance pronoun: "Se obtiene 5").
_IF_OPEN_RE = re.compile(
    r"[\s*#>-]*(?:(?:if|unless|provided|assuming|suppose|supposing|wenn|falls|si|jika|kalau|als(?=\s+[a-z]\b)|"
    r"e\u011fer|jos|hvis|pokud|je\u015bli|dac\u0103|\u03b1\u03bd|n\u1ebfu|"
    r"\u0435\u0441\u043b\u0438|\u044f\u043a\u0449\u043e)\b|\u5982\u679c|\u5047\u5982|\u82e5|\u3082\u3057|"
    r"\u0627\u0630\u0627|\u0625\u0630\u0627|\u05d0\u05dd|\u0905\u0917\u0930|\u092f\u0926\u093f|\u0e16\u0e49\u0e32|\ub9cc\uc57d)",
    re.IGNORECASE,
)
# A condition opening the answer's sentence, with nothing but the commitment after its comma:
# "If n is odd, \boxed{5}.", "In case a, #### 94", "当n为奇数时, the answer is 5".
_CONDITION_OPEN_RE = re.compile(
    r"[\s*#>-]*(?:(?:but|and|or)\s+)?(?:only\s+)?(?:(?:if|when|whenever|unless|provided|assuming|suppose|supposing|only\s+if|"
    r"in\s+case|in\s+the\s+case|for|si|falls|wenn|cuando|quand|lorsque|"
    # "if" in more languages (Italian/Portuguese, Indonesian, Turkish, Dutch, Polish, Swedish,
    # Danish/Norwegian, Finnish, Hungarian, Czech, Romanian, Greek, Vietnamese, Ukrainian)
    r"se|jika|kalau|e\u011fer|als|indien|je\u015bli|je\u017celi|om|hvis|jos|ha|pokud|"
    r"dac\u0103|\u03b1\u03bd|n\u1ebfu|"
    + _seen("\u0435\u0441\u043b\u0438|\u043a\u043e\u0433\u0434\u0430|\u044f\u043a\u0449\u043e")
    + r")\b|\u5f53|\u5982\u679c|\u5047\u5982|\u82e5|\u3082\u3057|\u0627\u0630\u0627|\u0625\u0630\u0627|"
    r"\u05d0\u05dd|\u0905\u0917\u0930|\u092f\u0926\u093f|\u0e16\u0e49\u0e32|\ub9cc\uc57d)",
    re.IGNORECASE,
)


_BARE_COMMITMENT_RE = re.compile(
    r"[\s*$(\\\[]*(?:(?:then|so|thus|hence|the\s+(?:final\s+)?answer\s+(?:is|would\s+be)|"
    r"(?:final\s+)?answer\s*[:=]|it\s+is|it's|<answer>|####)\s*[:*$(\\\[\s]*)?\Z",
    re.IGNORECASE,
)


_OPEN_LINE_RE = re.compile(r"[,\uff0c\u3001\u2013\u2014\u2026][\s*_]*\Z")


def _condition_before(text: str, start: int) -> tuple[str, str] | None:
    """Why the answer starting at ``start`` is stated under a condition that opens its
    sentence ("If n is odd, \\boxed{5}."), or None. A derivation ("If we add them, we get
    \\boxed{5}") commits after its comma and is no condition on the answer."""
    line_start = text.rfind("\n", 0, start) + 1
    sentence_start = max(_sentence_start(text, start), line_start, start - 400)
    if sentence_start == line_start > 0:  # "If n is odd,\n5.": the line before opens it
        before = text.rfind("\n", 0, line_start - 1) + 1
        if line_start - before <= 200 and _OPEN_LINE_RE.search(text, before, line_start - 1):
            sentence_start = before
    head = text[sentence_start:start]
    comma = max(head.rfind(","), head.rfind("\uff0c"), head.rfind("\u3001"), head.rfind("\u2014"),
                head.rfind(" \u2013 "))
    if comma < 0 or not _CONDITION_OPEN_RE.match(head):
        return None
    if _BARE_COMMITMENT_RE.match(head, comma + 1):
        return HEDGED, f"the answer is stated under a condition: {head.strip()[:40]!r}"
    return None


# A span that only names a variable ("... the smallest such $n$.") states no answer.
_LONE_VARIABLE_RE = re.compile(r"\s*(?:[A-Za-z]|\\[a-zA-Z]+)(?:_\{?\w{1,3}\}?)?\s*")


# Words of other scripts a closing sentence may hold around its value: "answer", "is",
# "so", "result" in the major languages. Anything else ("ليس", "नहीं") may deny or bound
# the value, and no table of negations in every language is complete: an allow-list is.
_ANSWER_PHRASES = (
    "答案|最终答案|最終答案|正确答案|正確答案|正确|正確|答|是|为|為|等于|等於|所以|因此|结果|結果|故|即|综上所述|綜上所述|综上|綜上|"
    "一共|总共|總共|共计|共計|合计|合計|总计|總計|"  # ("in total": "一共是 54")

    "答え|は|です|よって|したがって|"
    "정답|답|은|는|이다|입니다|따라서|그러므로|"
    "الجواب|الإجابة|الاجابة|هو|هي|إذن|اذن|النتيجة|"
    "उत्तर|है|अतः|इसलिए|परिणाम|जवाब|است|"
    "ответ|равен|равно|это|итак|"
    "απάντηση|η|είναι|"
    "ה?תשובה|היא|"
    "คำตอบ|คือ|สุดท้าย|"
    # "answer" and "final" in more languages (labels such as "Остаточна відповідь:", "پاسخ:")
    "окончательный|окончательный|отговор|одговор|відповідь|остаточна|жауап|τελική|"
    "最終的な|最終|최종|अंतिम|النهائية|الإجابة|התשובה|הסופית|پاسخ|نهایی|جواب|উত্তর|"
    "பதில்|պատասխան|პასუხი"
)


_ANSWER_PHRASES_RE = re.compile(f"(?:{_ANSWER_PHRASES})+", re.IGNORECASE)
# Counters and units of the scripts without Latin count nouns, right after the value ("441个",
# "259개입니다", "169円です", "5 человек", "30 रुपये"): dressing, as "12 apples" is. A closed list:
# anything else there may bound or deny it.
_COUNTERS = (
    "个|個|只|隻|本|张|張|件|条|條|块|塊|元|円|圆|人|名|位|岁|歲|次|回|天|日|年|月|周|週|小时|小時|"
    "分钟|分鐘|分|秒|米|厘米|公里|千米|克|千克|公斤|斤|颗|顆|辆|輛|杯|瓶|支|枝|头|頭|匹|棵|朵|"
    "间|間|套|双|雙|对|對|页|頁|份|盒|箱|袋|包|枚|冊|台|歳|つ|株|把|架|座|片|粒|层|層|度|"
    "개|명|원|살|번|마리|권|장|대|시간|분|초|미터|킬로미터|킬로그램|그램|달러|층|병|잔|켤레|채|송이|그루|일|"
    "человека?|людей|рубл(?:ей|я|ь)|руб|долларов|доллара?|штук[аи]?|лет|года?|дней|дня|день|"
    "часов|часа?|минуты?|минут|метров|метра?|километров|килограммов|граммов|"
    "रुपये|रुपए|लोग|साल|वर्ष|दिन|घंटे|मिनट|मीटर|"
    "دولارا?|دولارات|ريالا?|درهما?|شخصا?|أشخاص|سنة|سنوات|يوما?|أيام|"
    # and every currency or counter of another script the comparators read (``unit_words``)
    + "|".join(re.escape(w) for w in sorted(DRESSING_WORDS, key=len, reverse=True) if not w.isascii())
)
_COUNTED_RE = re.compile(f"(?:{_COUNTERS})(?:{_ANSWER_PHRASES})*", re.IGNORECASE)


# A run of letters of a script other than Latin (marks included: Devanagari vowel signs).
_FOREIGN_WORD_RE = re.compile(r"(?:(?![A-Za-z\u00c0-\u024f])[^\W\d_]|[\u0900-\u0dff\u0e00-\u0e7f])+")
