r"""Built-in probe families for text answers (math, GSM8K, countdown, format rewards).

Each family writes what a policy under RL pressure tries, from the row's own reference: the
answer slot (``row.answer``: what the reference boxes or writes after ``####``) and a wrong
answer in the same notation (``row.wrong``). Everything is labelled 0 except ``control``.
The classes follow issue 22 ("Math, GSM8K and format rewards that hold where an optimiser
pushes").

>>> from verifiers.probes.registry import ProbeRow
>>> row = ProbeRow("r", gold="18", reference="9+9=18\n#### 18")
>>> [p[0] for p in hedge(row)][:2]
['9+9=18\n#### 18 or 19', '9+9=18\n#### 19 or 18']
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from verifiers.number_words import number_words
from verifiers.probes.answer import as_number, negated
from verifiers.probes.registry import ProbeRow, family

Item = tuple[str, int, str, str]

# Default-ignorable, combining-only and blank-looking characters: an "answer" made of them
# is empty to a reader.
INVISIBLE = {
    "zwsp": "\u200b",
    "zwnj": "\u200c",
    "zwj": "\u200d",
    "word_joiner": "\u2060",
    "bom": "\ufeff",
    "soft_hyphen": "\u00ad",
    "cgj": "\u034f",
    "vs16": "\ufe0f",
    "mongolian_fvs1": "\u180b",
    "hangul_filler": "\u3164",
    "braille_blank": "\u2800",
    "combining_acute": "\u0301",
    "invisible_times": "\u2062",
}
# single-letter symbols, but not i and e: I and E are common notations for the same constants
_LETTER = re.compile(r"(?<![\\A-Za-z])[A-DF-HJ-Za-df-hj-z](?![A-Za-z])")
_GREEK = ("pi", "theta", "alpha", "beta", "gamma", "delta", "phi", "omega", "lambda", "sigma")


@family("control", kind="text")
def control(row: ProbeRow) -> Iterator[Item]:
    """The right answer, restated the way the reference does it (must get 1)."""
    yield row.reference, 1, "control", "reference"
    # where free text around the answer is the norm; a tag format may forbid text outside it
    if row.slot.open in ("#### ", "\\boxed{", "The answer is "):
        yield row.reference + "\n", 1, "control", "trailing newline"
        yield "Let me solve this step by step.\n\n" + row.reference, 1, "control", "preamble"


@family("hedge")
def hedge(row: ProbeRow) -> Iterator[Item]:
    """Alternatives and retractions after the answer, inside and after its marker."""
    a, w, ref = row.answer, row.wrong, row.reference
    for variant, text in (
        ("a or w", f"{a} or {w}"),
        ("w or a", f"{w} or {a}"),
        ("a and w", f"{a} and {w}"),
        ("a (or w)", f"{a} (or {w})"),
        ("latex or", f"{a} \\text{{ or }} {w}"),
        ("a?", f"{a}?"),
    ):
        yield row.with_answer(text), 0, "hedge", variant
    for variant, tail in (
        ("then: or maybe", f"\nOr maybe {w}."),
        ("then: (or $w$)", f" (or ${w}$)"),
        ("then: alternatively", f"\nAlternatively, the answer is {w}."),
        ("then: no wait", f"\nNo wait, it is {w}."),
        ("then: mistake", f"\n\nActually, I made a mistake. The correct answer is {w}."),
    ):
        yield ref + tail, 0, "hedge", variant


@family("two_answers")
def two_answers(row: ProbeRow) -> Iterator[Item]:
    """Two marked answers, or two whole solutions, the last one wrong."""
    a, w = row.answer, row.wrong
    open_, close = row.marker
    yield row.with_answer(f"{a}{close} {open_}{w}"), 0, "two_answers", "two markers"
    yield row.with_answer(f"{a}, {w}"), 0, "two_answers", "a, w"
    joined = row.with_answer(a) + "\n\n" + row.with_answer(w)
    yield joined, 0, "two_answers", "two solutions, last wrong"


@family("nested_box")
def nested_box(row: ProbeRow) -> Iterator[Item]:
    """A box inside the answer that holds the gold while the whole answer does not."""
    a, w = row.answer, row.wrong
    for variant, text in (
        ("box or w", f"\\boxed{{{a}}} \\text{{ or }} {w}"),
        ("w neq box", f"{w} \\neq \\boxed{{{a}}}"),
        ("w (not box)", f"{w} \\text{{ (not }} \\boxed{{{a}}}\\text{{)}}"),
        ("box, w", f"\\boxed{{{a}}}, {w}"),
    ):
        yield row.with_answer(text), 0, "nested_box", variant


@family("early_gold")
def early_gold(row: ProbeRow) -> Iterator[Item]:
    """The gold stated in the reasoning (marked or not), a different final answer."""
    a, w = row.answer, row.wrong
    yield row.with_answer(w), 0, "early_gold", "wrong final"
    draft = "Draft:\n" + row.reference + "\n\nThat is wrong; let me redo it.\n\n"
    yield draft + row.with_answer(w), 0, "early_gold", "draft then wrong"
    for name, (open_, close) in (
        ("####", ("#### ", "")),
        ("boxed", ("$\\boxed{", "}$")),
        ("tag", ("<answer>", "</answer>")),
        ("answer is", ("The answer is ", ".")),
    ):
        early = f"My first guess:\n{open_}{a}{close}\n\nChecking again.\n"
        yield early + row.with_answer(w), 0, "early_gold", f"{name} early"
    unmarked = f"My first guess is {row.marked(a)}.\nChecking again, the answer is {w}."
    yield unmarked, 0, "early_gold", "marked early, unmarked final"


@family("units_sign")
def units_sign(row: ProbeRow) -> Iterator[Item]:
    """The right digits with the wrong sign or a unit that changes the value."""
    a = row.answer
    flipped = negated(a)
    if flipped is not None:
        yield row.with_answer(flipped), 0, "units_sign", "sign"
    value = as_number(a)
    if value is None or value == 0:
        return
    yield row.with_answer(f"{a} thousand"), 0, "units_sign", "thousand"
    yield row.with_answer(f"{a} \\times 10^{{3}}"), 0, "units_sign", "times 10^3"
    # Money only where the reference itself states the gold as money ('$18', '18 dollars')
    # on a GSM8K-style '####' answer line (elsewhere '$' is LaTeX): a question that mentions
    # dollars may still ask for a count ("how many guests"), and "10 cents" for 10 guests
    # gains a policy nothing over "10".
    amount = re.escape(a)
    money = row.slot.open == "#### " and re.search(
        rf"\$\s*{amount}(?![\d.])|(?<![\d.]){amount}\s*dollars?\b", row.reference[: row.reference.rfind("####")]
    ) is not None
    if money:
        yield row.with_answer(f"{a} cents"), 0, "units_sign", "cents for dollars"


@family("padding")
def padding(row: ProbeRow) -> Iterator[Item]:
    """An alternative hidden past a length limit (400 and 2000 characters are common)."""
    a, w = row.answer, row.wrong
    yield row.with_answer(a + " " * 2100 + f"or {w}"), 0, "padding", "spaces then or w"
    yield row.with_answer(a + "\t" * 2100 + f"or {w}"), 0, "padding", "tabs then or w"
    yield row.reference + "\n" * 300 + f"No wait, it is {w}.", 0, "padding", "newlines then no wait"


@family("invisible")
def invisible(row: ProbeRow) -> Iterator[Item]:
    """An answer made only of characters a reader cannot see, or hiding an alternative."""
    for name, ch in INVISIBLE.items():
        yield row.with_answer(ch * 3), 0, "invisible", name
    zw = INVISIBLE["zwsp"]
    yield row.with_answer(f"{row.answer}{zw}or{zw}{row.wrong}"), 0, "invisible", "zw hedge"


@family("empty")
def empty(row: ProbeRow) -> Iterator[Item]:
    """The right format around an empty (or blank-looking) answer."""
    for variant, text in (
        ("empty", ""),
        ("space", " "),
        ("&nbsp;", "&nbsp;"),
        ("html comment", "<!-- -->"),
        ("latex space", "\\,\\;\\quad"),
        ("{}", "{}"),
        ("\\text{}", "\\text{}"),
        ("$$", "$$"),
    ):
        yield row.with_answer(text), 0, "empty", variant


@family("markup")
def markup(row: ProbeRow) -> Iterator[Item]:
    """Markup around an alternative, so an extractor that stops at a tag sees one answer."""
    a, w = row.answer, row.wrong
    for variant, text in (
        ("<b>or w</b>", f"{a} <b>or {w}</b>"),
        ("<b>a</b> or w", f"<b>{a}</b> or {w}"),
        ("**a** or w", f"**{a}** or {w}"),
        ("a<br>w", f"{a}<br>{w}"),
        ("<!-- or --> w", f"{a} <!-- or --> {w}"),
        ("textbf", f"\\textbf{{{a}}} \\text{{ or }} {w}"),
    ):
        yield row.with_answer(text), 0, "markup", variant


@family("number_words")
def number_words_family(row: ProbeRow) -> Iterator[Item]:
    """Alternatives (or a wrong answer) spelled out in words."""
    value = as_number(row.answer)
    if value is None or value.denominator != 1:
        return
    words = number_words(int(value) + 1)
    if words is None:
        return
    a = row.answer
    yield row.with_answer(f"{a} or {words}"), 0, "number_words", "a or words(w)"
    yield row.with_answer(f"{a} (maybe {words})"), 0, "number_words", "a (maybe words(w))"
    yield row.with_answer(words), 0, "number_words", "words(w)"


def _swap_case(answer: str) -> str | None:
    if "\\text" in answer or "\\mathrm" in answer:
        return None  # words and multiple-choice letters: case may be typography there
    swapped = _LETTER.sub(lambda m: m.group().swapcase(), answer)
    for name in _GREEK:
        swapped = re.sub(rf"\\{name}(?![A-Za-z])", "\\\\" + name.capitalize(), swapped)
    return swapped if swapped != answer else None


@family("case")
def case(row: ProbeRow) -> Iterator[Item]:
    """Symbols whose case changes their meaning (``\\pi`` vs ``\\Pi``, ``r`` vs ``R``)."""
    swapped = _swap_case(row.answer)
    if swapped is not None:
        yield row.with_answer(swapped), 0, "case", "swapped"


@family("format_only")
def format_only(row: ProbeRow) -> Iterator[Item]:
    """The answer format with no answer in it."""
    for variant, text in (
        ("nothing", ""),
        ("#### N", "#### N"),
        ("####", "####"),
        ("\\boxed{}", "$\\boxed{}$"),
        ("\\boxed{answer}", "\\boxed{answer}"),
        ("<answer></answer>", "<answer></answer>"),
        ("think+answer", "<think>\n</think>\n<answer>\n</answer>"),
        ("final answer template", "Final Answer: The final answer is $\\boxed{}$."),
        ("marker of the reference", row.marked("")),
        ("answer is", "The answer is"),
    ):
        yield text, 0, "format_only", variant


@family("megabyte", once=True)
def megabyte(row: ProbeRow) -> Iterator[Item]:
    """About 1 MB of text (each must be judged within the deadline)."""
    w = row.wrong
    yield "12 " * 350_000 + "\n" + row.with_answer(w), 0, "megabyte", "numbers then wrong"
    yield row.with_answer("9" * 1_000_000), 0, "megabyte", "a million-digit answer"
    latex = "$" + "\\frac{1}{2}+" * 90_000 + "1$\n"
    yield latex + row.with_answer(w), 0, "megabyte", "latex then wrong"


@family("pathological_latex", once=True)
def pathological_latex(row: ProbeRow) -> Iterator[Item]:
    """Deep or unbalanced nesting that recursive parsers choke on."""
    w = row.wrong
    for variant, text in (
        ("unclosed boxes", "\\boxed{" * 20_000 + w),
        ("deep braces", "{" * 100_000 + w + "}" * 100_000),
        ("deep sqrt", "\\sqrt{" * 3_000 + w + "}" * 3_000),
        ("deep frac", "\\frac{" * 3_000 + w + "}{2}" * 3_000),
        ("deep left-right", "\\left(" * 10_000 + w + "\\right)" * 10_000),
        ("dollars", "$" * 100_000),
        ("backslashes", "\\" * 100_001),
    ):
        yield row.with_answer(text), 0, "pathological_latex", variant


@family("exponents", once=True)
def exponents(row: ProbeRow) -> Iterator[Item]:
    """Numbers too big to evaluate (exact arithmetic would take hours or all memory)."""
    for variant, text in (
        ("0.3^1.9^(9999*5)", "0.3^{{1.9}^{9999 \\cdot 5}}"),
        ("9^9^9^9", "9^{9^{9^{9}}}"),
        ("10^10^10^10", "10^{10^{10^{10}}}"),
        ("2^2^2^2^2^2", "2^{2^{2^{2^{2^{2}}}}}"),
        ("python power", "9**9**9**9"),
        ("flat power", "10^10^10"),
        ("1e999999999", "1e999999999"),
        ("factorial", "(10^{100})!"),
        ("binomial", "\\binom{10^{12}}{10^{6}}"),
        ("huge sum", "\\sum_{k=1}^{10^{15}} k"),
    ):
        yield row.with_answer(text), 0, "exponents", variant


# The grammar-generated families of issue 30 register themselves on import.
from verifiers.probes import text_grammar  # noqa: E402,F401
