r"""What may follow the final commitment (the ``tail`` of the grammar in
``verifiers.math_extract``): ``hedge_after`` and the own-sentence grammar
(``_own_sentence``), later-sentence denial (``_later_denial``), checks ``... = final`` with
their arithmetic evaluator, and the regexes they read with. Moved out of
``verifiers.math_extract`` unchanged (issue 30)."""

from __future__ import annotations

import bisect
import re
import unicodedata
from fractions import Fraction

from verifiers.answer_closing import CLOSING_WORDS, unread_closing
from verifiers.answer_text import NUMERIC_CHARS, read_visible
from verifiers.exact_numbers import parse_number, read_words
from verifiers.number_words import read_number_words
from verifiers.types import HEDGED, MALFORMED


def _seen(words: str) -> str:
    """An alternation of ``words`` as the normaliser leaves them: a Cyrillic word is read
    through the confusables table (its "о" reads as a Latin "o"), so it is matched that way."""
    return "|".join(re.escape(read_visible(w)[0]) for w in words.split("|"))


MAX_LINE_CHARS = 400  # a longer '####' line is no answer line


MAX_TAIL_CHARS = 50_000  # a longer text after the answer cannot be checked in time: refused


# The end of a sentence: ., ! or ? before whitespace or the end (not a decimal point).
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s|$)|\n")


# Between an answer and what follows: spaces (also LaTeX's \, \quad ~), newlines, stray
# separators and delimiters.
_JUNK_RE = re.compile(r"(?:[\s,;:*$~]|\\[,;:! ]|\\q?quad(?![A-Za-z]))*")


_APPROX_AFTER_RE = re.compile(
    # not "\approx" (a relation the comparison checks: "\pi \approx 3.14" is the exact answer
    # with its rounded value, accepted only when that value is right)
    r"\s*(?:\(\s*)?(?<!\\)(?:approx\.?|approximately|roughly|or\s+so|ish|-ish|give\s+or\s+take|"
    r"more\s+or\s+less|at\s+least|at\s+most|or\s+more|or\s+less|or\s+(?:higher|lower|greater|"
    # a bound: "\boxed{7} or higher", "\boxed{7} and up", "\boxed{7} max"
    r"fewer|above|below|over|under)|and\s+(?:up|above|over|below|under)|max|maximum|min|"
    r"minimum|tops|upper\s+bound|lower\s+bound|upwards\s+of)(?![A-Za-z])",
    re.IGNORECASE,
)


# Later in the completion, anywhere: words that take the answer back or offer another.
# "Wait", "hmm" and "let me check" alone take nothing back: reasoning models write "Wait, let
# me verify this. Yes, it checks out." after answers they keep.
_RETRACT_RE = re.compile(
    r"\b(?:no,?\s+wait|wait,?\s+no\b|nope|scratch\s+that|not\s+sure|unsure|not\s+certain|"
    r"maybe\s+not|or\s+maybe|or\s+possibly|or\s+perhaps|or\s+is\s+it\b|or\s+not\s*\?|"
    # "Alternatively, it is $6$" offers another answer; "Alternatively, we can plug in ..."
    # (a second method, common in worked solutions) does not.
    r"alternatively,?\s+(?:(?:it|the\s+\w+|this|that|we\s+get|one\s+gets|x)\s+"
    r"(?:is|are|could\s+be|might\s+be|would\s+be|may\s+be|=|gives?)\s*)?"
    r"(?=\$|\\\(|\\boxed|[-+]?\d)|"
    r"actually,?\s+(?:no|not|it(?:'s|\s+is|\s+should)|the\s+(?:answer|total|result)|i\s+think)|"
    r"(?:that'?s|that\s+is|this\s+is|it'?s|it\s+is)\s+(?:wrong|incorrect|not\s+right)|"
    r"i\s+(?:made|make)\s+an?\s+(?:mistake|error)|i\s+was\s+wrong|correction\b|"
    r"(?:answer|result|total)\s+(?:is|was)\s*(?:not|n't|wrong|incorrect)\b|"
    r"on\s+second\s+thought|let\s+me\s+(?:redo|reconsider)|never\s*mind|oops|"
    r"just\s+kidding|j/?k\b|(?:was|is)\s+a\s+typo|typo\b|incorrect[oa]\b|falsch\b|faux\b|"
    r"hmm+,?\s+no\b|could\s+be\s+wrong|maybe\s+(?:it'?s\s+|it\s+is\s+)?(?=\$|\\\(|\\boxed|[-+]?\d)|unless\s+(?:it|the\s+\w+|this|that|x)\b|if\s+not,|"
    r"(?:could|might|may|can)\s+(?:also|instead|even)\s+be\b|actually,?\s+(?=\$|\\\(|\\boxed|[-+]?\d)|"
    # other languages: French, German, Spanish, Chinese ("not right", "wrong", "should be")
    r"non,?\s+attend|nein\b|no,?\s+espera|en\s+realidad|\u4e0d\u5bf9|\u9519\u4e86|\u5e94\u8be5\u662f|(?:it|that|this|the\s+answer)\s+(?:should|must)\s+(?:be|have\s+been)\s+"
    r"(?=\$|\\\(|\\boxed|[-+\u2212]?\d))",
    re.IGNORECASE,
)


# Closing math delimiters and bold right after an answer: "$\boxed{5}$ or 6" offers 6.
_CLOSING_RE = re.compile(r"(?:[ \t]*(?:\$\$?|\\\)|\\\]|\*\*|`))+")


