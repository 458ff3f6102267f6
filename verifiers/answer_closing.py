r"""Closing prose: what a sentence AFTER the final answer's own sentence may say (issue 30).

A later sentence is paid only when it is positively readable; ``verifiers.answer_tail``
reads its values (a restatement of the answer, a check whose result is the answer) and
this module reads its words. The words are an allow-list, not a deny-list of hedges: a
policy can revise an answer with words no list of retractions holds (``Actually double
that.``, ``Eigentlich das Doppelte.``, ``Actually a dozen.``), while a closing remark needs
only a few words. So a later sentence may hold only:

- whitespace, punctuation and closing markup (``$``, ``**``, ``\]``, ``\end{align*}``,
  text wrappers such as ``\text``), an end-of-proof mark or a check mark;
- words of ``CLOSING_WORDS`` (English, and "answer"/"is"/"so" in a few European
  languages), in any case;
- a whole phrase of ``_CLOSING_PHRASES_RE`` (``I hope this helps``, ``Let me know if you
  have any questions``): their words ("hope", "if", "unclear") are not free words, since
  free they could doubt or condition the answer (``If that is right.``);
- a whole sentence that offers more help (``_offers_help``: ``Would you like me to explain
  another method?``, ``Good luck with your studies!``): an opener that offers, then only
  words about explaining;
- words of another script that say "answer", "is", "so" (``verifiers.answer_sentence``'s
  ``_ANSWER_PHRASES``, the same allow-list the answer's own sentence uses);
- where the caller has read the sentence's values as a check or a restatement
  (``math=True``): digits, plain arithmetic signs, single-letter variables and a few math
  commands (``\frac``, ``\sqrt``, ``\cdot``).

Left out on purpose: negators (``not``, ``no``, ``never``, ``n't``), hedges (``maybe``,
``think``, ``guess``, ``hope`` alone), conditions (``if`` alone, ``unless``), scalers and
relations (``double``, ``half``, ``more``, ``less``, ``opposite``, ``up``), number words of
any language (``one``, ``dozen``, ``sechs``), ``actually``, ``wait`` alone. ``I``, ``a`` and
``an`` stand only before a word of ``PRONOUN_I_NEXT`` / ``ARTICLE_NEXT`` (alone they read as
a Roman numeral and a variable: ``The answer is I.``).

>>> unread_closing("Therefore the answer above is correct.")
>>> unread_closing("Actually double that.")
'Actually'
>>> unread_closing("I hope this helps!")
>>> unread_closing("The answer is I.")
'I'
"""

from __future__ import annotations

import re

from verifiers.answer_text import read_visible

# The free words of closing prose (lower case). Small and closed: each is a word a closing
# remark needs and none negates, doubts, conditions, bounds, scales or counts.
CLOSING_WORDS = frozenset(
    """
    the a an this that these those it its it's that's here above exact
    is are was were be been being am i i'm i've we we've we're us our my you your
    so thus therefore hence finally overall indeed yes yeah right correct exactly
    answer answers final result results solution solutions value values number numbers
    total sum product required requested desired expected wanted sought
    as and with which also again all that's same
    have has had get gets got obtain obtained find found gives
    computed calculated derived shown stated claimed boxed written above-mentioned
    check checks checked checking verify verified verifying verification confirm confirmed
    confirms consistent works work holds out matches match agrees
    done complete completes completed solved proof end q.e.d qed
    let let's me double-check double-checked recheck rechecked
    thanks thank for reading question problem
    ok okay great good sure confident certain clear
    step steps of to in on our sanity quick final-answer count can see easily simply
    since because
    satisfies satisfy satisfied equation equations original condition conditions
    substituting substitute substituted plugging plug plugged back into by requirement
    requirements
    how way working backwards backward from reproduces reproduce reproduced given data recomputing
    recompute recomputed arrive arrived
    """.split()  # noqa: SIM905 - a word list reads best as prose
)

# Other languages' words for the same closing sentences ("Das ist die Antwort.", "C'est la
# réponse.", "Esa es la respuesta final."), Latin script.
CLOSING_WORDS_EUROPEAN = frozenset(
    """
    das ist die der antwort endg\u00fcltige endergebnis ergebnis also somit
    c'est la le est r\u00e9ponse finale donc r\u00e9sultat voil\u00e0
    es esa esta respuesta resultado entonces por tanto
    \u00e9 resposta portanto
    \u00e8 risposta quindi risultato
    """.split()  # noqa: SIM905 - a word list reads best as prose
)

