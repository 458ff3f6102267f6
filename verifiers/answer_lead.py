r"""The ``lead`` rule of the answer grammar (issue 30, round 5): the words just before the
final value must commit to it, by an allow-list.

Earlier rounds refused a hedge before the value by listing hedges (``about``, ``at least``,
``vielleicht``, ``Wrong answer:``). Every blind attack found words the lists lacked
(``Nearly: \boxed{282}``, ``Approaching \boxed{406}.``, ``Hvis n er ulige \boxed{3}``,
``**Eliminated:** 14``): the words that can qualify a number are an open class. The words
that *commit* to one are few, so this rule lists those instead::

    lead    := the answer's sentence on its line, up to the commitment (markup stripped)
    lead    := ""                                      "\boxed{5}", "**Answer**\n\boxed{5}"
             | ... relation                            "x = \boxed{5}", "\Rightarrow \boxed{5}"
             | [label] ":"   with an answer label      "Final answer: 5", "Svar: 7", "x: 3"
             | ... commit-word filler*                 "so the total is \boxed{5}",
                                                       "which gives us 5", "Thus, \boxed{5}"
             | ... answer-phrase                       "所以答案是\boxed{5}", "정답은 5"
             | ... math or a value                     (read by the ``before`` rule instead)

    commit-word := a copula or committing verb ("is", "equals", "gives", "has", "costs",
                   "ist", "es", "är", "adalah", ...), a connective ("so", "thus"), "of"
                   ("a total of 5"), an answer word, or a word ending in "'s" ("it's")
    filler      := "therefore", "just", "exactly", "us", ... (after a commit-word)

Around that: an opener before the sentence's last comma may not doubt, negate, approximate
or set a scenario (``Probably,``, an adverb in -ly outside a short list, another script's word
outside the answer phrases), a clause there may not open with another value (``6 also
works;``), and a bracketed word or an enclosed digit right before the value refuses
(``6 (or) #### 7``, ``1\u20dd \\boxed{5}``); before an "answer is" clause only answer-label
words stand (``Bad answer: 5`` refuses).

Round 6 (the blind h22 and h23 sets): what governs an answer clause is read whether the value
is boxed or not and in any label language (``I think the answer is \\boxed{5}``, ``Acho que a
resposta é 5``, ``I think it's 5``; ``unread_clause_lead``); before a commitment an opener of
one to three words is read by an allow-list (``SHORT_OPENERS``: ``Etwa,``, ``At most,``
refuse); a doubt word in the answer's own clause refuses (``My hunch is``); an opener line
ending in a comma, dash or ellipsis is one sentence with the next line (``lead_start``).

Any other word right before the value leaves it unread: reason ``hedged``. So a value after
a word this module does not know is refused, whatever that word means; ``Janet sells 9
eggs.`` (a verb not listed) is refused with the bounds and conditions, and the README says so.

>>> uncommitted_lead("So the answer is ", )
>>> uncommitted_lead("Nearly: ")[0]
'hedged'
>>> uncommitted_lead("Hvis n er ulige ")[1]
"the answer is stated under a condition: 'Hvis n er ulige'"
"""

from __future__ import annotations

import re

from verifiers.answer_sentence import _ANSWER_PHRASES_RE, _CONDITION_OPEN_RE, _IF_OPEN_RE
from verifiers.answer_values import _sentence_start
from verifiers.labelled_lines import _LETTER
from verifiers.lead_words import (
    ADDS_UP,
    ANSWER_NOUNS,
    ANSWER_WORDS,
    ARTICLES,
    AUXILIARIES,
    CLAUSE_LINKS,
    COMMIT_WORDS,
    CONNECTIVE_WORDS,
    DOUBT_OR_BELIEF,
    FILLERS,
    JOINERS,
    LABEL_WORDS,
    LY_OK,
    NOT_NOUNS,
    NOUN_TAKERS,
    OBJECT_PRONOUNS,
    OPENER_QUALIFIERS,
    OWN_DOUBT_WORDS,
    PLAIN_LY_WORDS,
    PREPOSITION_HEADS,
    PREPOSITIONS,
    QUALIFIER_WORDS,
    REVISION_WORDS,
    SHORT_COPULAS,
    SHORT_OPENERS,
)
from verifiers.qualifier_words import APPROXIMATE_WORDS, BOUND_WORDS, MAYBE_WORDS
from verifiers.types import HEDGED
from verifiers.word_hints import folded

