r"""The working's last sentence, read as a conclusion (issue 30, round 16).

A worked solution ends its working by stating the result in words, then commits to it
(``So Tom has 904 - 21 = 883 apples left.\n#### 883``). When that last sentence concludes one
amount and the commitment names another (``... 883 apples left.\n#### 881``), the completion
offers two answers: the amount is read as an earlier commitment, and must agree.

The grammar of a concluding sentence (the one right before the commitment's own lead-in, on
its line or the line before; or, when the commitment's paragraph holds nothing but a label,
the last line of the paragraph before):

- one amount, standing alone or as the result of the sentence's one computation
  (``904 - 21 = 883``; GSM8K's calculator notes ``<<904-21=883>>`` are read through);
- after it, a count noun or a unit (``apples``, ``dollars``, ``miles``; none after ``$653``) and at most five
  more words, no value among them (``left``, ``in all``, ``altogether in April and May``),
  then an optional ``, so`` and the sentence's stop;
- or a short claim of it (``I got 1921.``, ``So it's 13.``);
- or the result of a computation whose operands carry their nouns, with up to six words after it
  (``84 sofas+88 chairs = 175``, ``$180*7=$1267 a week``);
- a result that the sentence denies or qualifies (``6 + 3 = not 9 rows.``, ``= ~12``) is a
  conclusion that differs from any answer;
- not a condition, a check or a first state (``If ...``, ``Check: ...``, ``Originally ...``);
- a closing sentence between it and the commitment hides nothing (``I got 8. Hope this
  helps! Answer: 104``).

In a script without Latin words, the sentence holds one amount and after it a counter or noun
and a verb at most (``汤姆还剩564个。``, ``トムは合計78個持っています。``, ``У Тома осталось 883
яблока.``), with no word of a condition, bound, alternative or negation.

A sentence with amounts outside its one computation (``Each box holds 12 eggs, so 4 boxes hold
48 eggs.\n#### 4``) concludes nothing; the committed value as an operand of the computation
changes nothing (``So she has 25 - 7 = 18 apples left.\n#### 7`` offers 18).

>>> concluded_values("So Tom has 904 - 21 = 883 apples left.\n#### 881", 39, "881")
('883',)
>>> concluded_values("So Tom has 904 - 21 = 883 apples left.\n#### 883", 39, "883")
()
"""

from __future__ import annotations

import re

from verifiers.exact_numbers import parse_number
from verifiers.labelled_lines import _HEADING_WORD_RE
from verifiers.paragraph_commitments import _CALCULATOR_NOTE_RE, roman_token
from verifiers.spelled_numbers import spelled_value
from verifiers.unit_words import read_words
from verifiers.working_against import working_against

__all__ = ["concluded_values"]