# Phrases whose words are not free words. Matched whole, case-insensitively, and removed
# before the free words are read.
_CLOSING_PHRASES_RE = re.compile(
    # "I hope it is correct." closes the few-shot format of Minerva and lm-eval-harness
    r"\b(?:i\s+)?hope\s+(?:this|that|it)\s+(?:helps|helped|is\s+clear|is\s+helpful|"
    r"makes\s+sense|is\s+correct|is\s+right)\b|\bmaybe\s+this\s+helps\b|"
    r"\b(?:let\s+me\s+know|feel\s+free\s+to\s+ask)\s+if\s+(?:you\s+have\s+(?:any\s+)?"
    r"(?:other\s+|more\s+|further\s+|additional\s+)?questions|anything\s+is\s+unclear|"
    r"you\s+need\s+(?:more|further|any)\s+help|you\s+need\s+anything(?:\s+else)?|"
    r"something\s+is\s+unclear)\b|"
    r"\bfeel\s+free\s+to\s+ask\b|\bany\s+(?:other\s+|more\s+|further\s+)?questions\b|"
    # a question back to the user that offers help, never a value ("Is there anything else I
    # can help with?", "Does that help?")
    r"\b(?:is\s+there\s+anything\s+else(?:\s+i\s+can\s+(?:help(?:\s+you)?\s+with|do(?:\s+for\s+you)?))?|"
    r"(?:can|may|could)\s+i\s+help(?:\s+you)?(?:\s+with\s+anything\s+else)?|"
    r"(?:does|did)\s+(?:this|that)\s+help|do\s+you\s+have\s+(?:any\s+)?(?:other\s+|more\s+|further\s+)?questions|"
    r"(?:would\s+you\s+like|do\s+you\s+want)\s+me\s+to\s+explain\s+(?:any|this|that|the|a|each)\s+"
    r"(?:step|steps|part|parts|solution|calculation)(?:\s+in\s+(?:more\s+)?detail)?)\b|"
    r"\b(?:it|this|that)\s+adds\s+up\b|\bmakes\s+sense\b|"
    # "one" as a pronoun, never a count ("This is the one.")
    r"\b(?:the|this|that)\s+(?:(?:right|correct|same|only)\s+)?one\b|"
    # "Wait" opening a check of the answer ("Wait, is that right?", "Wait, let me verify"),
    # never alone: "Wait." announces a revision
    r"\b(?:wait|hmm+)\b(?=[\s,]+(?:let|let's|is|was|does|did|are|were)\b)",
    re.IGNORECASE,
)

# Math commands that draw nothing or only wrap, end a proof, or close a display.
_MARKUP_COMMANDS = frozenset({
    "text", "textbf", "textit", "textrm", "mathrm", "mathbf", "mathit", "emph", "boxed", "quad",
    "qquad", "blacksquare", "square", "Box", "qed", "checkmark", "end", "displaystyle",
})
# Math commands a check or a restatement may hold (its values were read by the caller).
_MATH_COMMANDS = frozenset({"frac", "dfrac", "tfrac", "sqrt", "cdot", "times", "div", "left", "right"})

_PUNCTUATION = set(".,;:!?'\"()[]{}-\u2013\u2014\u2026*_#>`$|/\u2019\u2018\u201c\u201d\u00ab\u00bb"
                   "\u3002\uff0c\uff01\uff1f\u3001\uff1a\u0964\u061f\u060c")
_MARKS = set("\u2713\u2714\u2705\u220e\u25a0\u25a1")
_MATH_SIGNS = set("+-*/=()^.,\u00d7\u00b7\u00f7\u2212")

_TOKEN_RE = re.compile(
    r"(?P<space>\s+)|(?P<env>\\end\s*\{[A-Za-z*]{1,20}\})|(?P<cmd>\\[A-Za-z]+|\\.)|(?P<digits>\d+)|"
    r"(?P<word>[^\W\d_]+(?:['\u2019.-][^\W\d_]+)*)|(?P<other>.)",
    re.DOTALL,
)

_LATIN_RE = re.compile(r"[A-Za-z\u00c0-\u024f'\u2019.\-]+")