__all__ = ["lead_start", "uncommitted_lead", "unread_clause_lead"]




_DIGIT_RE = re.compile(r"\d")
_LINK_RE = re.compile(r"\b(?:so|thus|hence|therefore|then)\b", re.IGNORECASE)
# A clause that states the value as the answer, or as "it": whatever stands before it in its
# sentence governs it ("I think", "Suppose", "If x > 0", "我觉得"), so only answer-label words
# may ("So the answer is", "Then it's").
_STATED_CLAUSE_RE = re.compile(
    r"(?:\b(?:the|our|my|its|this)\s+)*(?:\b(?:final\s+)?answer\s+(?:is|would\s+be|will\s+be|"
    r"should\s+be)|\b(?:it|that)(?:['\u2019]s|\s+is|\s+was))\s*\Z",
    re.IGNORECASE,
)
_RELATION_END_RE = re.compile(
    r"(?:=|:=|\u21d2|\u2192|\u2234|\u2261|\u2248|\\(?:Rightarrow|Longrightarrow|implies|"
    r"therefore|approx|equiv|iff|in|ni|subseteq?|cong|sim)(?![A-Za-z]))\Z"
)
# Markup that may close the lead: spacing, math openers, bold, quotes, a box's own opening.
_TRAILING_MARKUP = " \t*_$#>`~{(['\"\u201c\u00ab\u3000"
# (a lone backslash before the value is an escaped dollar's: "greater than \$110")
_OPENERS_RE = re.compile(r"(?:\\[(\[]|\\(?:displaystyle|text(?:bf)?|mathbf|bf)(?![A-Za-z])|\{|\\(?<!\\\\))\Z")
# A digit dressed by a combining enclosing mark or keycap ("1\u20dd", "7\ufe0f\u20e3") is a value.
_ENCLOSED_DIGIT_RE = re.compile(r"\d[\ufe0e\ufe0f]?[\u20dd-\u20e4][\W_]*\Z")
# A command, and a colour's name ("\textcolor{red}{Note:}"), is no word of the prose.
_COMMAND_RE = re.compile(r"\\(?:(?:text)?color\{[^{}]{0,40}\}|[A-Za-z]+)")
_BRACKETED_WORD_RE = re.compile(
    rf"(?<![A-Za-z\\])[(\[{{\u3010\uff08]\s*({_LETTER}+)\s*"
    r"[)\]}\u3011\uff09][\s*_$]*\Z"
)
# A word of any script, its combining marks included, and an apostrophe's ending ("it's").
_WORD_RE = re.compile(rf"{_LETTER}+(?:['\u2019][^\W\d_]+)?")
_RELATION_RE = re.compile(_RELATION_END_RE.pattern.removesuffix(r"\Z"))