_STOP_RE = re.compile(r"[.!?](?=\s|$)|[\n\u3002\uff01]")
_NUMBER_RE = re.compile(r"\d[\d,]*(?:\.\d+)?")
# The amount, its noun and up to five more words, an optional ", so", the stop.
_RESULT_RE = re.compile(
    r"(?<![\w.,])(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)[ \t]+(?P<noun>[A-Za-z]+)(?P<rest>(?:[ \t]+[A-Za-z']+){0,5})"
    r"[ \t]*(?:,[ \t]*(?:so|then|thus|hence)?)?[ \t*_]*[.!]?[ \t*_]*\Z"
)
# A dollar amount needs no noun: "In total, the store spends $653."
_DOLLARS_RESULT_RE = re.compile(
    r"(?<![\w.,])(?P<sign>[-\u2212]?)\$(?P<value>\d[\d,]*(?:\.\d+)?)(?P<rest>(?:[ \t]+[A-Za-z']+){0,5})"
    r"[ \t]*(?:,[ \t]*(?:so|then|thus|hence)?)?[ \t*_]*[.!]?[ \t*_]*\Z"
)
# Before the amount, when the sentence holds other numbers: one computation ending in "=".
_COMPUTATION_RE = re.compile(r"[\d\s+\-*/x\u00d7\u00f7().,$%]*=[ \t$]*\Z")
_COMPUTATION_END_RE = re.compile(r"=[ \t$]*\Z")
# The computation that ends right before the amount: operands and operators after a word.
_LAST_COMPUTATION_RE = re.compile(r"(?<![\w$.,])\$?\d[\d.,]*(?:[ \t]*[-+*/x\u00d7\u00f7][ \t]*\$?\d[\d.,]*)+[ \t]*=[ \t$]*\Z")
# A computation's result ending the sentence, no noun after it ("because 12 x 2 = 27").
_BARE_RESULT_RE = re.compile(r"=[ \t]*(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)[ \t*_]*[.!]?[ \t*_]*\Z")
# A computation whose operands carry their nouns, then "=" and its result, then up to six words
# and the stop ("84 sofas+88 chairs = 175", "$180*7=$1267 a week", "22 - 3 = 119 eyeshadow
# colors left"): the result is the amount the sentence concludes, whatever its noun.
_WORDED_RESULT_RE = re.compile(
    r"(?<![\w.,$])\$?\d[\d.,]*%?(?:[ \t]+[A-Za-z]+){0,2}(?:[ \t]*[-+*/x\u00d7\u00f7][ \t]*\$?\d[\d.,]*%?(?:[ \t]+[A-Za-z]+){0,2})+"
    r"[ \t]*=[ \t]*(?:\$(?=[-\u2212]))?(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)(?P<rest>(?:[ \t]+[A-Za-z']+){0,6})"
    r"[ \t*_]*[.!]?[ \t*_]*\Z")
# A computation's result denied or qualified ("6 + 3 = not 9 rows", "= $not 5 left", "= ~ 12"):
# the working takes back its own result, whatever the answer after it.
_DENIED_RESULT_RE = re.compile(
    r"=[ \t]*\\?\$?[ \t]*(?P<word>not|no|never|about|approximately|roughly|around|nearly|almost|over|under|maybe|"
    r"(?:less|more|fewer)[ \t]+than|at[ \t]+(?:least|most)|up[ \t]+to|~|\u2248)[ \t]*\\?\$?[ \t]*\d",
    re.IGNORECASE)