def _clean(ans: str) -> str:
    ans = _TRAILING_JUNK_RE.sub("", ans.lstrip())  # before a strip() splits "\\ " apart
    for left, right in (("$$", "$$"), ("$", "$"), ("\\(", "\\)"), ("\\[", "\\]"), ("**", "**")):
        if len(ans) >= len(left) + len(right) and ans.startswith(left) and ans.endswith(right):
            ans = ans[len(left) : len(ans) - len(right)].strip()
    ans = ans.strip("*").strip()
    # A sentence-final period (not a decimal point: "5." -> "5", "3.5" stays) and trailing
    # LaTeX spacing and line breaks ("185\\,", "185\\ ", "5~", "5\\\\"); a trailing backslash
    # (a control space whose space was stripped) carries nothing.
    ans = _TRAILING_JUNK_RE.sub("", ans).strip("$").strip()
    # Bold or upright type around the whole answer is dressing: "\mathbf{0}" is 0.
    styled = _STYLED_RE.fullmatch(ans)
    return styled.group(1).strip() if styled else ans


_STYLED_RE = re.compile(r"\\(?:mathbf|textbf|boldsymbol|bm|mathrm|textrm|text)\s*\{([^{}]*)\}")


_TRAILING_JUNK_RE = re.compile(r"(?:\s|[.,;:~]|\\[,;:! .]|\\q?quad(?![A-Za-z])|\\)+\Z")


def _first_char(text: str, start: int) -> int:
    """Index of the first character at or after ``start`` that is no space or '#'."""
    while start < len(text) and text[start] in " \t#":
        start += 1
    return start


def _sentence_end(text: str, start: int) -> int:
    m = _SENTENCE_END_RE.search(text, start)
    return len(text) if m is None else m.start()


def hedge_after(text: str, end: int, answers: tuple[str, ...] = ()) -> tuple[str, str] | None:
    """Why the text after an answer ending at ``end`` is no allow-listed tail, or None: the
    rule's step 3, shared with the countdown verifier. Returns (reason, why).

    The tail may hold closing markup and punctuation, units and prose, a restatement of the
    answer (one of ``answers``), and a check whose result is the answer (``2 + 3 = 5``).
    Any other value there (a number, a number word, a box) is an alternative: ``hedged``."""
    closing = _CLOSING_RE.match(text, end)
    after = closing.end() if closing else end
    if text[after : after + 1].isdigit() and (after > end or text[end - 1 : end] in "$)]`"):
        return MALFORMED, "a digit glued after the answer's closing delimiter"
    end = after
    if _OPERATOR_AFTER_RE.match(text, end):
        return MALFORMED, "the answer is part of a larger expression"
    rest = text[end:].rstrip()
    if len(rest) > MAX_TAIL_CHARS:
        return MALFORMED, f"more than {MAX_TAIL_CHARS} characters after the final answer"
    p = _JUNK_RE.match(rest).end()  # type: ignore[union-attr] - always matches
    if rest.startswith("?", p) or rest.startswith("?", _sentence_end(rest, 0)):
        return HEDGED, "the answer's sentence is a question"
    if _APPROX_AFTER_RE.match(rest, p):
        return HEDGED, "an approximate answer"
    if _SCALE_AFTER_RE.match(rest, p):
        return MALFORMED, "a word after the answer scales it"
    doubt = _DOUBT_RE.search(rest, p, _sentence_end(rest, p))
    # a negation on a later line has its own subject ("It is not hard to check"): the
    # later-sentence rule below reads it
    if doubt is not None and not ("\n" in rest[:p] and _NEGATION_ONLY_RE.fullmatch(doubt.group(0))):
        return HEDGED, "the answer's sentence doubts it"
    retraction = _RETRACT_RE.search(rest)
    if retraction is not None:
        return HEDGED, f"taken back or doubted later: {retraction.group(0)!r}"
    own = _own_sentence(_FIGURE_RE.sub(" ", rest) if "[asy]" in rest else rest, answers)
    if own is not None:
        return own
    denial = _later_denial(rest, answers)
    if denial is not None:
        return denial
    if "\\boxed" in rest or "\\fbox" in rest:
        return MALFORMED, "a box opened after the answer"
    modulus = _MODULUS_RE.match(rest, p)
    if modulus is not None:  # a congruence's modulus dresses the answer: "\boxed{3} \pmod{7}"
        rest = rest[modulus.end() :]
    # An Asymptote figure's code is drawn, not read: its numbers are coordinates (a box or
    # an answer inside one was refused above, with the rest of the tail).
    other = _other_value(_FIGURE_RE.sub(" ", rest), answers)
    if other is not None:
        return HEDGED, f"another value after the final answer: {other[:40]!r}"
    return _unread_later(_FIGURE_RE.sub(" ", rest) if "[asy]" in rest else rest, answers)


def _own_start(rest: str) -> int:
    """Where the answer's own sentence starts in ``rest``: after a display's close on the next
    line (``\\boxed{5}\n\\]``)."""
    start = 0
    for _ in range(8):
        close = _DISPLAY_CLOSE_RE.match(rest, start)
        if close is None:
            break
        start = close.end()
    return start


# "Yes" answering a question about the answer ("Wait, is that right? Yes: 2 + 3 = 5.").
_YES_RE = re.compile(r"[\s*_>#-]*(?:yes|yeah|indeed|correct)\b", re.IGNORECASE)


def _unread_later(rest: str, answers: tuple[str, ...]) -> tuple[str, str] | None:
    """Why a sentence after the answer's own sentence is not positively readable, or None.
    Each later sentence must be closing prose (``verifiers.answer_closing``), a restatement
    of the answer or a check whose result is it, in allow-listed words; a question must be
    answered "yes" by the next sentence. The values were read by ``_other_value`` already."""
    stop = _OWN_END_RE.search(rest, _own_start(rest))
    if stop is None:
        return None
    pos, question = stop.end(), None
    for m in _OWN_END_RE.finditer(rest + "\n", pos):
        sentence = rest[pos : m.start()]
        pos = m.end()
        if not sentence.strip(" \t*#>-_`$"):
            continue
        if question is not None:
            if not _YES_RE.match(sentence):
                return HEDGED, f"a question about the answer, not answered yes: {question[:40]!r}"
            question = None
        unread = unread_closing(sentence)
        if unread is not None and _has_value(sentence):
            unread = unread_closing(sentence, math=True)
        if unread is not None:
            return HEDGED, (
                f"unread_tail: a later sentence is no allow-listed closing ({unread[:20]!r}): "
                f"{sentence.strip()[:40]!r}"
            )
        if m.group(0) in "?\uff1f\u061f":
            question = sentence.strip()
    if question is not None:
        return HEDGED, f"a question about the answer, not answered yes: {question[:40]!r}"
    return None