_COMMA = r"[,;\uff0c\u3001\u060c\u061b\uff1b]"
_GAP_BREAK_RE = re.compile(_COMMA + "|[:\uff1a.!?]")
# Where a sentence splits into parts: at a comma, but not one between digits ("9,439").
_PARTS = r"(?<!\d),|,(?!\d)|[;\uff0c\u3001\u060c\u061b\uff1b\u2014\u2026]|\.\.\.|\s\u2013\s"
# A clause that opens with a value and says something of it, with no arithmetic and no other
# number ("6 also works;"; not "4 in one and 1 in the other,", a case of a list).
_VALUE_OPENS_RE = re.compile(
    r"[\s*_$]*[-+]?\d[\d,.]*+(?![\d.,]*[A-Za-z(])[*_$]*[ \t]+(?=[^\W\d_])"
    r"(?![^=<>\u2264\u2265]*[=<>\u2264\u2265])(?!\D*\d)"
)
# Opener words are read in English only: another language's doubt and condition words
# ("Có lẽ", "Se n è dispari") are an open class; its answer phrases are listed.
_NOT_ASCII_RE = re.compile(r"[^\x00-\x7f]")
# A part that holds math or a number is no short opener ("$ and $d = 4", "and 24"): the
# before rule and the value rules read it.
# A sign that approximates, standing as a word before the answer ("\u2248, #### 8", "~, \u7b54\u6848\u662f7").
_APPROX_SIGN_RE = re.compile(r"[~\u2248\u223c\u2243\u2245\u2252\u00b1\u2213]|\\(?:approx|sim|simeq|cong|pm|mp)(?![A-Za-z])")
_MATH_CHARS_RE = re.compile(r"[\d$\\{}=<>()\[\]^|]")
_BARE_VALUE_RE = re.compile(r"[\s*_$]*[-+]?\d[\d,.]*[\s*_$/\u2013\u2014-]*")
# A lead that ends at a comma: an opener and the value, no clause of its own.
_ENDS_AT_COMMA_RE = re.compile(
    r"(?:" + _COMMA + r"|[\u2013\u2014\u2026]|\.\.\.|\s--?)[\s*_$`~{(\[]*\Z")
# A line that ends inside its sentence ("Maybe,", "If n is odd,", "Probably —"): the next
# line goes on with it.
_OPEN_LINE_END_RE = re.compile(r"(?:" + _COMMA + r"|[\u2013\u2014\u2026]|\.\.\.)[\s*_]*\Z")


# Marks that reject what follows them (a cross, a thumbs-down, a no-entry sign).
_REJECT_MARK_RE = re.compile("[\u2715\u2716\u2717\u2718\u274c\u274e\u26d4\U0001f44e\U0001f6ab\u2612]")
# An example's lead right before the value ("e.g.", "for instance", "z. B.", "例如"), or another
# person's answer reported.
_EXAMPLE_END_RE = re.compile(
    r"(?:\be\.\s?g\.?|\bfor\s+(?:example|instance)|\bsuch\s+as|\bz\.\s?B\.|\bpor\s+ejemplo|\bpar\s+exemple|"
    r"\bp\.\s?ej\.|\bp\.\s?ex\.|\b(?:let's\s+)?say\s*,|\u043d\u0430\u043f\u0440\u0438\u043c\u0435\u0440|"
    # another person's answer, reported ("My friend answered \boxed{5}", "A student said")
    r"\b(?:my|a|an|his|her|our|their|another|the|some)\s+(?:\w+\s+)?(?:friend|student|classmate|teacher|colleague|"
    r"brother|sister|model|assistant|reader|person)\s+(?:answered|said|says|guessed|wrote|claimed|got|suggested)|"
    r"\bzum\s+Beispiel|\bper\s+esempio|\bpor\s+exemplo|\u4f8b\u5982|\u6bd4\u5982|\u4f8b\u3048\u3070)[\s,:;*_$\\(\[{]*\Z",
    re.IGNORECASE)


# The word or mark each lead above ends with, lowercased (a case-blind pattern tried at every
# position of the head is slow; one test of its end rules most heads out first: speed).
_EXAMPLE_ENDINGS = (
    "g", "g.", "example", "instance", "as", "b.", "ejemplo", "exemple", "ej.", "ex.", "say",
    "\u043d\u0430\u043f\u0440\u0438\u043c\u0435\u0440", "answered", "said", "says", "guessed", "wrote",
    "claimed", "got", "suggested", "beispiel", "esempio", "exemplo", "\u4f8b\u5982", "\u6bd4\u5982",
    "\u4f8b\u3048\u3070")