# A short claim of the result, no noun after it ("I got 1921.", "So it's 13.", "We get 12!").
_CLAIM_RE = re.compile(
    # (a speaker's label and a short interjection may open it, in any script: "Teacher: Close,
    # but it's 2.", "Lehrer: Nein, es sind 70."; after an interjection the value may stand
    # alone: "En resumen, 8.")
    r"\A[ \t*_>]*(?:[^\W\d_]{1,20}[ \t*_]*[:\uff1a][ \t*_]*)?"
    r"(?P<inter>(?:(?:[^\W\d_']+[ \t]+){0,3}[^\W\d_']+[ \t]*[,\uff0c\u3001][ \t]*){1,2})?(?:but[ \t]+)?"
    r"(?P<adv>(?:so|thus|hence|therefore|then|finally|now|ok(?:ay)?|hmm+|well|wait|actually|this[ \t]+time|"
    r"in[ \t]+the[ \t]+end|after[ \t]+all|all[ \t]+in[ \t]+all|overall)[ \t,]+)?"
    # (a hedged claim is a claim: "I think it's 43.")
    r"(?:i[ \t]+(?:think|believe|guess|bet|reckon)[ \t]+)?"
    r"(?:(?:(?:i|we|you)[ \t]+(?:got|get|have|obtain(?:ed)?|found|find|end[ \t]+up[ \t]+with)|"
    r"(?:it|that|this|everything|all|the[ \t]+(?:answer|total|result))(?:['\u2019]s|[ \t]+is|[ \t]+was|[ \t]+gives|"
    r"[ \t]+yields|[ \t]+comes[ \t]+(?:out[ \t]+)?to|[ \t]+works[ \t]+out[ \t]+to|[ \t]+(?:should|must|would)[ \t]+be|"
    r"[ \t]+becomes|[ \t]+makes|[ \t]+totals|[ \t]+equals)|(?:should|must|would)[ \t]+be|"
    r"(?:checking|counting|computing)(?:[ \t]+(?:it|again|once[ \t]+more))*[ \t]+(?:gives|yields)|"
    # (the same claim in other languages: it is, they are, that makes)
    r"(?:es|das)[ \t]+(?:sind|ist)|c['\u2019]est|(?:\u00e7a|ca)[ \t]+fait|il[ \t]+y[ \t]+en[ \t]+a|son|es|sono|\u00e8|"
    r"s\u00e3o|\u00e9|het[ \t]+is|dat[ \t]+is|det[ \t]+(?:\u00e4r|er|blir)|to[ \t]+je|jest|\u044d\u0442\u043e|"
    r"\u0431\u0443\u0434\u0435\u0442|\u0432\u044b\u0445\u043e\u0434\u0438\u0442)[ \t]+"
    r"|(?:\u5c31\u662f|\u662f|\u4e3a|\u70ba)[ \t]*"
    # (after an interjection or an adverb the value may stand alone: "En resumen, 8.", "Actually 44.")
    r"|(?(inter)|(?(adv)|(?!))))"
    r"(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?|(?-i:[IVXLCDM]{2,12}))(?:[ \t,]+actually)?"
    # (a word of address or a shrug after it: "That's 24, sweetie.", "it's 41, I guess.")
    r"(?:[ \t]*,[ \t]*(?:sweetie|dear|honey|buddy|friend|kid|folks|everyone|i[ \t]+guess|i[ \t]+think|i[ \t]+believe|"
    r"probably|maybe|right))?"
    r"[ \t*_]*[.!\u3002\uff01]*[ \t*_]*\Z", re.IGNORECASE)
# A step's or a list item's label before the sentence ("**Step 4:**", "### Step 3", "2.").
_STEP_LABEL_RE = re.compile(r"\A[ \t*_#>]*(?:(?:step|part)[ \t]*\d+[ \t]*[:.)]?|\d{1,2}[.)])[ \t*_]*", re.IGNORECASE)
_NOT_A_CONCLUSION_RE = re.compile(
    r"\b(?:if|suppose|supposing|assum\w*|check\w*|verif\w*|without|instead|otherwise|originally|"
    r"initially|or|not|per|each|every|maybe|about|around|approximately|roughly)\b",
    re.IGNORECASE,
)
# A bound before the amount ("more than 5 apples"); after it, "than" compares the amount
# concluded ("Harry slept 9 - 6 = 4 hours more than James.").
_BOUND_BEFORE_RE = re.compile(r"\bthan\b", re.IGNORECASE)
# Arithmetic in math reads as plain arithmetic ("$6 \\cdot 10 = 61$ handshakes").
_MATH_ARITHMETIC_RE = re.compile(r"\$((?:[\d \t+\-*/().,=]|\\(?:cdot|times|div)(?![A-Za-z])){3,200})\$")
# A number alone in math reads as the number ("the total is $998$.", "合計は $683$ 個です").
_MATH_NUMBER_RE = re.compile(r"\$[ \t]*([-\u2212]?\d[\d,]*(?:\.\d+)?)[ \t]*\$|\\\([ \t]*([-\u2212]?\d[\d,]*(?:\.\d+)?)[ \t]*\\\)")
# A quantity named, then a copula, then the amount: "Therefore, the total number of apples is 998."
_COPULA_RESULT_RE = re.compile(
    # (and "result" in the Latin-script languages: "Het resultaat is dus 121.", "Le résultat est donc 127.")
    r"\b(?:total|number|amount|sum|count|cost|price|answer|result|resultaat|r\u00e9sultat|resultado|risultato|ergebnis|"
    r"wynik|hasil(?:nya)?|sonu\u00e7|k\u1ebft[ \t]+qu\u1ea3)\b(?:[ \t]+[A-Za-z']+){0,6}?[ \t]+"
    r"(?:is|was|are|were|equals|comes[ \t]+to|=|est|es|\u00e9|\u00e8|ist|to|adalah|l\u00e0)"
    r"(?:[ \t]+(?:dus|donc|also|somit|entonces|quindi|portanto|zatem|jadi|thus|so))?[ \t]+"
    r"(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)"
    r"(?P<rest>(?:[ \t]+[A-Za-z']+){0,3})[ \t]*[.!]?[ \t*_]*\Z",
    re.IGNORECASE,
)
# A result's label and its value alone ("Total: 122.", "Result: 46 castles").
_LABEL_RESULT_RE = re.compile(
    r"\b(?:total|result|sum|answer)[ \t]*:[ \t*_]*(?P<sign>[-\u2212]?)\$?(?P<value>\d[\d,]*(?:\.\d+)?)"
    r"(?:[ \t]+[A-Za-z']+){0,2}[ \t*_]*[.!]?[ \t*_]*\Z", re.IGNORECASE)