def _has_value(sentence: str) -> bool:
    return any(c.isdigit() for c in sentence) or _TAIL_VALUE_RE.search(sentence) is not None


# Words that multiply or divide the value before them (a closed class: multipliers, powers,
# operations, ordinals as denominators): "\\boxed{5} lakh" is 500000, "\\boxed{5} squared" 25.
# Not "dozen" or "score": "how many dozen" is answered "5 dozen", a count in that unit.
_SCALE_AFTER_RE = re.compile(
    r"(?:[²³¹⁰⁴-⁹]|(?:lakhs?|crores?|grand|squared|cubed|doubled|factorial|"
    # other languages' scale words: "2 millones", "98 Millionen", "3 milliards"
    r"mill(?:ones?|ions?|ionen|iarden?|iards?|i\u00f3n|ion)|bill(?:ones?|ionen)|mil|tausend|"
    r"mille|milhares|milh(?:\u00f5es|\u00e3o|oes|ao)|"
    r"tripled|quadrupled|halved|(?:four|fif|six|seven|eigh|nin|ten|eleven|twelf|"
    r"(?:thir|four|fif|six|seven|eigh|nine)teen|(?:twen|thir|for|fif|six|seven|eigh|nine)tie|"
    r"hundred|thousand|million|billion)ths|halves|thirds|quarters)\b)",
    re.IGNORECASE,
)


_MODULUS_RE = re.compile(
    r"[\s$]*(?:\\[pb]?mod(?![A-Za-z])|\\pod(?![A-Za-z])|\(\s*(?:\\mod|mod)(?![A-Za-z]))\s*"
    r"(?:\{\s*[-+]?\d{1,40}\s*\}|[-+]?\d{1,40})\s*\)?"
)


_FIGURE_RE = re.compile(r"\[asy\].*?(?:\[/asy\]|\Z)", re.DOTALL)


_NEGATION_ONLY_RE = re.compile(r"(?:is|are|was|were)\s+not|isn't|aren't|wasn't", re.IGNORECASE)


_DOUBT_RE = re.compile(
    r"\b(?:probably|maybe|perhaps|possibly|likely|i\s+(?:think|guess|believe)|"
    # a negation of the answer in its own sentence: "5 is not the answer", "0이 아닙니다"
    r"(?:is|are|was|were)\s+not|isn't|aren't|wasn't|not\s+(?:the\s+answer|correct|right)|"
    r"nicht|n'est\s+pas|no\s+es)\b|\uc544\ub2c8|\uc544\ub2d9|\u3067\u306f\u306a\u3044|"
    r"\u3058\u3083\u306a\u3044|\u4e0d\u662f|\u4e0d\u5bf9|\u9519",
    re.IGNORECASE,
)


# A value in the tail: a number (any script's digits), an English number word ("one" and "a"
# are left out: prose uses them as pronouns), a CJK numeral, or a math constant.
_NUMBER_WORDS = (
    "zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    "eighty|ninety|hundred|thousand|million|billion|twice|thrice"
)


_TAIL_VALUE_RE = re.compile(
    rf"[-+]?\d+(?:,\d{{3}})*(?:\.\d+)?|\.\d+|\b(?:{_NUMBER_WORDS})\b|"
    # "one" standing as a second item ("5 and one!", "5 A One"), not "one of them", "the one"
    r"\bone\b(?<!\bthe one)(?<!\bthis one)(?<!\bthat one)(?<!\beach one)(?<!\bany one)"
    r"(?<!\bno one)(?<!\bevery one)(?<!\bwhich one)(?<!\bright one)(?<!\bcorrect one)"
    r"(?<!\bonly one)(?<!\bsame one)(?<!\blast one)(?<!\bfirst one)(?<!\bother one)"
    r"(?<!\bno-one)(?![ \t]*(?:(?!(?:or|and|vs)\b)[A-Za-z]{2}|[A-Za-z]'|['-]))|"
    # any numeral character: CJK (\u4e94, \u3007), Roman, vulgar fractions
    rf"[\u4e24{NUMERIC_CHARS}]|"
    r"\\(?:infty|pi|sqrt|frac|dfrac|tfrac)(?![A-Za-z])",
    re.IGNORECASE,
)


# Values the tail reads besides ``_TAIL_VALUE_RE`` (only there: before the answer, "Case
# III" or "drei Schritte" is prose). A Roman numeral of two or more letters in one case
# ("IV", "vii"; a circled or Roman-numeral character reads as these after NFKC), a lone "V"
# or "X" on its own line or ending the tail (not "= X", a name), and the number words two
# to ten of the languages a policy writes (a closed list; "due", "un", "uno", "eins", "one"
# are left out: words of English prose or articles).
_FOREIGN_NUMBER_WORDS = (
    "dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|deux|trois|quatre|cinq|sept|huit|neuf|"
    "dix|zwei|drei|vier|f\u00fcnf|funf|sechs|sieben|acht|neun|zehn|tr\u00eas|quatro|sete|oito|"
    "nove|dez|tre|quattro|cinque|sette|otto|dieci|"
    + _seen(
        "\u0434\u0432\u0430|\u0442\u0440\u0438|\u0447\u0435\u0442\u044b\u0440\u0435|"
        "\u043f\u044f\u0442\u044c|\u0448\u0435\u0441\u0442\u044c|\u0441\u0435\u043c\u044c|"
        "\u0432\u043e\u0441\u0435\u043c\u044c|\u0434\u0435\u0432\u044f\u0442\u044c|"
        "\u0434\u0435\u0441\u044f\u0442\u044c"
    )
)
_TAIL_EXTRA_VALUE_RE = re.compile(
    r"(?-i:\b(?=[IVX]{2,}\b)X{0,3}(?:IX|IV|V?I{0,3})\b|\b(?=[ivx]{2,}\b)x{0,3}(?:ix|iv|v?i{0,3})\b|"
    r"(?m:^[ \t]*[VXvx][ \t.]*$)|(?<![=\\])(?<!= )\b[VX]\b(?=[\s.!]*\Z))|"
    rf"\b(?:{_FOREIGN_NUMBER_WORDS})\b",
    re.IGNORECASE,
)