_EXAMPLE_TRAIL_RE = re.compile(r"[\s,:;*_$\\(\[{]*\Z")


def example_lead(before: str) -> bool:
    """Whether ``before`` (the text right before a commitment) ends in an example's lead."""
    end = _EXAMPLE_TRAIL_RE.search(before).start()  # (always matches: it may be empty)
    if not folded(before, max(0, end - 12), end).endswith(_EXAMPLE_ENDINGS):
        return False
    return _EXAMPLE_END_RE.search(before) is not None


def _strip_markup(head: str) -> str:
    while True:
        before = head
        head = _OPENERS_RE.sub("", head)  # "\(" before its "(" is stripped alone (h44)
        head = head.rstrip(_TRAILING_MARKUP)
        head = _OPENERS_RE.sub("", head)
        if head == before:
            return head


def lead_start(text: str, start: int) -> int:
    """``start`` (where the answer's sentence starts on its line), moved back to the line
    before when that line ends inside the sentence: ``Maybe,\nthe answer is 5`` is one
    sentence, read whole by the lead rules."""
    if start > 0 and text[start - 1] == "\n":
        before = text.rfind("\n", 0, start - 1) + 1
        if start - 1 - before <= 200 and _OPEN_LINE_END_RE.search(text, before, start - 1):
            return before
    gap = len(text[max(0, start - 8) : start].rstrip(" \t")) + max(0, start - 8)
    after = text[start : start + 8].lstrip(" \t")[:1]
    if after and not after.isupper() and text.endswith(("...", "\u2026"), 0, gap):
        return _sentence_start(text, gap - 3)  # "Maybe... the answer is 5": one sentence
    return start