# A label alone, in any language ("**Answer:**", "उत्तर: $", "**Đáp án:**"); possessive runs.
_LABEL_ONLY_RE = re.compile(
    r"[\s*_#>:\uff1a$\\(\[]*+(?:(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0e7f])++[\s*_#>:\uff1a$\\(\[]*+){0,4}")
_VARIABLE_BEFORE_RE = re.compile(r"(?<![A-Za-z])[A-Za-z](?:_\{?\w{1,3}\}?)?[ \t]*=[ \t]*\Z")
_LEAD_WORD_RE = re.compile(r"[^\W\d_]{2,}")  # (a lead-in's words: "Therefore, the final answer is"; not "$x = ")
_LOOK_BACK = 600  # characters: a sentence of the working, not a paragraph


def _last_sentence(text: str) -> str:
    """The last sentence of ``text`` (after its last stop or line break), without its stop."""
    body = text.rstrip(" \t*_\n")
    body = body[:-1] if body.endswith((".", "!", "\u3002", "\uff01")) else body
    cut = max(body.rfind("\n"), body.rfind(". "), body.rfind("! "), body.rfind("? "), body.rfind("\u3002"))
    return body[cut + 1 :].strip()


def _bare_result(sentence: str) -> re.Match[str] | None:
    """The result that ends ``sentence`` after a computation ("because 12 x 2 = 27"; not a
    variable's value, "x = 10")."""
    m = _BARE_RESULT_RE.search(sentence)
    return m if m is not None and _LAST_COMPUTATION_RE.search(sentence, 0, m.start() + 1) else None


_JOINER_WORD_RE = re.compile(r"\b(?:and|or|then|so|to|is|are|was|were|but|of|from|by)\b", re.IGNORECASE)


def _worded_result(sentence: str) -> re.Match[str] | None:
    """``_WORDED_RESULT_RE``'s match when a noun names what is counted: in the operands ("84
    sofas+88 chairs = 175") or after the result, a unit or a plural ("= 119 eyeshadow colors
    left"); "= 24 left" names nothing, and a filler sentence is read as no conclusion."""
    m = _WORDED_RESULT_RE.search(sentence)
    if m is None or "=" in sentence[: m.start()]:
        return None  # ("... are 11+50 = 39 and 11+2*50 = 89": two results, no one conclusion)
    operands = sentence[m.start() : m.start("sign")]
    if _JOINER_WORD_RE.search(operands):
        return None  # ("39 and 11+50 = 89": "and" joins two amounts, it names no count)
    words = m.group("rest").split()
    if any(c.isalpha() and c not in "x" for c in operands) or any(
            read_words(w) is not None or (len(w) > 3 and w.endswith("s")) for w in words):
        return m
    return None