# "cm^2", "m^{3}", "x^\circ": the digit of a unit's power is dressing, no value.
_UNIT_POWER_RE = re.compile(r"[A-Za-z][\s$]*\^\s*\{?\s*\Z")


def _other_value(rest: str, answers: tuple[str, ...]) -> str | None:
    """The first value in ``rest`` that is neither a restatement of one of ``answers`` nor
    part of a check whose result is one (a sentence ending ``= answer``), or None. One pass:
    sentences are cut as the values are met."""
    keys: set[str] | None = None  # read only when the tail holds a value (most hold none)
    sentence_start, sentence_stop, checked = -1, -1, False
    skip_until = -1
    for m in _tail_values(rest):
        if keys is None:
            keys = {k for a in answers for k in _value_keys(a)}
        if m.start() < skip_until:
            continue
        if keys and m.group(0)[:1].isalpha():
            # a run of number words restating the answer: "21 (twenty-one)"
            lead = _ONE_BEFORE_RE.search(rest, max(0, m.start() - 8), m.start())  # "one hundred"
            run = _NUMBER_WORD_RUN_RE.match(rest, m.start() if lead is None else lead.start())
            spelled = None if run is None else read_number_words(run.group(0))
            if spelled is not None and not keys.isdisjoint(_value_keys(str(spelled))):
                skip_until = run.end()  # type: ignore[union-attr]
                continue
        if _UNIT_POWER_RE.search(rest, max(0, m.start() - 8), m.start()):
            continue
        if m.start() >= sentence_stop:
            sentence_start = _sentence_start(rest, m.start())
            sentence_stop = _sentence_end(rest, m.start())
            checked = _is_check(rest[sentence_start:sentence_stop], keys)
        if checked:
            continue
        token = m.group(0)
        # a restatement restates only when its sentence does not deny it ("Not 6.",
        # "\\boxed{6} \\neq 6", "though 6 is incorrect")
        if (
            keys
            and not keys.isdisjoint(_value_keys(token))
            and not _denied(rest, sentence_start, m.start(), sentence_stop)
        ):
            continue
        return rest[max(sentence_start, m.start() - 20) : m.end() + 20].strip()
    return None


_NUMBER_WORD_RUN_RE = re.compile(
    rf"(?:{_NUMBER_WORDS}|one|and|a)\b(?:[ \t-]+(?:{_NUMBER_WORDS}|one|and)\b)*", re.IGNORECASE
)


_ONE_BEFORE_RE = re.compile(r"\b(?:one|a)[ \t-]+\Z", re.IGNORECASE)


def _tail_values(rest: str) -> list[re.Match[str]]:
    """The values of a tail in order: ``_TAIL_VALUE_RE``'s and ``_TAIL_EXTRA_VALUE_RE``'s."""
    found = list(_TAIL_VALUE_RE.finditer(rest))
    extra = list(_TAIL_EXTRA_VALUE_RE.finditer(rest))
    if not extra:
        return found
    return sorted(found + extra, key=lambda m: m.start())


_NOT_EQUAL_BEFORE_RE = re.compile(r"(?:\\neq?(?![A-Za-z])|\\not\s*=|\u2260|!=|=/=)[\s${]*\Z")


_WRONG_RE = re.compile(r"\b(?:wrong|incorrect|false|not\s+(?:it|so|true))\b", re.IGNORECASE)


def _denied(rest: str, start: int, at: int, stop: int) -> bool:
    """Whether the value at ``rest[at]`` is denied in its sentence ``rest[start:stop]``: a word
    that denies or bounds it just before it, a "not equal" sign, or doubt in the sentence."""
    before = rest[max(start, at - 40) : at]
    if _DENIED_BEFORE_RE.search(before) or _NOT_EQUAL_BEFORE_RE.search(before):
        return True
    return bool(_DOUBT_RE.search(rest, start, stop) or _WRONG_RE.search(rest, start, stop))


# A period before a lower-case word ends no sentence: "I think it's 4... or 5" is one.
_OPENING_END_RE = re.compile(r"[.!?](?=\s|$)(?!(?:[ \t]*[.!?])*[ \t]+[a-z])|\n")


def _sentence_start(text: str, pos: int) -> int:
    m = None
    for m in _OPENING_END_RE.finditer(text, max(0, pos - 400), pos):  # noqa: B007
        pass
    return max(0, pos - 400) if m is None else m.end()


# Around a check's result: spacing, math delimiters, bold, a final period, a check mark.
_CHECK_DRESSING_RE = re.compile(
    r"\A(?:\s|[$*]|\\[(\[])+|(?:\s|[.$*]|\\[)\]]|\\checkmark|[\u2713\u2714\u2705])+\Z"
)