def uncommitted_lead(head: str, *, committed: bool = True) -> tuple[str, str] | None:
    """Why ``head`` (the answer's sentence on its line, up to its commitment or value) does
    not commit to what follows it, or None. Only a lead that ends in a word or a colon is
    judged; one that ends in math or a value is the ``before`` rule's. ``committed``: the
    value is a commitment (a box, a tag, a ``####`` line), not a closing value of prose."""
    sign = None
    for sign in _APPROX_SIGN_RE.finditer(head, max(0, len(head) - 300)):  # noqa: B007 - the last one
        pass
    if sign is not None and not _DIGIT_RE.search(head, sign.end()) and _WORD_RE.search(
            _COMMAND_RE.sub(" ", head[sign.end():])):
        # "\approx, 答案是0", "≈ cevap 9": an approximation sign with no value of its own after it
        return HEDGED, f"an approximation sign opens the answer's sentence: {head[sign.start():].strip()[:40]!r}"
    mark = _REJECT_MARK_RE.search(head, max(0, len(head) - 40))
    if mark is not None:  # "\u2717 \boxed{5}", "\u274c 5": a value marked as rejected
        return HEDGED, f"a mark of rejection before the final value: {mark.group(0)!r}"
    if example_lead(head):  # "e.g. \boxed{5}", "for example, \boxed{5}": one of several
        return HEDGED, f"the final value is given as an example or as another's answer: {head.strip()[-30:]!r}"
    if _ENDS_AT_COMMA_RE.search(head):
        # "Since 53 is prime, \boxed{...}": an opener and the value, no clause of its own
        return _unread_opener([head], committed=committed)
    head = _strip_markup(head)
    if not head or _RELATION_END_RE.search(head):
        return None
    bracketed = _BRACKETED_WORD_RE.search(head)
    if bracketed is not None:
        # "6 (of) #### 7", "5 {или} #### 6": a word set apart before the value joins nothing
        return HEDGED, f"a bracketed word before the final value: {bracketed.group(0).strip()!r}"
    if _ENCLOSED_DIGIT_RE.search(head):
        return HEDGED, f"an enclosed number before the final value: {head[-4:]!r}"
    if head[-1] in ":\uff1a":
        return _unread_label(_strip_markup(head[:-1]))
    if _IF_OPEN_RE.match(head) and not re.search(_PARTS, head):
        # "Wenn n ungerade ist \boxed{5}": a condition that runs into the answer without a comma
        return HEDGED, f"the answer is stated under a condition: {head.strip()[:40]!r}"
    last = head[-1]
    if not (last.isalpha() or last in "'\u2019" or "\u0300" <= last <= "\u036f"
            or "\u0900" <= last <= "\u0e7f"):
        return None  # math, a value, a bracket: the before rule reads it
    cut = len(head) > 200  # the window's first part may start mid-word
    head = head[-200:]
    relation = None
    for relation in _RELATION_RE.finditer(head):  # noqa: B007 - the last one
        pass
    if relation is not None and all(
        w.lower() in FILLERS or w.lower() in ARTICLES for w in _WORD_RE.findall(head[relation.end():])
    ):
        return None  # "Thus x = just $\boxed{1}$": the relation commits
    prose = _COMMAND_RE.sub(" ", head)
    found = list(_WORD_RE.finditer(prose))
    unknown: list[str] = []
    for k in range(len(found) - 1, -1, -1):
        word = found[k].group(0)
        low = word.lower()
        if low in JOINERS:
            return None  # "..., or \boxed{1.25}": a value before it is the before rule's
        if low in PREPOSITIONS and not _preposition_named(found, k):
            unknown.append(word)  # "falls short of 18", "a maximum of 18": no amount named
            break
        if (low in COMMIT_WORDS or low in PREPOSITIONS or low.endswith(("'s", "\u2019s"))
                or _ANSWER_PHRASES_RE.fullmatch(word) or low in ANSWER_WORDS):
            if not unknown or low in NOUN_TAKERS:  # "is 5"; "has length 5"
                # "I think the answer is \boxed{5}", "Acho que a resposta é 36", "I think it's 5":
                # whatever stands before the clause in its sentence governs it
                start = _answer_clause_start(found, k)
                if start is not None:
                    return unread_clause_lead(prose[:start])
                clause = _STATED_CLAUSE_RE.search(head)
                if clause is not None:
                    return unread_clause_lead(head[: clause.start()])
                own = re.split(_PARTS, prose)[-1]
                first = list(_WORD_RE.finditer(own))
                if len(first) > 2 and first[1].group(0).lower() in ARTICLES and not (
                        first[0].group(0).lower() in SHORT_OPENERS or first[0].group(0).lower() in COMMIT_WORDS
                        or first[0].group(0).lower() in ("and", "but")):
                    # "About the total is 4", "Baka the total is 4": one word before the clause's
                    # subject opens it, and it must be read as a short opener is
                    return HEDGED, f"a short opener of the answer's sentence that is not read: {first[0].group(0)!r}"
                doubt = next((w for w in _WORD_RE.findall(own) if w.lower() in OWN_DOUBT_WORDS), None)
                if doubt is None:
                    doubt = _adverb_before_verb(list(_WORD_RE.finditer(own)))
                if doubt is not None:  # "My hunch is \boxed{5}", "Probably the total is 5"
                    return HEDGED, f"a word of the answer's clause doubts or bounds it: {doubt!r}"
                indefinite = _indefinite_subject(own)
                if indefinite is not None:  # "A lower bound is", "One candidate is", "A student answered"
                    return HEDGED, f"the answer's clause has an indefinite subject: {indefinite!r}"
                return _unread_opener(re.split(_PARTS, head)[cut:-1], committed=committed)
            if low in ANSWER_WORDS and len(unknown) == 1 and unknown[0].lower() in SHORT_COPULAS:
                return None  # "Odpowiedź to 5": a copula the English list cannot hold
            break
        if low in FILLERS or low in ARTICLES:
            continue
        unknown.append(word)
        if low in NOT_NOUNS and not (low in SHORT_COPULAS and k > 0 and found[k - 1].group(0).lower() in ANSWER_WORDS):
            break  # ("Odpowiedź to 5": a copula after an answer word, not the preposition)
        if len(unknown) > 2:
            break
    if not unknown:  # "So, \boxed{5}", "Thus \boxed{5}": connectives alone
        return _unread_opener(re.split(_PARTS, head)[cut:-1], committed=committed)
    return HEDGED, f"the word before the final value does not commit to it: {unknown[0]!r}"