# Closing words of other scripts: "答案是", "所以", "Ответ", "입니다" (the answer-phrase list
# of the own-sentence grammar) and a few closing words ("希望这有帮助" is left out: "希望"
# also means "may it be").
_OTHER_SCRIPT_PHRASES = (
    "答案|最终答案|最終答案|答|是|为|為|所以|因此|结果|結果|故|即|正确|正確|"
    "答え|は|です|よって|したがって|"
    "정답|답|은|는|이다|입니다|따라서|그러므로|"
    "الجواب|الإجابة|الاجابة|هو|هي|إذن|اذن|النتيجة|"
    "उत्तर|है|अतः|इसलिए|परिणाम|जवाब|"
    "ответ|это|итак|"
    "απάντηση|η|είναι|"
    "התשובה|היא|"
    "คำตอบ|คือ"
)
OTHER_SCRIPT_WORDS = tuple(_OTHER_SCRIPT_PHRASES.split("|"))
_OTHER_SCRIPT_RE = re.compile(
    "(?:" + "|".join(re.escape(read_visible(w)[0]) for w in OTHER_SCRIPT_WORDS) + ")+",
    re.IGNORECASE,
)

# "I", "a" and "an" stand only before a word of their own list (a verb; a noun or adjective):
# alone or before another word they can be a Roman numeral or a variable ("The answer is I.",
# "Ⅰ above", which NFKC reads as "I above").
PRONOUN_I_NEXT = frozenset({
    "am", "have", "had", "was", "verified", "checked", "confirmed", "double-checked",
    "rechecked", "found", "get", "got", "obtain", "obtained", "computed", "calculated",
})
ARTICLE_NEXT = frozenset({
    "final", "correct", "good", "great", "quick", "sanity", "check", "total", "complete",
    "result", "solution", "answer", "value", "number", "consistent", "double-check",
})
_LEADING_ONLY = {"i": PRONOUN_I_NEXT, "a": ARTICLE_NEXT, "an": ARTICLE_NEXT}


