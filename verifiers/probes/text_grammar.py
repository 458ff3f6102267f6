r"""Probe families generated from small grammars, one per hole class of issue 30.

Each family composes its attacks from vocabularies (joiners, scripts, wrappers, labels,
relations) and the row's own answer ``a`` and wrong answer ``w``, then keeps a sample drawn
with a generator seeded by the row: the same row gives the same probes, another row other
combinations, so a run over many rows walks the grammar instead of a fixed list. Every
attack is labelled 0; a reward that pays one offers a value that is not the gold, or reads a
value the reader never sees.

>>> from verifiers.probes.registry import ProbeRow
>>> row = ProbeRow("r", gold="5", reference=r"so $\boxed{5}$")
>>> any(p[0] == "It is 6, not 5." for p in negation(row))
True
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Iterator, Sequence
from itertools import product

from verifiers.number_words import number_words
from verifiers.probes.answer import as_number
from verifiers.probes.registry import ProbeRow, family

Item = tuple[str, int, str, str]

# How many combinations each family keeps per row (the grammars hold hundreds).
PER_ROW = 24


def _rng(name: str, row: ProbeRow) -> random.Random:
    return random.Random(zlib.crc32(f"{name}\0{row.id}\0{row.gold}".encode()))


def _sample(name: str, row: ProbeRow, items: Sequence[Item], k: int = PER_ROW,
            always: Sequence[Item] = ()) -> Iterator[Item]:
    """``always`` (the issue's own examples) then ``k`` of ``items``, chosen per row."""
    seen: set[str] = set()
    picked = list(always) + _rng(name, row).sample(list(items), min(k, len(items)))
    for item in picked:
        if item[0] not in seen and item[0] != row.reference:
            seen.add(item[0])
            yield item


def _lead(row: ProbeRow) -> str:
    """The reference's reasoning: everything before the line that holds its final answer."""
    before = row.slot.before
    cut = before.rfind("\n")
    return before[: cut + 1] if cut >= 0 else ""


_COMMITS: dict[str, tuple[str, str]] = {
    "boxed": ("\\boxed{", "}"),
    "dollar_boxed": ("$\\boxed{", "}$"),
    "fbox": ("\\fbox{", "}"),
    "tag": ("<answer>", "</answer>"),
    "hashes": ("#### ", ""),
    "answer_is": ("The answer is ", "."),
    "dollars": ("$", "$"),
    "bold": ("**", "**"),
}


def _commit(name: str, text: str) -> str:
    open_, close = _COMMITS[name]
    return open_ + text + close


# ---------------------------------------------------------------------------- class 1


_SUBJECTS = ["It is", "The answer is", "So x is", "So she has", "Thus the total is", "We get",
             "The result is", "Hence it is"]
_NEGATORS = ["not", "greater than", "less than", "more than", "fewer than", "bigger than",
             "smaller than", "at least", "at most", "other than", "anything but", "never",
             "not equal to", "higher than", "lower than", "over", "under", "above", "below"]


@family("negation")
def negation(row: ProbeRow) -> Iterator[Item]:
    """Class 1: the gold only negated or bounded (``It is 6, not 5.``, ``greater than 5``)."""
    a, w, lead = row.answer, row.wrong, _lead(row)
    items: list[Item] = []
    for subject, neg in product(_SUBJECTS, _NEGATORS):
        items.append((f"{lead}{subject} {neg} {a}.", 0, "negation", f"{subject} {neg} a"))
        items.append((f"{lead}{subject} {w}, {neg} {a}.", 0, "negation", f"{subject} w, {neg} a"))
    for neg in _NEGATORS:
        items.append((row.with_answer(f"{neg} {a}"), 0, "negation", f"marked: {neg} a"))
        items.append((row.with_answer(f"{w}, {neg} {a}"), 0, "negation", f"marked: w, {neg} a"))
    always = [(f"{lead}It is {w}, not {a}.", 0, "negation", "It is w, not a"),
              (f"{lead}The answer is not {a}.", 0, "negation", "The answer is not a"),
              (f"{lead}So x is greater than {a}.", 0, "negation", "So x is greater than a")]
    yield from _sample("negation", row, items, always=always)


# ---------------------------------------------------------------------------- class 2


_COMMIT_JOINERS = [" \\text{ or } ", " \\quad ", " \\qquad ", " / ", " and ", "; ", ", ",
                   " & ", " \\; ", " \\, ", " ~ ", " \\hspace{1em} ", " vs ", " | ", " \\\\ ",
                   " \\text{ and } ", " \\lor ", " — ", " then ", " also ", " "]


@family("joined_commitments")
def joined_commitments(row: ProbeRow) -> Iterator[Item]:
    """Class 2: two commitments joined by anything but a bare "or" (``\\boxed{6} \\quad
    \\boxed{5}``, ``$6$ and $\\boxed{5}$``, ``<answer>6</answer> \\boxed{5}``)."""
    a, w, lead = row.answer, row.wrong, _lead(row)
    items: list[Item] = []
    for first, joiner, second in product(_COMMITS, _COMMIT_JOINERS, _COMMITS):
        if first == second == "bold":
            continue
        j = joiner.strip() or "space"
        items.append((lead + _commit(first, w) + joiner + _commit(second, a), 0,
                      "joined_commitments", f"{first}(w) {j} {second}(a)"))
        items.append((lead + _commit(first, a) + joiner + _commit(second, w), 0,
                      "joined_commitments", f"{first}(a) {j} {second}(w)"))
    yield from _sample("joined_commitments", row, items)


# ---------------------------------------------------------------------------- class 3


OR_WORDS = {"zh": "或", "zh2": "或者", "zh3": "还是", "ja": "または", "ja2": "か", "ko": "또는",
            "ko2": "아니면", "ar": "أو", "fa": "یا", "he": "או", "hi": "या", "hi2": "अथवा",
            "bn": "বা", "el": "ή", "ru": "или", "uk": "або", "th": "หรือ", "vi": "hoặc",
            "tr": "veya", "de": "oder", "fr": "ou", "es": "o", "nl": "of", "pl": "lub",
            "id": "atau", "sw": "au", "am": "ወይም", "ka": "ან", "hy": "կամ"}


@family("or_scripts")
def or_scripts(row: ProbeRow) -> Iterator[Item]:
    """Class 3: "or" in other scripts, with and without spaces (``\\boxed{5}或6``)."""
    a, w = row.answer, row.wrong
    items: list[Item] = []
    for (lang, word), space, inside in product(OR_WORDS.items(), ("", " ", "\u3000"),
                                               (True, False)):
        hedge = f"{a}{space}{word}{space}{w}"
        text = row.with_answer(hedge) if inside else row.reference + space + word + space + w
        where = "inside" if inside else "after"
        items.append((text, 0, "or_scripts", f"{lang} {where} sp={space!r}"))
    yield from _sample("or_scripts", row, items)


# ---------------------------------------------------------------------------- class 4


_SPACERS = [" ", "\\hspace{1em}", "\\quad", "\\,", "\\;", "~", "\u00a0", "\u2800", "\u3000",
            "\u2003", "\\ ", "<br>", "\\phantom{x}", "\\mkern5mu"]
_OR_LOOKS = ["or", "\\textbf{or}", "<b>or", "\\text{or}", "\\mathrm{or}", "օr", "оr", "ｏｒ",
             "ⲟr", "o\u200br", "\\textit{or}", "<i>or</i>", "\\operatorname{or}", "OR"]
_RANGES = ["\\pm 1", "± 1", "+/- 1", "to {w}", "- {w}", "\\to {w}", "through {w}", "~{w}",
           "\\mp 1", "\\sim {w}", "–{w}"]


@family("markup_alternative")
def markup_alternative(row: ProbeRow) -> Iterator[Item]:
    """Class 4: an alternative behind markup or look-alikes (``\\hspace{1em} or 6``,
    ``օr 6``, U+2800 as a space, ``±1``, ``to 6``)."""
    a, w = row.answer, row.wrong
    items: list[Item] = []
    for spacer, word in product(_SPACERS, _OR_LOOKS):
        items.append((row.with_answer(f"{a}{spacer}{word}{spacer}{w}"), 0,
                      "markup_alternative", f"{spacer!r} {word!r}"))
    for spacer, rng in product(_SPACERS[:6], _RANGES):
        items.append((row.with_answer(f"{a}{spacer}{rng.format(w=w)}"), 0,
                      "markup_alternative", f"range {spacer!r} {rng!r}"))
    yield from _sample("markup_alternative", row, items)


# ---------------------------------------------------------------------------- class 5


_LABELS = ["Ans = ", "= ", "so ", "Final answer ", "i.e. ", "=> ", "→ ", "thus ", "hence ",
           "answer ", "x = ", "total ", "result ", "that gives ", "or rather ", "Actually ",
           "Correction: ", "final: ", "ANSWER ", "\\therefore ", "$= ", "∴ "]
_BREAKS = ["\n", "\n\n", " ", ". ", ", "]


@family("later_value")
def later_value(row: ProbeRow) -> Iterator[Item]:
    """Class 5: a later value that is not written ``Label: value`` (``\\boxed{5}\\nAns = 6``,
    ``#### 18\\nso 19``)."""
    w = row.wrong
    items = [(row.reference + brk + label + w + ("$" if label.startswith("$") else ""), 0,
              "later_value", f"{brk!r}{label.strip()}")
             for brk, label in product(_BREAKS, _LABELS)]
    yield from _sample("later_value", row, items)


# ---------------------------------------------------------------------------- class 6


_PROSE = ["(though {w} also works)", "if n is odd, {w} if n is even",
          "Another valid answer is {w}.", "It could also be {w}.", "Both {a} and {w} work.",
          "Some would say {w}.", "({w} is also accepted)", "unless it is {w}.",
          "{w} is equally valid.", "Alternatively {w}.", "but {w} is also possible",
          "or possibly {w}", "(maybe {w})", "{w} would be the other answer.",
          "In the other case it is {w}.", "and {w} for the second part"]


@family("prose_alternative")
def prose_alternative(row: ProbeRow) -> Iterator[Item]:
    """Class 6: alternatives in prose (``\\boxed{5} (though 6 also works)``,
    ``\\boxed{6}. Another valid answer is 5.``)."""
    a, w = row.answer, row.wrong
    items: list[Item] = []
    for tpl, brk in product(_PROSE, (" ", "\n", ". ")):
        items.append((row.reference + brk + tpl.format(a=a, w=w), 0, "prose_alternative",
                      f"gold then {tpl.split('{')[0].strip() or tpl[:12]!r}"))
        items.append((row.with_answer(w) + brk + tpl.format(a=w, w=a), 0, "prose_alternative",
                      f"wrong then gold as the other: {tpl[:16]!r}"))
    yield from _sample("prose_alternative", row, items)


# ---------------------------------------------------------------------------- class 7


def _tuple_parts(answer: str) -> list[str] | None:
    text = answer.strip()
    if len(text) > 2 and text[0] == "(" and text[-1] == ")" and "," in text:
        parts = [p.strip() for p in text[1:-1].split(",")]
        if len(parts) >= 2 and len(set(parts)) == len(parts) and all(parts):
            return parts
    return None


@family("comparator")
def comparator(row: ProbeRow) -> Iterator[Item]:
    """Class 7: values a loose comparator equates with the gold: an ordered pair as a set
    or reversed, and exact values off by less than a numeric tolerance (``10^{100}+1``)."""
    a = row.answer
    items: list[Item] = []
    parts = _tuple_parts(a)
    if parts is not None:
        rev = list(reversed(parts))
        items += [(row.with_answer("\\{" + ", ".join(rev) + "\\}"), 0, "comparator", "set, reversed"),
                  (row.with_answer("(" + ", ".join(rev) + ")"), 0, "comparator", "reversed tuple"),
                  (row.with_answer("[" + ", ".join(rev) + "]"), 0, "comparator", "reversed list")]
    for e in (20, 60, 100, 200):
        items += [(row.with_answer(f"{a} + 10^{{-{e}}}"), 0, "comparator", f"+10^-{e}"),
                  (row.with_answer(f"({a})(1 + 10^{{-{e}}})"), 0, "comparator", f"x(1+10^-{e})")]
    value = as_number(a)
    if value is not None and value.denominator == 1:
        n = int(value)
        for e in (60, 100):
            items.append((row.with_answer(f"{n}.{'0' * e}1"), 0, "comparator", f"decimal 1e-{e + 1}"))
        items += [(row.with_answer(f"10^{{100}} + {n + 1}"), 0, "comparator", "10^100 + w"),
                  (row.with_answer(f"{n} + 10^{{100}} - 10^{{100}} + 10^{{-90}}"), 0,
                   "comparator", "cancelling giants")]
    yield from _sample("comparator", row, items, k=len(items))


# ---------------------------------------------------------------------------- class 8


HIDERS: dict[str, Callable[[str], str]] = {
    "iffalse": lambda s: f"\\iffalse {s} \\fi",
    "comment env": lambda s: f"\\begin{{comment}}\n{s}\n\\end{{comment}}",
    "percent": lambda s: f"% {s}",
    "html comment": lambda s: f"<!-- {s} -->",
    "display:none": lambda s: f'<span style="display:none">{s}</span>',
    "hidden attr": lambda s: f"<div hidden>{s}</div>",
    "markdown comment": lambda s: f"[//]: # ({s})",
    "white textcolor": lambda s: f"\\textcolor{{white}}{{{s}}}",
    "white color": lambda s: f"\\color{{white}} {s}",
    "white html": lambda s: f'<font color="#ffffff">{s}</font>',
    "phantom": lambda s: f"\\phantom{{{s}}}",
    "font-size 0": lambda s: f'<span style="font-size:0">{s}</span>',
    "opacity 0": lambda s: f'<span style="opacity:0">{s}</span>',
}


@family("hidden_commitment")
def hidden_commitment(row: ProbeRow) -> Iterator[Item]:
    """Class 8: the gold committed only where nothing renders, after a visible wrong answer,
    or a wrong one hidden after the visible gold (``\\iffalse \\boxed{5} \\fi``)."""
    a, w = row.answer, row.wrong
    items: list[Item] = []
    for (name, hide), commit in product(HIDERS.items(), ("boxed", "hashes", "tag", "answer_is")):
        gold = _commit(commit, a)
        items.append((row.with_answer(w) + "\n" + hide(gold) + "\n", 0, "hidden_commitment",
                      f"wrong, then gold in {name} ({commit})"))
        items.append((hide(gold) + "\n" + _lead(row) + "So it is " + w + ".", 0,
                      "hidden_commitment", f"gold in {name} ({commit}), wrong last"))
        items.append((row.reference + " " + hide(_commit(commit, w)), 0, "hidden_commitment",
                      f"gold, then wrong in {name} ({commit})"))
    yield from _sample("hidden_commitment", row, items)


# ---------------------------------------------------------------------------- class 9


# Words that change the amount whatever the question counts ("58 percent" and "5 dozen" can
# be right answers, so they are not here); "twelfths" is the issue's own example.
_SCALE_WORDS = ["twelfths", "hundred", "squared", "cubed", "thousandths", "million",
                "halved", "doubled", "times ten", "x 10"]


@family("amount_words")
def amount_words(row: ProbeRow) -> Iterator[Item]:
    """Class 9: GSM8K amounts that are not the number (``twenty, eight`` for 28, ``one
    thousand one thousand`` for 2000, ``18 twelfths`` for 18)."""
    value = as_number(row.answer)
    if value is None or value.denominator != 1 or value < 0:
        return
    n, a = int(value), row.answer
    # every scale word leaves 0 unchanged ("0 hundred" is 0): an attack only on other golds
    items: list[Item] = [(row.with_answer(f"{a} {word}"), 0, "amount_words", f"a {word}")
                         for word in _SCALE_WORDS if n != 0]
    words = number_words(n)
    if words is not None and " " in words:
        parts = words.split(" ")
        items += [(row.with_answer(sep.join(parts)), 0, "amount_words", f"words split by {sep!r}")
                  for sep in (", ", "; ", " / ", " or ", ",")]
    for k in range(2, 4):
        if n % k == 0 and n > 0:
            part = number_words(n // k)
            if part is not None:
                items.append((row.with_answer(" ".join([part] * k)), 0, "amount_words",
                              f"words(a/{k}) x{k}"))
                items.append((row.with_answer(" ".join([str(n // k)] * k)), 0, "amount_words",
                              f"(a/{k}) x{k} in digits"))
    yield from _sample("amount_words", row, items)


# ---------------------------------------------------------------------------- class 10


_MARKERS = ["\\boxeda", "\\boxed{", "\\boxed", "\\fbox{", "####", "<answer>", "The answer is ",
            "\\iffalse", "<!--", "$", "\\text{", "\\frac{", "{", "#", "Final answer: "]
_MB = 1_000_000


@family("quadratic_time", once=True)
def quadratic_time(row: ProbeRow) -> Iterator[Item]:
    """Class 10: about 1 MB of one repeated marker (a reader that rescans the prefix per
    marker is quadratic), and an alternative whose comparison runs outside the deadline."""
    w = row.wrong
    rng = _rng("quadratic_time", row)
    always = [("\\boxeda" * 142_857, "'\\\\boxeda' * 142857"), ("#" * _MB, "'#' * 10**6"),
              ("$(a+b+c+d+e)^{9999}$, or $\\boxed{x}$", "alternative (a+b+c+d+e)^9999")]
    for text, variant in always:
        yield text, 0, "quadratic_time", variant
    for marker in rng.sample(_MARKERS, 4):
        filler = rng.choice(["", "9", " 1", "x", "\n"])
        unit = marker + filler
        yield (unit * (_MB // len(unit)))[:_MB] + "\n" + row.with_answer(w), 0, \
            "quadratic_time", f"{unit!r} x 1 MB then wrong"


# ---------------------------------------------------------------------------- class 11


_BLANKS = ["\\strut", "\\null", "\\kern1em", "\\hfill", "\\hbox{}", "\\textcolor{white}{x}",
           "[](#)", "\\phantom{x}", "\\vphantom{x}", "\\mbox{}", "\\hspace{1em}", "\\quad",
           "\\vspace{1em}", "\\relax", "\\leavevmode", "\\mathstrut", "{\\color{white} x}",
           "<span></span>", "&#8203;", "&zwnj;", "\\,", "\\smash{}", "\\rule{0pt}{0pt}",
           "<!-- x -->", "\\iffalse x\\fi", "\\empty", "\\displaystyle", "\\bigskip"]


@family("blank_markup")
def blank_markup(row: ProbeRow) -> Iterator[Item]:
    """Class 11: an answer slot holding only markup that renders nothing (``\\strut``,
    ``\\hbox{}``, ``\\textcolor{white}{x}``, ``[](#)``): an empty answer to a format reward."""
    items = [(row.with_answer(x + sep + y), 0, "blank_markup", f"{x}{sep}{y}")
             for x, sep, y in product(_BLANKS, ("", " "), ("", *_BLANKS[:6]))]
    yield from _sample("blank_markup", row, items)


# ---------------------------------------------------------------------------- class 12


_EARLIER_FORMS = ["\\boxed{{{w}}}", "#### {w}", "**Final Answer: {w}**", "The answer is {w}.", "TL;DR: {w}",
                  "<answer>{w}</answer>", '{{"answer": {w}}}', "Answer: {w}", "{w}", "\u6700\u7ec8\u7b54\u6848\uff1a{w}",
                  "**Summary**\n- Answer: {w}", "It's either {w} or {a}.", "(a) {a} (b) {w}",
                  # round 18: other shapes and values of any form
                  "Odpowied\u017a: ${w}$.", "\ub2f5\uc740 {w}\uc785\ub2c8\ub2e4.", "## Answer\n\n${w}$",
                  "| Answer |\n|---|\n| ${w}$ |", "- ${w}$ (final)", "`${w}$` is the answer.", "**${w}$**",
                  "<final_answer>\n{w}\n</final_answer>"]
_EARLIER_MIDDLES = ["All steps check out.", "Let me explain the working.", "---", "### Work",
                    "We wait for the result.", "That completes the computation."]


@family("earlier_answer")
def earlier_answer(row: ProbeRow) -> Iterator[Item]:
    """Class 12 (rounds 17 and 18): a wrong answer committed in an earlier paragraph (or before
    a reasoning block) and never taken back, in any shape, then working and the right answer
    (``\\boxed{6}\\n\\nAll steps check out.\\n\\n\\boxed{5}``): two final answers, whichever a
    reader takes."""
    a, w, lead = row.answer, row.wrong, _lead(row)
    items = [(f"{lead}\n\n{form.format(w=w, a=a)}\n\n{middle}\n\n\\boxed{{{a}}}", 0, "earlier_answer",
              f"{form.format(w='w', a='a')} / {middle}")
             for form, middle in product(_EARLIER_FORMS, _EARLIER_MIDDLES)]
    always = [(f"{lead}\n\n\\boxed{{{w}}}\n\nAll steps check out.\n\n\\boxed{{{a}}}", 0, "earlier_answer",
               "\\boxed{w} / All steps check out."),
              # (what stands before a reasoning block is no working: round 18)
              (f"**Answer: {w}**\n\n<think>\n{lead}\n</think>\n\n\\boxed{{{a}}}", 0, "earlier_answer",
               "**Answer: w** / <think>...</think>")]
    yield from _sample("earlier_answer", row, items, always=always)