# A determiner that makes the clause's subject one of several ("A lower bound is", "One
# candidate is", "Eine obere Schranke ist", "Một cận trên là", "一个下界是"): an answer is
# the one value, said with a definite subject or none. "A total of" names an amount.
_INDEFINITE_RE = re.compile(
    r"[\s*_#>-]*(?:(?:so|thus|hence|therefore|then|and|also|here|now|finally)[\s,]+)*"
    r"(?P<det>one\s+of\s+the\s+(?:\w+\s+)?(?:answers|solutions|values|candidates|options|possibilities|roots)\b|"
    # ("One of the remaining units is 200 square feet": one of equal parts names the amount)
    r"(?:a|an|one(?!\s+of\b)|some|any|another|ein|eine|einer|eines|un|una|uno|une|um|uma|m\u1ed9t|"
    r"\u043e\u0434\u0438\u043d|\u043e\u0434\u043d\u0430|\u043e\u0434\u043d\u043e)\b"
    r"(?![\s*_]+(?:total|sum|grand\s+total|combined\s+total)\b)|\u4e00\u4e2a|\u4e00\u500b|\u67d0)",
    re.IGNORECASE)


def _indefinite_subject(own: str) -> str | None:
    """The indefinite determiner that opens the answer clause's subject in ``own``, or None."""
    m = _INDEFINITE_RE.match(own)
    return None if m is None else m.group("det")


def _answer_clause_start(found: list[re.Match[str]], k: int) -> int | None:
    """Where the answer clause ending at word ``k`` (its copula) starts: the run of label
    words before it ("so the final answer is", "a resposta é"), when that run names the
    answer; None when it does not ("Janet's total is")."""
    if found[k].group(0).lower() in PREPOSITIONS:
        return None  # "... to the final answer of 22": no clause of its own
    j = k
    while j > 0 and found[j - 1].group(0).lower() in LABEL_WORDS and not _LINK_RE.fullmatch(
            found[j - 1].group(0)) and not _GAP_BREAK_RE.search(
            found[j - 1].string, found[j - 1].end(), found[j].start()):
        j -= 1
    if any(m.group(0).lower() in ANSWER_NOUNS for m in found[j : k + 1]) or _CJK_ANSWER_RE.match(found[k].group(0)):
        return found[j].start()  # "Pokud se nemýlím 答えは": a clause in a script without spaces
    return None


# An answer noun that opens a run of a script written without spaces ("答えは", "정답은").
_CJK_ANSWER_RE = re.compile("\u7b54\u6848|\u6700\u7ec8\u7b54\u6848|\u6700\u7d42\u7b54\u6848|\u7b54\u3048|\uc815\ub2f5|\ub2f5")