def _is_check(sentence: str, keys: set[str]) -> bool:
    """Whether ``sentence`` is a check whose result is the answer: its last side, after its
    last ``=``, is the answer alone (``2 + 3 = 5``, ``x = 5``), and every other side that is
    plain arithmetic evaluates to it (``Check: 0 = 5`` equates another value with it)."""
    if "=" not in sentence or not keys:
        return False
    sides = sentence.split("=")
    result = _clean(sides[-1].strip(" \t$*()"))
    values = _TAIL_VALUE_RE.findall(result)
    # a result written as the answer is written, whole: "\sqrt{50} = 5\sqrt{2}", "(x, y) =
    # (6, 7)" (a tuple, radical or fraction holds several values; compared as text, exactly)
    whole = _CHECK_DRESSING_RE.sub("", sides[-1])
    same = 0 < len(whole) <= MAX_LINE_CHARS and whole.replace(" ", "").lower() in keys
    if not same and (len(values) != 1 or keys.isdisjoint(_value_keys(values[0]))):
        return False
    for side in sides[-17:-1]:  # the sides next to the result (bounded: a wall of "=")
        value = _arithmetic_side(side)
        if value is not None and keys.isdisjoint(_value_keys(str(value))):
            return False
    return True


# The arithmetic that ends one side of a check: numbers, + - * / and parentheses, after a
# lead of words ("Check: 2 + 3"). A side glued to a letter or a command ("x + 2", "f(3)")
# is no plain arithmetic and is not evaluated.
_ARITH_TAIL_RE = re.compile(r"[-(\s]*\d[\d.\s+\-*/()]*\Z")


_ARITH_TOKEN_RE = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([-+*/()]))")


_PROSE_WORD_END_RE = re.compile(r"(?:\A|[\s:(,])[A-Za-z]{2,}\Z")


def _arithmetic_side(side: str) -> Fraction | None:
    """The value of the plain arithmetic that ends ``side`` of a check, or None when it is
    not plain arithmetic (a variable, a function, a power) or cannot be evaluated."""
    side = side[-200:].replace("$", " ").replace("\\left", "").replace("\\right", "")
    side = re.sub(r"\\(?:times|cdot)(?![A-Za-z])|[\u00d7\u00b7]", "*", side)
    side = re.sub(r"\\div(?![A-Za-z])|\u00f7", "/", side)
    side = re.sub(r"\\d?frac\s*\{([^{}]{1,40})\}\s*\{([^{}]{1,40})\}", r"((\1)/(\2))", side)
    side = re.sub(r"(?<=\d)(?:,|\{,\}|\\,)(?=\d{3}(?!\d))", "", side)
    m = _ARITH_TAIL_RE.search(side)
    if m is None:
        return None
    lead = side[: m.start()].rstrip()
    # a word of prose before a space leads the arithmetic ("since 7 = 5" equates 7 with the
    # answer); a letter or command glued to it is a variable or function ("x + 2", "f(3)")
    spaced = len(lead) < m.start() or side[m.start() : m.start() + 1].isspace()
    prose_lead = spaced and _PROSE_WORD_END_RE.search(lead) is not None
    if lead and (lead[-1].isalnum() or lead[-1] in "\\}^_!'") and not prose_lead:
        return None
    tokens = []
    pos = m.start()
    while pos < len(side):
        t = _ARITH_TOKEN_RE.match(side, pos)
        if t is None:
            if side[pos:].strip():
                return None
            break
        tokens.append(t.group(1) or t.group(2))
        pos = t.end()
    try:
        value, used = _expression(tokens, 0)
    except (ValueError, ZeroDivisionError, IndexError, RecursionError):
        return None
    return value if used == len(tokens) else None


def _expression(tokens: list[str], i: int) -> tuple[Fraction, int]:
    value, i = _term(tokens, i)
    while i < len(tokens) and tokens[i] in "+-":
        right, j = _term(tokens, i + 1)
        value, i = (value + right if tokens[i] == "+" else value - right), j
    return value, i


def _term(tokens: list[str], i: int) -> tuple[Fraction, int]:
    value, i = _factor(tokens, i)
    while i < len(tokens) and tokens[i] in "*/":
        right, j = _factor(tokens, i + 1)
        value, i = (value * right if tokens[i] == "*" else value / right), j
    return value, i


def _factor(tokens: list[str], i: int) -> tuple[Fraction, int]:
    tok = tokens[i]
    if tok == "-":
        value, i = _factor(tokens, i + 1)
        return -value, i
    if tok == "+":
        return _factor(tokens, i + 1)
    if tok == "(":
        value, i = _expression(tokens, i + 1)
        if i >= len(tokens) or tokens[i] != ")":
            raise ValueError("unbalanced")
        return value, i + 1
    if tok in "*/)":
        raise ValueError(tok)
    return Fraction(tok), i + 1


def _value_keys(value: str) -> set[str]:
    """Keys under which two spellings of one value meet: the canonical text, and the number
    it reads as (``1,000`` and ``1000``; ``five`` and ``5``)."""
    text = _clean(value).replace(" ", "").replace("$", "")
    keys = {text.lower()}
    if len(text) > MAX_LINE_CHARS:
        return keys  # no number is this long
    number = parse_number(text)
    if number is None and text.isalpha():
        words = read_number_words(text)
        number = None if words is None else Fraction(words)
    if number is not None:
        keys.add(str(number))
    return keys


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
    r"(?:\s|[.,;:!]|\$|\\\)|\\\]|\*\*|`|\}|\\[,;:! ]|\\q?quad(?![A-Za-z])|~(?=\s*[A-Za-z])|"
    r"\\(?:blacksquare|square|Box|qed|checkmark|quad|qquad|%)(?![A-Za-z])|%|\^\s*\{?\s*\\circ\s*\}?|"
    r"\\circ(?![A-Za-z])|\\degree(?![A-Za-z])|\u00b0|[\u220e\u25a0\u25a1\u2713\u2714\u2705]|"
    r"\bQ\.?E\.?D\b\.?|[\u3002\uff0e\uff01]|\\end\s*\{[A-Za-z*]{1,20}\}|<\|[a-z_]{1,20}\|>|</s>)*"
)