# "... I get 2 instead.": a claim that replaces the answer, even in a check's sentence
_TRAILING_INSTEAD_RE = re.compile(r"[ \t,]+instead(?=[ \t*_]*[.!]*[ \t*_]*\Z)", re.IGNORECASE)


def _concluded(sentence: str) -> str | None:
    """The amount ``sentence`` concludes, or None."""
    sentence = _STEP_LABEL_RE.sub("", sentence)  # "**Step 4:** Janet has 32 + 54 + 12 = 97 pens now"
    plain = _TRAILING_INSTEAD_RE.sub("", sentence)
    if plain != sentence:
        claim = _CLAIM_RE.match(plain)
        if claim is not None:  # ("**Verification:** plugging back in, I get 2 instead.")
            return ("-" if claim.group("sign") else "") + claim.group("value")
        sentence = plain
    m = _RESULT_RE.search(sentence)
    if m is not None and read_words(m.group("noun")) is None and not (
            m.group("noun") == "times" and _COMPUTATION_END_RE.search(sentence, 0, m.start())):
        m = None  # "883 is", "5 times": no count noun or unit ("= 24500 times" counts)
    m = (m or _worded_result(sentence) or _DOLLARS_RESULT_RE.search(sentence) or _COPULA_RESULT_RE.search(sentence)
         or _bare_result(sentence) or _CLAIM_RE.match(sentence) or _LABEL_RESULT_RE.search(sentence))
    if m is None or _NOT_A_CONCLUSION_RE.search(sentence) or _BOUND_BEFORE_RE.search(sentence, 0, m.start()):
        return None
    found = _amount_of(sentence, m)
    worded = _worded_result(sentence) if found is None else None
    # ("6 girls + 12 boys = 36 kids in the park": a computation whose operands carry nouns)
    return _amount_of(sentence, worded) if worded is not None and worded.start() < m.start() else found


def _claimed(sentence: str) -> str | None:
    """The amount a claim in another script states ("Учитель: Нет, это 70."), or None."""
    m = _CLAIM_RE.match(_STEP_LABEL_RE.sub("", sentence))
    return None if m is None else ("-" if m.group("sign") else "") + m.group("value")


def _amount_of(sentence: str, m: re.Match[str]) -> str | None:
    """The amount ``m`` reads in ``sentence`` when nothing before it makes it one of several."""
    before = sentence[: m.start()]
    first = _NUMBER_RE.search(before)
    if first is not None and not _COMPUTATION_RE.fullmatch(before, first.start()):
        # "3 boxes hold 48 eggs": several amounts, no one result; a computation right before
        # the amount is its one result ("During the 5 years, she collected 12 * 5 = 59 shells.")
        computation = _LAST_COMPUTATION_RE.search(before)
        if computation is None or _NUMBER_RE.search(before, 0, computation.start()) is None:
            return None
    if first is None and _VARIABLE_BEFORE_RE.search(before):
        return None  # "Y = 12 cm": a variable's value, a step of the working
    value = m.group("value")
    if not value[0].isdigit():  # "I got MCCX."
        value = roman_token(value) or value
    return ("-" if m.group("sign") else "") + value


# In another language (a sentence with a letter outside ASCII): one amount, then at most its
# counter or noun and a verb ("汤姆还剩564个。", "トムは合計78個持っています。", "У Тома осталось
# 883 яблока.", "Vậy tổng số táo là 569."), with no word of a condition, a bound, an
# alternative or a negation anywhere in the sentence.
_OTHER_SCRIPT_RESULT_RE = re.compile(
    r"(?<![\d.,])(?P<sign>[-\u2212]?)(?P<value>\d[\d,]*(?:\.\d+)?)[ \t]*"
    r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0e7f]|[ \t]){0,24}[ \t]*[.!\u3002\uff01\u0964]?[ \t]*\Z")