def unread_clause_lead(head: str) -> tuple[str, str] | None:
    """Why the words of ``head`` (the sentence before an "answer is" clause, from its last
    comma) are no part of an answer label, or None: ``Bad answer: 5``, ``Old answer is 6``
    qualify the answer; ``So the final answer is``, ``Adding these up, the answer is`` do not."""
    *openers, part = re.split(_PARTS, head[-300:])
    if len(head) > 300 and openers:
        openers = openers[1:]  # cut mid-word by the window
    link = None
    for link in _LINK_RE.finditer(part):  # noqa: B007 - the last one
        pass
    if link is not None:  # "It grows by 20% so the answer is": the link opens the clause
        openers, part = [*openers, part[: link.start()]], part[link.start():]
    if openers and _CONDITION_OPEN_RE.match(openers[0]):  # "If x > 0 then the answer is"
        return HEDGED, f"the answer is stated under a condition: {openers[0].strip()[:40]!r}"
    if _DIGIT_RE.search(part):  # "874/the answer is 46"
        return HEDGED, f"a value just before the answer clause: {part.strip()[-40:]!r}"
    if _APPROX_SIGN_RE.search(part):  # "\u2248 cevap 9."
        return HEDGED, f"an approximation sign before the answer clause: {part.strip()[-40:]!r}"
    words = _WORD_RE.findall(_COMMAND_RE.sub(" ", part))
    if any(w.lower() in REVISION_WORDS for w in words):
        return None  # "Actually, let me redo this: Answer: 0" revises
    if any(w.lower() in REVISION_WORDS for o in openers for w in _WORD_RE.findall(o)):
        # "Wait, I dropped a sign: the result is -5" revises too, unless it doubts again
        doubt = next((w for w in words if w.lower() in DOUBT_OR_BELIEF), None)
        return None if doubt is None else (
            HEDGED, f"a word before the answer clause doubts it: {doubt!r}")
    opener = _unread_opener(openers)
    if opener is not None:
        return opener
    for word in words:
        low = word.lower()
        if not (low in LABEL_WORDS or low in FILLERS or low in COMMIT_WORDS or low in JOINERS
                or low in CLAUSE_LINKS or low in CONNECTIVE_WORDS or _ANSWER_PHRASES_RE.fullmatch(word)):
            return HEDGED, f"a word before the answer clause that is no answer label: {word!r}"
    return None


_QUALIFIER_PHRASE_RE = re.compile(
    r"\b(?:"
    + "|".join(re.escape(w) for w in (*APPROXIMATE_WORDS, *BOUND_WORDS, *MAYBE_WORDS) if " " in w)
    + r"|give\s+or\s+take|more\s+or\s+less|plus\s+or\s+minus|or\s+so|ballpark|if\s+i'?m\s+not\s+mistaken"
    r"|decimal\s+places?|significant\s+(?:figures?|digits?)|order\s+of\s+magnitude|in\s+(?:the|this)\s+case\s+(?:where|that|when)"
    r"|as\s+an?\s+(?:\w+\s+){0,2}(?:upper|lower)\s+bound)\b",
    re.IGNORECASE,
)


# A short opener led by a gerund says how the answer was reached ("Combining both parts,");
# its doubt words ("Rounding,", "Assuming ...,") are the qualifier lists'.
_GERUND_RE = re.compile(r"[A-Za-z]{3,}ing")


def _preposition_named(found: list[re.Match[str]], k: int) -> bool:
    """Whether the preposition ``found[k]`` follows a word that makes it name the amount,
    past one pronoun object ("which leaves us with 8")."""
    j = k - 1
    if j > 0 and found[j].group(0).lower() in OBJECT_PRONOUNS:
        j -= 1
    word = found[k].group(0).lower()
    if word == "to" and j > 0 and found[j].group(0).lower() == "up":
        return found[j - 1].group(0).lower() in ADDS_UP  # "adds up to 18"; never "up to 18"
    return j >= 0 and found[j].group(0).lower() in PREPOSITION_HEADS[word]




def _adverb_before_verb(found: list[re.Match[str]]) -> str | None:
    """A lower-case "-ly" word off the allow-list right before a committing word of the
    clause (or before its auxiliary: "She hardly will have 18"), or None."""
    for j, m in enumerate(found[:-1]):
        word = m.group(0)
        if not (word.islower() and word.endswith("ly") and len(word) > 3) or word in PLAIN_LY_WORDS:
            continue
        after = j + 1
        if after + 1 < len(found) and found[after].group(0).lower() in AUXILIARIES:
            after += 1
        if found[after].group(0).lower() in COMMIT_WORDS:
            return word
    return None