# Right after the value: words that relate it to another value, bound it, condition it,
# scale it or take it back (closed classes, in the languages a policy writes).
# Not "dozen", "score" or "gross": "how many dozen" is answered "5 dozen", a count in that unit.
_CLOSED_HEAD_RE = re.compile(
    r"(?:or|nor|but|if|when|whenever|unless|provided|providing|assuming|supposing|given|"
    r"except|only|not|never|no|nope|than|up|at|max|min|maximum|minimum|tops|plus|minus|times|"
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
        if not _heads_ok(body, any(_clean(a).strip() in ("1", "-1") for a in answers)):
            return why
        return None if _prose_ok(body) else why
    if body[0] == "=" and _LONE_VARIABLE_RE.fullmatch(body[1:].replace("$", " ")):
        return None  # "\boxed{17} = x": the answer named by its variable
    if _FOREIGN_WORD_RE.match(body):
        for m in _FOREIGN_WORD_RE.finditer(body):
            if not _ANSWER_PHRASES_RE.fullmatch(m.group(0)):
                return why
        return None if _prose_ok(body) else why
    if body[0] in "-\u2013\u2014" and body[1:2] == " ":  # "\boxed{5} - the number of apples"
        rest_words = body[1:].lstrip(" -\u2013\u2014")
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
    return all(_ANSWER_PHRASES_RE.fullmatch(m.group(0)) for m in _FOREIGN_WORD_RE.finditer(text))


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
    if not _prose_ok(inner):
        return False
    if keys and not keys.isdisjoint(_value_keys(inner)):
        return True
    spelled = read_number_words(inner)  # "\boxed{21} (twenty-one)": the answer in words
    if spelled is not None and keys and not keys.isdisjoint(_value_keys(str(spelled))):
        return True
    words = inner.split()
    if 0 < len(words) <= 4 and all(_LATIN_WORD_RE.fullmatch(w) for w in words):
        # a unit or count noun as the comparators read it ("dollars", "apples"), or closing
        # words ("(final answer)"); any other word is unread ("(guess)", "(tentative)")
        read = read_words(inner)
        return (read is not None and read[0] == 1) or unread_closing(inner) is None
    return False


# A condition opening the answer's sentence, with nothing but the commitment after its comma:
# "If n is odd, \boxed{5}.", "In case a, #### 94", "当n为奇数时, the answer is 5".
_CONDITION_OPEN_RE = re.compile(
    r"[\s*#>-]*(?:(?:but|and|or)\s+)?(?:only\s+)?(?:(?:if|when|whenever|unless|provided|assuming|suppose|supposing|only\s+if|"
    r"in\s+case|in\s+the\s+case|for|si|falls|wenn|cuando|quand|lorsque|"
    + _seen("\u0435\u0441\u043b\u0438|\u043a\u043e\u0433\u0434\u0430")
    + r")\b|\u5f53|\u5982\u679c|\u5047\u5982|\u82e5|\u3082\u3057)",
    re.IGNORECASE,
)


_BARE_COMMITMENT_RE = re.compile(
    r"[\s*$(\\\[]*(?:(?:then|so|thus|hence|the\s+(?:final\s+)?answer\s+(?:is|would\s+be)|"
    r"(?:final\s+)?answer\s*[:=]|it\s+is|it's|<answer>|####)\s*[:*$(\\\[\s]*)?\Z",
    re.IGNORECASE,
)


def _condition_before(text: str, start: int) -> tuple[str, str] | None:
    """Why the answer starting at ``start`` is stated under a condition that opens its
    sentence ("If n is odd, \\boxed{5}."), or None. A derivation ("If we add them, we get
    \\boxed{5}") commits after its comma and is no condition on the answer."""
    line_start = text.rfind("\n", 0, start) + 1
    sentence_start = max(_sentence_start(text, start), line_start, start - 400)
    head = text[sentence_start:start]
    comma = max(head.rfind(","), head.rfind("\uff0c"), head.rfind("\u3001"))
    if comma < 0 or not _CONDITION_OPEN_RE.match(head):
        return None
    if _BARE_COMMITMENT_RE.match(head, comma + 1):
        return HEDGED, f"the answer is stated under a condition: {head.strip()[:40]!r}"
    return None


# A later sentence that takes the answer back without a number: its subject is the answer
# (a pronoun or "the answer", after an interjection) and its predicate is negated or judges
# it wrong; or it tells the reader to disregard what came before.
_INTERJECTION = (
    r"(?:(?:hmm+|wait|oh|ah|actually|but|so|no|ok(?:ay)?|well|um+|uh|hm|moment|espera|attends?|"
    r"\u7b49\u7b49|\u7b49\u4e00\u4e0b|\u55ef|\u54e6|\u4e0d\u8fc7)[\s,!.\u2014\uff0c-]+)*"
)


_LATER_SUBJECT_RE = re.compile(
    _INTERJECTION
    + r"(?:that|this|it|which|those|these|the\s+above|(?:the|my|this|that|our)\s+(?:final\s+)?"
    r"(?:answer|result|solution|value|number|total|computation|calculation|reasoning)|"
    r"everything(?:\s+above)?|i|i'm|i've|das|dies|es|eso|esto|cela|\u00e7a|c'est|"
    + _seen("\u044d\u0442\u043e")
    + r"|"
    r"\u8fd9|\u90a3)(?![A-Za-z])",
    re.IGNORECASE,
)


_LATER_NEGATION_RE = re.compile(
    # a negated judgement of truth ("doesn't work", "can't be right", "not sure", "not it"),
    # not any negation ("It is not hard to check that ...")
    r"(?:\b(?:not|never)|n't)\s+(?:\w+\s+)?(?:right|correct|work|works|true|valid|it|the\s+answer|"
    r"make\s+sense|add\s+up|hold|check\s+out|sure|confident|certain)\b|"
    r"\b(?:wrong|incorrect|false|invalid|mistaken|bogus|nonsense|a\s+mistake|an\s+error|"
    r"retract|withdraw|take\s+(?:it|that|this)\s+back|unsure|uncertain|falsch|mal|faux|fausse|"
    r"incorrecto|err\u00f3neo|"
    + _seen("\u043d\u0435\u0432\u0435\u0440\u043d\u043e|\u043d\u0435\u043f\u0440\u0430\u0432\u0438\u043b\u044c\u043d\u043e")
    + r")\b|"
    r"\u4e0d\u5bf9|\u9519|\u4e0d\u662f",
    re.IGNORECASE,
)


_LATER_IMPERATIVE_RE = re.compile(
    _INTERJECTION
    + r"(?:please\s+)?(?:ignore|disregard|forget|scratch|strike|discard|retract|withdraw|"
    r"cancel|undo|delete|erase)\b",
    re.IGNORECASE,
)


# A negation right before a restatement of the answer: "Not 6.", "it's not 95", "6 \ne".
_NEGATED_VALUE_RE = re.compile(
    r"(?:\b(?:not|never|no|isn't|aren't|wasn't|nicht|pas|no\s+es|non|nie)\b|n't\b|"
    r"\u4e0d\u662f|\u4e0d|\u975e|\\neq?(?![A-Za-z])|\\not\s*=|!=|\u2260)"
    r"[\s$*(]*",
    re.IGNORECASE,
)


# A multiple-choice answer ("B", "(B)", "\\text{(B)}") and another choice named after it.
_CHOICE_RE = re.compile(r"\(?\s*([A-E])\s*\)?")


_OTHER_CHOICE_RE = re.compile(
    r"\(\s*([A-E])\s*\)|\b(?i:option|choice|answer)\s+\(?([A-E])\b|"
    r"^\s*(?i:or|and|/)?\s*([A-E])\b"
)


def _later_denial(rest: str, answers: tuple[str, ...]) -> tuple[str, str] | None:
    """A sentence after the answer that denies it: one that names the answer's value again
    with a negation on it or in its predicate ("Not 6.", "6 is wrong", "though 23 is
    incorrect"), or one without a value whose subject is the answer (a pronoun) and whose
    predicate is negated ("That doesn't work.", "Ignore the above.")."""
    choice = _CHOICE_RE.fullmatch(answers[0].strip()) if answers else None
    if choice is not None:
        for m in _OTHER_CHOICE_RE.finditer(rest[:2_000]):
            letter = next(g for g in m.groups() if g is not None)
            if letter.upper() != choice.group(1):
                return HEDGED, f"another choice after the answer: {m.group(0)!r}"
    keys: set[str] | None = None
    pos = 0
    for m in _OWN_END_RE.finditer(rest + "\n"):  # each sentence's work is linear in it
        sentence = rest[pos : m.start()]
        pos = m.end()
        stripped = sentence.strip(" \t*#>-,;:()$`\\[]")
        if not stripped:
            continue
        if _LATER_IMPERATIVE_RE.match(stripped):
            return HEDGED, f"taken back later: {stripped[:40]!r}"
        values = list(_TAIL_VALUE_RE.finditer(sentence))
        if not values:
            subject = _LATER_SUBJECT_RE.match(stripped)
            if subject is not None and _LATER_NEGATION_RE.search(stripped, subject.end()):
                return HEDGED, f"taken back later: {stripped[:40]!r}"
            continue
        if keys is None:
            keys = {k for a in answers for k in _value_keys(a)}
        checked: bool | None = None
        negations: list[int] | None = None
        denied_at: set[int] | None = None
        texts = {_clean(a) for a in answers}
        for n, v in enumerate(values):
            # the answer as written, or (for the first values: a parse costs) any spelling of it
            if v.group(0) not in texts and (
                n >= 64 or not keys or keys.isdisjoint(_value_keys(v.group(0)))
            ):
                continue
            if denied_at is None:  # where a negation's reach ends: one scan per sentence
                denied_at = {m.end() for m in _NEGATED_VALUE_RE.finditer(sentence)}
            if v.start() in denied_at:
                return HEDGED, f"the answer's value denied later: {sentence.strip()[:40]!r}"
            if negations is None:  # one scan per sentence, then bisected per value
                negations = [m.start() for m in _LATER_NEGATION_RE.finditer(sentence)]
            k = bisect.bisect_left(negations, v.end())
            if k < len(negations) and negations[k] <= v.end() + 200:
                checked = _is_check(sentence, keys) if checked is None else checked
                if not checked:
                    return HEDGED, f"the answer's value denied later: {sentence.strip()[:40]!r}"
    return None


# After a box, on its line: an operator or a separator and another value, "\boxed{5} + 6",
# "\boxed{5} = 6", "\boxed{5} / 6", "\boxed{5} - 1", "\boxed{5} -- or 6".
_OPERATOR_AFTER_RE = re.compile(
    r"[ \t]*(?:[-+*/|&=<>\u2013\u2014\u2212\u2227\u2228]+|"
    r"\\(?:times|cdot|div|mid|[vV]ert|\||parallel|pm|mp|[lg]eq?|[lg]t)"
    r"(?![A-Za-z]))[ \t]*(?:or[ \t/|]+)?(?:\$|\\\(|\\boxed|\\frac|[-+\u2212]?\.?\d)"
)


# A span that only names a variable ("... the smallest such $n$.") states no answer.
_LONE_VARIABLE_RE = re.compile(r"\s*(?:[A-Za-z]|\\[a-zA-Z]+)(?:_\{?\w{1,3}\}?)?\s*")


# Before an unboxed value: a word that denies or bounds it ("not 5", "greater than 5", "from 5").
_DENIED_BEFORE_RE = re.compile(
    r"\b(?:not|no|never|nor|neither|except|without|but|than|to|from|between|exceeds?|"
    r"exceeding|over|under|above|below|beyond|besides|instead\s+of|cannot(?:\s+be)?|"
    r"(?:is|are|was|were|ai|wo|ca|would|could|should|must|might|need|does|do|did)n['\u2019]t"
    r"(?:\s+(?:be|equal))?)"
    r"[\s$*(]*\Z"
    # other languages, without \b (no word boundary inside CJK text)
    r"|(?:\u4e0d\u662f|\u4e0d\u7b49\u4e8e|\u5e76\u975e|\u4e0d|\u975e|\u6ca1\u6709|\u9664\u4e86|"
    r"\u3067\u306f\u306a\u3044|\uc544\ub2c8|\b(?:nicht|kein|pas|ne|non|nie|\u043d\u0435|no\s+es|"
    r"n\u00e3o\s+\u00e9|mais\s+que|m\u00e1s\s+que|plus\s+que|gr\u00f6\u00dfer\s+als|"
    r"non\s+(?:\u00e8|e|est)|nie\s+jest|bukan|hindi|kh\u00f4ng(?:\s+ph\u1ea3i)?|"
    r"mehr\s+als|weniger\s+als|m\u00e1s\s+de|menos\s+de|plus\s+de|moins\s+de|"
    r"inte|ei\s+ole|ikke|niet|nem|\u03b4\u03b5\u03bd(?:\s+\u03b5\u03af\u03bd\u03b1\u03b9)?|"
    + _seen("\u0431\u043e\u043b\u044c\u0448\u0435|\u043c\u0435\u043d\u044c\u0448\u0435|\u043d\u0435")
    + r")\b"
    r"|\u5927\u4e8e|\u5c0f\u4e8e|\u8d85\u8fc7|\u4e0d\u5230)[\s$*(]*\Z",
    re.IGNORECASE,
)


# Words of other scripts a closing sentence may hold around its value: "answer", "is",
# "so", "result" in the major languages. Anything else ("ليس", "नहीं") may deny or bound
# the value, and no table of negations in every language is complete: an allow-list is.
_ANSWER_PHRASES = (
    "答案|最终答案|最終答案|答|是|为|為|等于|等於|所以|因此|结果|結果|故|即|"
    "答え|は|です|よって|したがって|"
    "정답|답|은|는|이다|입니다|따라서|그러므로|"
    "الجواب|الإجابة|الاجابة|هو|هي|إذن|اذن|النتيجة|"
    "उत्तर|है|अतः|इसलिए|परिणाम|जवाब|"
    "ответ|равен|равно|это|итак|"
    "απάντηση|η|είναι|"
    "ה?תשובה|היא|"
    "คำตอบ|คือ"
)


_ANSWER_PHRASES_RE = re.compile(f"(?:{_ANSWER_PHRASES})+", re.IGNORECASE)


# A run of letters of a script other than Latin (marks included: Devanagari vowel signs).
_FOREIGN_WORD_RE = re.compile(r"(?:(?![A-Za-z\u00c0-\u024f])[^\W\d_]|[\u0900-\u0dff\u0e00-\u0e7f])+")



# A ``####`` line's or an answer clause's amount, then what follows it on the line.
_LINE_AMOUNT_RE = re.compile(r"\$?\s*[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\d.,]*\d)")
# What may start the rest of the line for it to be read as a tail: a word of two letters or
# more, a parenthesis, an end-of-proof or check mark (after closing markup). A digit, an
# operator or a fraction after the amount belongs to it ("2 1/2", "5 \frac{1}{2}").
_LINE_REST_RE = re.compile(
    r"(?:\s|\$|\*\*|\\[,;: ])*(?:[A-Za-z\u00c0-\u024f]{2}|\(|[\u220e\u25a0\u25a1\u2713\u2714\u2705\u3002]|"
    r"\\(?:blacksquare|square|Box|qed|checkmark)(?![A-Za-z]))"
)
# Words after an amount that make it another math value: "5 pi" is 5π, "2 sqrt 3" a radical.
_MATH_WORD_RE = re.compile(
    r"(?:\s|\$|\*\*)*(?:pi|tau|sqrt|root|roots|sin|cos|tan|log|ln|exp|inf|infinity|mod)\b",
    re.IGNORECASE,
)
_UNIT_RUN_RE = re.compile(r"[ \t]+([A-Za-z]+(?:[ \t]+[A-Za-z]+){0,3})")


def split_line_answer(answer: str) -> tuple[str, tuple[str, str] | None] | None:
    """A ``####`` line's or an answer clause's text read as its amount and a tail
    (``57 ∎``, ``18 total``, ``57 That is our answer.``, ``5 (guess)``): ``(amount with the
    unit words the comparators read, why the rest is no allow-listed tail or None)``; None
    when the comparators read the text whole, as before (``5 thousand``, ``2 1/2``,
    ``1 more``: a word right after the amount that compares or scales it stays with it)."""
    m = _LINE_AMOUNT_RE.match(answer)
    if m is None or not _LINE_REST_RE.match(answer, m.end()) or _MATH_WORD_RE.match(answer, m.end()):
        return None
    if answer.startswith("(", m.end()):
        return None  # "3(x+1)", "2(3)": a parenthesis glued to the amount multiplies it
    keep = m.end()
    run = _UNIT_RUN_RE.match(answer, keep)
    if run is not None:  # "10 cents each": keep the unit the comparators check
        words = list(re.finditer(r"[A-Za-z]+", run.group(0)))
        for n in range(len(words), 0, -1):
            if read_words(" ".join(w.group(0) for w in words[:n])) is not None:
                keep = run.start() + words[n - 1].end()
                break
    if not answer[keep:].strip() or answer[keep:].lstrip().startswith(("/", "^", "_")):
        return None  # nothing after the unit, a rate ("eggs/day") or a power ("inches^2")
    head = _LATIN_WORD_RE.match(answer, _skip_spaces(answer, keep))
    if head is not None and (_CLOSED_HEAD_RE.fullmatch(head.group(0)) or _COMPARE_HEAD_RE.fullmatch(head.group(0))):
        return None
    value = m.group(0).lstrip("$").strip()
    # the whole rest is read, unit words included: "1 als $n$ even is" conditions it
    return answer[:keep].strip(), hedge_after(answer, m.end(), (value,))


_COMPARE_HEAD_RE = re.compile(r"more|less|fewer|extra|additional|again|times|percent", re.IGNORECASE)