_WORD_BEFORE_RE = re.compile(r"([^\W\d_]+)[ \t*_#.:]*\Z")
_OTHER_SCRIPT_NUMBER_RE = re.compile(r"(?<![\d.,])[-\u2212]?\d[\d,]*(?:\.\d+)?")
_OTHER_SCRIPT_HEDGE_RE = re.compile(
    "\u5982\u679c|\u5047\u5982|\u82e5|\u5047\u8bbe|\u5927\u7ea6|\u7ea6|\u7d04|\u5927\u6982|\u6216|"
    "\u8fd8\u662f|\u4e0d|\u6ca1|\u6c92|\u672a|\u68c0\u67e5|\u9a8c\u8bc1|\u9a57\u8b49|\u3082\u3057|"
    "\u305f\u3089|\u304f\u3089\u3044|\u3050\u3089\u3044|\u307b\u3069|\u307e\u305f\u306f|\u307e\u305b\u3093|"
    "\u306a\u3044|\ub9cc\uc57d|\uc57d|\ub610\ub294|\uc54a|\uc5c6|\u0435\u0441\u043b\u0438|"
    "\u043e\u043a\u043e\u043b\u043e|\u0438\u043b\u0438|\u043d\u0435|\u043f\u0440\u0438\u043c\u0435\u0440\u043d\u043e|"
    "\u043f\u0440\u043e\u0432\u0435\u0440|"
    # (Hindi, Arabic, and the Latin-script languages: if, about, or, not; whole words: "या",
    # or, ends "संख्या", number)
    "(?<![\u0900-\u097f])(?:\u0905\u0917\u0930|\u092f\u0926\u093f|\u0932\u0917\u092d\u0917|\u092f\u093e|"
    "\u0928\u0939\u0940\u0902)(?![\u0900-\u097f])|"
    "(?<![\u0600-\u06ff])(?:\u0625\u0630\u0627|\u0644\u0648|\u062d\u0648\u0627\u0644\u064a|\u0623\u0648|"
    "\u0644\u064a\u0633)(?![\u0600-\u06ff])|"
    r"\b(?:n\u1ebfu|kho\u1ea3ng|ho\u1eb7c|kh\u00f4ng|ch\u01b0a|si|o|u|aproximadamente|unos|no|wenn|falls|oder|etwa|"
    r"ungef\u00e4hr|nicht|ou|environ|pas|se|circa|non|if|or|not|about)\b",
    re.IGNORECASE)


def _concluded_other_script(sentence: str) -> str | None:
    """The amount a sentence of another language concludes, or None (its grammar above)."""
    sentence = _STEP_LABEL_RE.sub("", sentence)  # ("**Step 3:** Yani sonuç 12.")
    if _OTHER_SCRIPT_HEDGE_RE.search(sentence):
        return None
    first = _OTHER_SCRIPT_NUMBER_RE.search(sentence)  # (a CJK letter glues to the digits)
    m = _OTHER_SCRIPT_RESULT_RE.search(sentence)
    if m is None or first is None:
        return None
    if first.start() < m.start() and not _COMPUTATION_RE.fullmatch(sentence, first.start(), m.start()):
        return None  # several amounts, no one result (one computation may lead to it: "25 + 3150 = 3175")
    word = _WORD_BEFORE_RE.search(sentence, 0, m.start())
    if word is not None and (_HEADING_WORD_RE.fullmatch(word.group(1)) or word.group(1).endswith("\u7b2c")):
        return None  # "Step 1.", "第3": a part's number
    return ("-" if m.group("sign") else "") + m.group("value")


_UNIT_AFTER_NUMBER_RE = re.compile(r"\d[ \t]*([A-Za-z]+(?:[ \t]+[A-Za-z]+)?)")


def _unit_of(text: str) -> str | None:
    """The unit named right after the last number of ``text`` that names one, or None."""
    unit = None
    for m in _UNIT_AFTER_NUMBER_RE.finditer(text[-400:]):
        for words in (m.group(1), m.group(1).split()[0]):
            read = read_words(words)
            if read is not None and read[1] is not None:
                unit = read[1]
                break
    return unit