# A sentence that offers more help (issue 30, h53): an opener that offers ("Let me know if",
# "Feel free to", "If you'd like,", "Would you like me to", "Good luck", "Ich hoffe, das hilft"),
# then only words of ``_HELP_WORDS`` (about explaining, not about the answer: no number, no
# negator, no "answer", "value", "root" or "solution" a second one of which would be a hedge).
# ("Let me know if you'd like a more detailed explanation!", "Would you like me to explain
# another method?", "Good luck with your studies!"; not "If you'd like, the other root is 6.")
_HELP_OPENER_RE = re.compile(
    r"(?:let\s+me\s+know|feel\s+free|(?:i'?m\s+|i\s+am\s+)?(?:happy|glad)\s+to\s+help|good\s+luck|"
    r"(?:and\s+)?if\s+you(?:'d|\s+would)?\s+(?:like|want|need|prefer|wish)|would\s+you\s+like|do\s+you\s+want|"
    r"(?:do\s+you\s+)?want\s+me\s+to|i\s+can\s+(?:also\s+)?(?:show|explain|walk|go|provide|give|help)|"
    r"is\s+there\s+anything\s+else|(?:i\s+)?hope\s+(?:this|that|it)\s+helps|happy\s+(?:studying|learning|solving)|"
    r"keep\s+(?:up\s+the\s+good\s+work|practicing)|"
    # (German, Spanish, French, Italian, Portuguese, Chinese: "I hope it helps")
    r"ich\s+hoffe,?\s+(?:das|es)\s+hilft|espero\s+que\s+(?:esto\s+|eso\s+)?(?:te\s+|le\s+|les\s+)?(?:ayude|sirva)|"
    r"j'esp\u00e8re\s+que\s+(?:cela|\u00e7a)\s+(?:vous\s+|t'|te\s+)?(?:aide|aidera)|"
    r"spero\s+che\s+(?:ti\s+|vi\s+)?(?:sia\s+utile|aiuti)|espero\s+que\s+(?:isso\s+)?(?:te\s+)?ajude|"
    r"\u5e0c\u671b(?:\u8fd9|\u9019)(?:\u5bf9|\u5c0d)\u4f60\u6709(?:\u5e2e\u52a9|\u5e6b\u52a9)|"
    r"\u5e0c\u671b(?:\u8fd9|\u9019)?(?:\u80fd|\u53ef\u4ee5)?(?:\u5e2e\u5230|\u5e6b\u5230)\u4f60|"
    # sign-offs and thanks ("Cheers,", "Best regards!", "Thanks for asking!", "Great question!",
    # "Your math assistant", "Have a great day!")
    r"cheers|(?:best|kind|warm)(?:\s+regards|\s+wishes)?|regards|sincerely|take\s+care|"
    r"thanks?(?:\s+you)?(?:\s+for\s+(?:asking|reading|the\s+question))?|great\s+question|"
    r"your\s+(?:friendly\s+)?(?:math\s+)?(?:assistant|tutor|helper)|have\s+a\s+(?:great|good|nice)\s+day|"
    r"happy\s+to\s+help|"
    # (and in other languages: "Good luck!", "I hope it helps", "Ask me anytime")
    r"buena\s+suerte|bonne\s+chance|viel\s+erfolg(?:\s+beim\s+lernen)?|buona\s+fortuna|boa\s+sorte|\u0443\u0434\u0430\u0447\u0438|"
    r"\u043d\u0430\u0434\u0435\u044e\u0441\u044c,?\s+\u044d\u0442\u043e\s+\u043f\u043e\u043c\u043e\u0436\u0435\u0442|"
    r"\u5e0c\u671b(?:\u5bf9\u4f60|\u5c0d\u4f60)?\u6709(?:\u6240)?(?:\u5e2e\u52a9|\u5e6b\u52a9)|"
    r"\u6709(?:\u4efb\u4f55)?\u95ee\u9898(?:\u8bf7|\u53ef\u4ee5)?\u968f\u65f6(?:\u95ee\u6211|\u63d0\u95ee)(?:[,\uff0c]?\u6211\u4e00\u5b9a\u5e2e\u4f60)?|"
    r"\u5982\u679c(?:\u8fd8|\u9084)?\u6709(?:\u5176\u4ed6|\u4efb\u4f55)?\u95ee\u9898[,\uff0c]?(?:\u6b22\u8fce|\u8bf7)(?:\u7ee7\u7eed|\u968f\u65f6)?\u63d0\u95ee|"
    r"\u304a\u5f79\u306b\u7acb\u3066\u308c\u3070\u5e78\u3044\u3067\u3059|\u53c2\u8003\u306b\u306a\u308c\u3070\u5e78\u3044\u3067\u3059|"
    r"\ub3c4\uc6c0\uc774\s*\ub418(?:\uc5c8|\uc168)(?:\uae30\ub97c|\uc73c\uba74)\s*(?:\ubc14\ub78d\ub2c8\ub2e4|\uc88b\uaca0\uc2b5\ub2c8\ub2e4)|"
    # "If you have other questions, feel free to ask" and "I hope this helps" in more languages
    r"si\s+tienes\s+(?:alguna\s+)?(?:otra\s+)?(?:pregunta|duda)s?,?\s+no\s+dudes\s+en\s+preguntar|"
    r"se\s+tiver\s+(?:mais\s+)?(?:alguma\s+)?(?:d\u00favida|pergunta)s?,?\s+\u00e9\s+s\u00f3\s+perguntar|"
    r"n'h\u00e9sitez\s+pas\s+\u00e0\s+(?:poser|me\s+poser)\s+(?:d'autres|vos)\s+questions|"
    r"wenn\s+du\s+(?:noch\s+)?(?:weitere\s+)?fragen\s+hast,?\s+frag\s+(?:gerne|einfach)|"
    r"jika\s+ada\s+pertanyaan\s+lain,?\s+jangan\s+ragu\s+untuk\s+bertanya|"
    r"mam\s+nadziej\u0119,?\s+\u017ce\s+to\s+pomo\u017ce|hy\s+v\u1ecdng\s+\u0111i\u1ec1u\s+n\u00e0y\s+gi\u00fap\s+\u00edch\s+cho\s+b\u1ea1n|"
    r"umar\u0131m\s+yard\u0131mc\u0131\s+olur|ba\u015fka\s+sorunuz\s+olursa\s+\u00e7ekinmeyin|"
    r"\u0623\u062a\u0645\u0646\u0649\s+\u0623\u0646\s+\u064a\u0643\u0648\u0646\s+\u0647\u0630\u0627\s+\u0645\u0641\u064a\u062f(?:\u064b\u0627|\u0627)|"
    r"\u092e\u0941\u091d\u0947\s+\u0906\u0936\u093e\s+\u0939\u0948\s+\u0915\u093f\s+\u0907\u0938\u0938\u0947\s+\u092e\u0926\u0926\s+\u092e\u093f\u0932\u0947\u0917\u0940|"
    r"\u0905\u0917\u0930\s+\u0906\u092a\u0915\u0947\s+\u0914\u0930\s+\u0938\u0935\u093e\u0932\s+\u0939\u0948\u0902\s+\u0924\u094b\s+\u092c\u0947\u091d\u093f\u091d\u0915\s+\u092a\u0942\u091b\u0947\u0902|"
    r"\ub2e4\ub978\s+\uc9c8\ubb38\uc774\s+\uc788\uc73c\uba74\s+\uc5b8\uc81c\ub4e0\uc9c0\s+\ubb3c\uc5b4\ubcf4\uc138\uc694|"
    r"\u4ed6\u306b\u8cea\u554f\u304c\u3042\u308c\u3070[,\u3001]?\s*\u304a\u6c17\u8efd\u306b(?:\u3069\u3046\u305e|\u805e\u3044\u3066\u304f\u3060\u3055\u3044)|"
    # (round 20, h56: "If you have any other questions, feel free to ask.", "Hope that clears it up!",
    # and the same in Italian, Russian, Spanish, Portuguese, French, German, Chinese, Japanese, Korean)
    r"if\s+you\s+have\s+(?:any\s+)?(?:other\s+|more\s+|further\s+)?questions,?\s+feel\s+free\s+to\s+ask|"
    r"(?:i\s+)?hope\s+(?:this|that|it)\s+clears\s+(?:it|things|that)\s+up|"
    r"fammi\s+sapere\s+se\s+hai\s+(?:altre\s+)?domande|spero\s+di\s+esserti\s+stat[oa]\s+d'aiuto|"
    r"\u0435\u0441\u043b\u0438\s+(?:\u0443\s+\u0432\u0430\u0441\s+)?(?:\u0435\u0441\u0442\u044c\s+)?(?:\u0435\u0449\u0451\s+|\u0435\u0449\u0435\s+)?"
    r"\u0432\u043e\u043f\u0440\u043e\u0441\u044b\s*[,\u2014-]?\s*(?:\u0441\u043f\u0440\u0430\u0448\u0438\u0432\u0430\u0439\u0442\u0435|\u043e\u0431\u0440\u0430\u0449\u0430\u0439\u0442\u0435\u0441\u044c)|"
    r"\u00a1?suerte\s+con\s+tus\s+estudios|\u00bf?necesitas\s+algo\s+m\u00e1s|"
    r"si\s+tienes\s+(?:m\u00e1s|otras)\s+preguntas,?\s+av\u00edsame|espero\s+ter\s+ajudado|"
    r"qualquer\s+d\u00favida,?\s+\u00e9\s+s\u00f3\s+perguntar|"
    r"n'h\u00e9sitez\s+pas\s+si\s+vous\s+avez\s+d'autres\s+questions|souhaitez-vous\s+un\s+autre\s+exemple|"
    r"sag\s+bescheid,?\s+wenn\s+du\s+(?:noch\s+)?fragen\s+hast|viel\s+erfolg\s+beim\s+lernen|"
    r"\u5982\u6709\u7591\u95ee\u8bf7?\u968f\u65f6\u63d0\u95ee|\u8fd8\u6709\u5176\u4ed6\u95ee\u9898\u5417|"
    r"\u4ed6\u306b\u8cea\u554f\u304c\u3042\u308c\u3070\u805e\u3044\u3066\u304f\u3060\u3055\u3044|"
    r"\uad81\uae08\ud55c\s*\uc810\uc774\s*\uc788\uc73c\uba74\s*\uc5b8\uc81c\ub4e0\uc9c0\s*\ubb3c\uc5b4\ubcf4\uc138\uc694)",
    re.IGNORECASE,
)
_POSTSCRIPT_RE = re.compile(r"\A[ \t*_]*p\.?\s*s(?:\.|\b)[ \t]*[:,-]?[ \t]*", re.IGNORECASE)
_HELP_WORDS = frozenset(
    """
    me you your yourself to with any anything else other more further additional a an the this that these it
    similar problem problems question questions help helps helped helpful explain explained explanation
    explanations detail detailed details walk walking through show showing another method methods approach
    approaches way ways step steps arithmetic calculation calculations practice practicing example examples
    again also reach out if need like want would i i'd i'm can could be glad happy and or know ask asking
    clarify clarification studies study studying learning luck good great day follow-up followup up
    concept concepts topic topics math generalize result visual diagram check verify different next
    further unclear clear have has any other questions work keep of you'd you're you'll i'll second alternative
    in for
    """.split()  # noqa: SIM905 - a word list reads best as prose
)
_HELP_TOKEN_RE = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*|[\s.,;:!?\u00a1\u00bf()'\"\u2026\uff01\uff0c\u3002-]+")


def _offers_help(sentence: str) -> bool:
    """Whether ``sentence`` offers more help and says nothing else (``_HELP_OPENER_RE``)."""
    text = sentence.replace("\u2019", "'").strip(" \t\n*_.!?,\u00a1\u00bf\u2026\uff01\u3002\uff0c\uff1f")
    text = _POSTSCRIPT_RE.sub("", text)  # ("P.S. Great question!")
    opener = _HELP_OPENER_RE.match(text)
    if opener is None:
        return False
    at = opener.end()
    for m in _HELP_TOKEN_RE.finditer(text, at):
        if m.start() != at:
            return False  # a digit, a symbol, markup
        word = m.group(0)
        if word[0].isalpha() and word.lower() not in _HELP_WORDS:
            return False
        at = m.end()
    return at == len(text)


def closing_phrase_only(sentence: str) -> bool:
    """Whether ``sentence`` is one closing phrase and nothing else ("Does that help?", "Is
    there anything else I can help with?"): a question that offers help, not one about the
    answer."""
    if _offers_help(sentence):
        return True  # ("Would you like me to explain another method?")
    rest = _CLOSING_PHRASES_RE.sub(" ", sentence.replace("\u2019", "'"))
    return not rest.strip(" \t\n*_#>-`?!.,\uff1f\u061f") and rest != sentence


def unread_closing(sentence: str, *, math: bool = False) -> str | None:
    """The first piece of ``sentence`` that closing prose may not hold (module doc), or None
    when every piece is allow-listed. ``math=True``: the caller has read the sentence's values
    as a check or a restatement of the answer, so digits and arithmetic are read too."""
    if _offers_help(sentence) or _POSTSCRIPT_RE.fullmatch(sentence.strip()):
        return None  # (a postscript's mark alone: "P.S. Great question!" splits after "P.S.")
    text = _CLOSING_PHRASES_RE.sub(" ", sentence.replace("\u2019", "'"))
    tokens = list(_TOKEN_RE.finditer(text))
    for n, t in enumerate(tokens):
        kind, piece = t.lastgroup, t.group(0)
        if kind in ("space", "env"):  # an environment's end closes a display
            continue
        if kind == "word":
            if not _word_ok(piece, math):
                return piece
            follow = _LEADING_ONLY.get(piece.lower())
            if follow is not None:
                nxt = tokens[n + 1 : n + 3]
                if not (
                    len(nxt) == 2
                    and nxt[0].lastgroup == "space"
                    and nxt[1].group(0).lower() in follow
                ):
                    return piece
            continue
        if kind == "cmd":
            name = piece[1:]
            if name in _MARKUP_COMMANDS or (math and name in _MATH_COMMANDS):
                continue
            if name in (",", ";", ":", "!", " ", "(", ")", "[", "]", "\\", "{", "}", "%"):
                continue  # spacing, math delimiters, a line break
            return piece
        if kind == "digits":
            if math:
                continue
            return piece
        if piece in _PUNCTUATION or piece in _MARKS or (math and piece in _MATH_SIGNS):
            continue
        return piece
    return None


def _word_ok(word: str, math: bool) -> bool:
    lower = word.lower()
    if _LATIN_RE.fullmatch(word):
        if lower in CLOSING_WORDS or lower in CLOSING_WORDS_EUROPEAN:
            return True
        # a variable of a check or restatement ("x = 5", "So n = 5.")
        return math and len(word) == 1
    return _OTHER_SCRIPT_RE.fullmatch(word) is not None


# A capital after the value starts a sentence run on without its period ("#### 7256 I hope
# this helps!", "Answer: 3508 I hope it is correct."), or after one ("#### 57. I hope ...").
_RUN_ON_RE = re.compile(r"(?<=[\d*$}])\.?[ \t]+(?=[A-Z])")


def closing_run_on(segment: str) -> int | None:
    """Where a closing sentence (allow-listed, without a number) starts after the value at the
    start of ``segment``, run on without a line break, or None: the value ends there and the
    sentence is read as the tail."""
    for m in _RUN_ON_RE.finditer(segment, 0, 400):
        rest = segment[m.end():].strip()
        if rest and not any(c.isdigit() for c in rest) and unread_closing(rest.rstrip(".!")) is None:
            return m.start()
    return None