def _unread_opener(openers: list[str], *, committed: bool = True) -> tuple[str, str] | None:
    """Why a sentence opener among ``openers`` (the comma-separated parts before the
    answer's own part) qualifies the answer, or None. Before a commitment (``committed``: a
    box, a tag, a ``####`` line, an answer clause) an opener of one to three words (a
    one-letter variable not counted) is read by the allow-list ``SHORT_OPENERS`` ("So,", "In total,"; not "Etwa,", "At most,")."""
    for i, part in enumerate(openers):
        if _VALUE_OPENS_RE.match(part) or (i == 0 and _BARE_VALUE_RE.fullmatch(part)):
            # "6 also works; the answer is 5.", "12, and the answer is 30."
            return HEDGED, f"a clause of the answer's sentence offers a value: {part.strip()[:40]!r}"
        if _APPROX_SIGN_RE.search(part) and not any(c.isdigit() for c in part):
            return HEDGED, f"an approximation sign opens the answer's sentence: {part.strip()[:40]!r}"
        phrase = _QUALIFIER_PHRASE_RE.search(part)
        if phrase is not None:  # "Give or take a little,", "Plus or minus one,"
            return HEDGED, f"an opener of the answer's sentence qualifies it: {phrase.group(0)!r}"
        words = _WORD_RE.findall(_COMMAND_RE.sub(" ", part))
        if committed and 0 < sum(len(w) > 1 for w in words) <= 3 and not _MATH_CHARS_RE.search(
                part) and not _GERUND_RE.fullmatch(words[0]) and not all(
                len(w) == 1 or w.lower() in SHORT_OPENERS or _ANSWER_PHRASES_RE.fullmatch(w)
                for w in words):
            return HEDGED, f"a short opener of the answer's sentence that is not read: {part.strip()[:40]!r}"
        for word in words:
            low = word.lower()
            if (low in OPENER_QUALIFIERS or low in QUALIFIER_WORDS
                    or (low.endswith("ly") and low not in LY_OK and len(low) > 4
                        and low not in REVISION_WORDS)):
                return HEDGED, f"an opener of the answer's sentence qualifies it: {word!r}"
            if _NOT_ASCII_RE.search(word) and low not in CONNECTIVE_WORDS and not (_ANSWER_PHRASES_RE.fullmatch(word)
                                                   or low in LABEL_WORDS):
                # no table of other scripts' doubt and condition words is complete: there,
                # only the connectives and answer words of ``_ANSWER_PHRASES`` may open
                return HEDGED, f"an opener of the answer's sentence that is not read: {word!r}"
    return None


def _unread_label(label: str) -> tuple[str, str] | None:
    """Why ``label`` (what stands before a colon) is no answer label, or None."""
    if not label:
        return None
    words = _WORD_RE.findall(label[-200:])
    if not words:
        if _APPROX_SIGN_RE.search(label[-200:]) and not any(c.isdigit() for c in label[-200:]):
            return HEDGED, f"an approximation sign labels the answer: {label.strip()[-40:]!r}"
        return None  # "1:", "(a):" markers and math
    if len(words) == 1 and len(words[0]) == 1:
        return None  # a variable or choice: "x: 3", "A: 5"
    if all(w.lower() in LABEL_WORDS or w.lower() in CONNECTIVE_WORDS or _ANSWER_PHRASES_RE.fullmatch(w)
           for w in words[-4:]):
        return None  # "Final answer:", "Таким образом, ответ:"
    if any(w.lower() in REVISION_WORDS for w in words):
        return None
    if uncommitted_lead(label) is None and label[-1].isalpha() and (
            words[-1].lower() in COMMIT_WORDS - ANSWER_WORDS or words[-1].lower() in FILLERS):
        return None  # "The answer is:", "we get:"
    return HEDGED, f"a label that is no answer label: {label.strip()[-40:]!r}"