def _plain_arithmetic(m: re.Match[str]) -> str:
    return re.sub(r"\\(?:cdot|times)", "*", m.group(1)).replace("\\div", "/")


def _holds_no_value(sentence: str) -> bool:
    """Whether ``sentence`` holds no value in any form: no numeral character, no Roman numeral, no
    number word ("Everything checks out." holds none; "II 👈 final answer" and "It is nineteen." do)."""
    if any(c.isnumeric() for c in sentence):
        return False
    return not any(roman_token(word) or spelled_value(word) for word in re.findall(r"[^\W\d_]+", sentence))


def concluded_values(text: str, at: int, answer: str) -> tuple[str, ...]:
    """The amount that the working's last sentence before the commitment at ``at`` concludes,
    when it differs from ``answer`` (module doc), else ``()``."""
    window = text[max(0, at - _LOOK_BACK) : at]
    para = window.rfind("\n\n")
    head = window[para + 2 :] if para >= 0 else window
    if para >= 0 and (_LABEL_ONLY_RE.fullmatch(head) or (
            not _STOP_RE.search(head) and not any(c.isdigit() for c in head) and len(head.split()) <= 6
            and len(_LEAD_WORD_RE.findall(head)) >= 2)):
        # "\n\n**Answer:** 149", "\n\nTherefore, the final answer is 44.": the paragraph before
        # holds the working
        window = window[:para]
        own = ""
    else:
        cut = -1
        for m in _STOP_RE.finditer(head):
            cut = m.end()
        own = head[cut:] if cut >= 0 else head
        if cut < 0 or any(c.isdigit() for c in own) or len(own.split()) > 6:
            return ()  # the commitment's own sentence holds the working, or none stands before it
        window = window[: len(window) - len(own)]
    row = window.rstrip(" \t\n")
    row = row[row.rfind("\n") + 1 :]
    if row.startswith("|") and row.endswith("|"):  # a table's row: its last cell ("| 3 | So the total is 377. |")
        cells = [c.strip() for c in row.strip("| \t").split("|") if c.strip()]
        window = window[: len(window.rstrip(" \t\n")) - len(row)] + (cells[-1] if cells else "")
    last = _last_sentence(window)
    for _ in range(2):  # a sentence with no value between the working and the answer hides nothing
        # ("I got 8. Hope this helps!", "So the total is 19. Everything checks out.")
        if not last or not _holds_no_value(last):
            break
        window = window[: window.rstrip(" \t*_\n.!").rfind(last)]
        last = _last_sentence(window)
    if last.startswith("(") and last.endswith(")"):  # an aside is read as the sentence it holds
        last = last[1:-1].rstrip(" \t.!")
    against = working_against(_CALCULATOR_NOTE_RE.sub("", last), answer)
    if against is not None:
        return (against,)
    sentence = _MATH_NUMBER_RE.sub(lambda m: m.group(1) or m.group(2), _CALCULATOR_NOTE_RE.sub("", last))
    if "$" in sentence:
        sentence = _MATH_ARITHMETIC_RE.sub(_plain_arithmetic, sentence)
    denied = _DENIED_RESULT_RE.search(sentence)
    if denied is not None:
        return (sentence[denied.start() + 1 :].strip(" \t.!"),)  # ("6 + 3 = not 9 rows.\n#### 9")
    found = _concluded(sentence) if sentence.isascii() else (_claimed(sentence) or _concluded_other_script(sentence))
    if found is None:
        return ()
    amount = found.replace(",", "")
    unit = _unit_of(sentence)
    line_end = text.find("\n", at)
    if unit is not None and _unit_of(text[at : len(text) if line_end < 0 else line_end]) not in (None, unit):
        return ()  # "150,000 meters\nTelegraph is 150 km longer": the amount in another unit
    value = parse_number(amount)
    same = amount == answer or (value is not None and value == parse_number(answer))
    return () if same else (amount,)
