"""The words that may follow an amount, and what they make of it: units by the canonical name
two answers are compared under, currencies and counters of the languages a policy writes,
count nouns, and the scale words that multiply (``read_words``). Closed lists: any other word
could change the value ("5 squared", "not 5"), so it is no dressing.

>>> read_words("thousand dollars"), read_words("\u0440\u0443\u0431\u043b\u044f"), read_words("not")
((1000, 'dollar'), (1, 'ruble'), None)
"""

from __future__ import annotations

import re

__all__ = ["COUNTER_WORDS", "CURRENCIES", "CURRENCY_WORDS", "DRESSING_WORDS", "read_words"]


# Unit words that may follow a number, by the canonical name two answers are compared under
# (``5 m`` is not ``5 cm``). A closed list: any other word could change the value ("5 squared",
# "not 5"), so it is not dressing. Conversions are out of scope: "1 ft" is not "12 in".
_LENGTHS = {
    "mm": ("mm", "millimeter", "millimeters", "millimetre", "millimetres"),
    "cm": ("cm", "centimeter", "centimeters", "centimetre", "centimetres"),
    "m": ("m", "meter", "meters", "metre", "metres"),
    "km": ("km", "kilometer", "kilometers", "kilometre", "kilometres"),
    "in": ("in", "inch", "inches"),
    "ft": ("ft", "foot", "feet"),
    "yd": ("yd", "yard", "yards"),
    "mi": ("mi", "mile", "miles"),
}
_UNIT_SPELLINGS: dict[str, tuple[str, ...]] = {
    **_LENGTHS,
    "mg": ("mg", "milligram", "milligrams"),
    "g": ("g", "gram", "grams"),
    "kg": ("kg", "kilogram", "kilograms"),
    "lb": ("lb", "lbs", "pound", "pounds"),
    "oz": ("oz", "ounce", "ounces"),
    "ton": ("ton", "tons", "tonne", "tonnes"),
    "ml": ("ml", "milliliter", "milliliters", "millilitre", "millilitres"),
    "l": ("l", "liter", "liters", "litre", "litres"),
    "gal": ("gal", "gallon", "gallons"),
    "qt": ("qt", "quart", "quarts"),
    "pt": ("pt", "pint", "pints"),
    "cup": ("cup", "cups"),
    "s": ("s", "sec", "secs", "second", "seconds"),
    "min": ("min", "mins", "minute", "minutes"),
    "h": ("h", "hr", "hrs", "hour", "hours"),
    "day": ("day", "days"),
    "week": ("week", "weeks"),
    "month": ("month", "months"),
    "year": ("year", "years", "yr", "yrs"),
    "mph": ("mph", "miles per hour"),
    "km/h": ("km/h", "kph", "kmh", "kilometers per hour", "kilometres per hour"),
    "m/s": ("m/s", "meters per second", "metres per second"),
    # (with the currency words of the languages a policy writes: "72 рубля", "94 원", "72 元")
    "dollar": ("dollar", "dollars", "usd", "bucks", "d\u00f3lar", "d\u00f3lares", "dollari", "dollaro",
               "\u0434\u043e\u043b\u043b\u0430\u0440", "\u0434\u043e\u043b\u043b\u0430\u0440\u0430",
               "\u0434\u043e\u043b\u043b\u0430\u0440\u043e\u0432", "\u7f8e\u5143", "\u30c9\u30eb",
               "\ub2ec\ub7ec", "\u0921\u0949\u0932\u0930", "\u062f\u0648\u0644\u0627\u0631",
               "\u062f\u0648\u0644\u0627\u0631\u0627\u062a", "\u0111\u00f4 la"),
    "cent": ("cent", "cents"),
    "euro": ("euro", "euros", "eur", "\u0435\u0432\u0440\u043e", "\u6b27\u5143", "\u30e6\u30fc\u30ed",
             "\uc720\ub85c", "\u092f\u0942\u0930\u094b", "\u064a\u0648\u0631\u0648"),
    "yen": ("yen", "\u5186", "\u65e5\u5143", "\uc5d4", "\u0438\u0435\u043d", "\u0438\u0435\u043d\u0430",
            "\u0438\u0435\u043d\u044b"),
    "rupee": ("rupee", "rupees", "rupias", "\u0930\u0941\u092a\u092f\u0947", "\u0930\u0941\u092a\u090f",
              "\u0930\u0941\u092a\u092f\u093e", "\u0930\u0941\u092a\u092f\u094b\u0902",
              "\u0440\u0443\u043f\u0438\u0439", "\u0440\u0443\u043f\u0438\u0438", "\u5362\u6bd4"),
    "yuan": ("yuan", "rmb", "renminbi", "\u5143", "\u5757", "\u4eba\u6c11\u5e01", "\uc704\uc548",
             "\u044e\u0430\u043d\u044c", "\u044e\u0430\u043d\u044f", "\u044e\u0430\u043d\u0435\u0439"),
    "peso": ("peso", "pesos"),
    "ruble": ("ruble", "rubles", "rouble", "roubles", "rublos", "\u0440\u0443\u0431\u043b\u044c",
              "\u0440\u0443\u0431\u043b\u044f", "\u0440\u0443\u0431\u043b\u0435\u0439", "\u0440\u0443\u0431",
              "\u5362\u5e03"),
    "won": ("\uc6d0", "krw"),
    "dong": ("\u0111\u1ed3ng", "vnd"),
    "lira": ("lira", "lire", "liras", "\u043b\u0438\u0440"),
    "zloty": ("z\u0142oty", "z\u0142ote", "z\u0142otych", "z\u0142", "zloty", "zlotys"),
    "baht": ("baht", "\u0e1a\u0e32\u0e17"),
    "krone": ("krone", "kroner", "kronor", "krona"),
    "riyal": ("riyal", "riyals", "\u0631\u064a\u0627\u0644", "\u0631\u064a\u0627\u0644\u0627\u062a"),
    "dirham": ("dirham", "dirhams", "\u062f\u0631\u0647\u0645", "\u062f\u0631\u0627\u0647\u0645"),
    "dinar": ("dinar", "dinars", "\u062f\u064a\u0646\u0627\u0631", "\u062f\u0646\u0627\u0646\u064a\u0631"),
    "franc": ("franc", "francs"),
    "deg": ("deg", "degree", "degrees"),
    "rad": ("rad", "rads", "radian", "radians"),
    "sq unit": ("square units", "sq units", "units squared"),
    "cu unit": ("cubic units", "cu units", "units cubed"),
    "unit": ("unit", "units"),
    "sq ft": ("sq ft", "square feet", "square foot", "ft squared"),
    "sq in": ("sq in", "square inches", "square inch"),
    "sq m": ("sq m", "square meters", "square metres", "square meter", "square metre"),
    "sq cm": ("sq cm", "square centimeters", "square centimetres", "square centimeter"),
    "sq km": ("sq km", "square kilometers", "square kilometres", "square kilometer"),
    "sq mi": ("sq mi", "square miles", "square mile"),
    "sq yd": ("sq yd", "square yards", "square yard"),
    "cu ft": ("cu ft", "cubic feet", "cubic foot"),
    "cu in": ("cu in", "cubic inches", "cubic inch"),
    "cu m": ("cu m", "cubic meters", "cubic metres", "cubic meter", "cubic metre"),
    "cu cm": ("cu cm", "cc", "cubic centimeters", "cubic centimetres", "cubic centimeter"),
    # a power written after the unit ("5 cm^2", "12 m^{3}", "4 meters^2"): an area or volume
    **{f"{kind} {u}": tuple(f"{w}^{p}" for w in _LENGTHS[u] for p in (n, f"{{{n}}}"))
       for kind, n in (("sq", 2), ("cu", 3)) for u in _LENGTHS},
    "m/s^2": ("m/s^2", "m/s^{2}", "meters per second squared", "metres per second squared"),
    "newton": ("newton", "newtons"),
    "joule": ("joule", "joules"),
    "watt": ("watt", "watts"),
    "kw": ("kw", "kilowatt", "kilowatts"),
    "kwh": ("kwh", "kilowatt-hour", "kilowatt-hours", "kilowatt hours"),
    "volt": ("volt", "volts"),
    "hz": ("hz", "hertz"),
    "pa": ("pa", "pascal", "pascals"),
    "kpa": ("kpa", "kilopascal", "kilopascals"),
}
_UNITS = {spelling: unit for unit, spellings in _UNIT_SPELLINGS.items() for spelling in spellings}
_CURRENCIES = ("dollar", "cent", "euro", "yen", "rupee", "yuan", "peso", "ruble", "franc", "won", "dong", "lira",
               "zloty", "baht", "krone", "riyal", "dirham", "dinar")
CURRENCIES = frozenset(_CURRENCIES)  # the currencies' canonical names
# Every spelling of a currency: a closed class of words, dressing after an amount in any language.
CURRENCY_WORDS = frozenset(w for unit in _CURRENCIES for w in _UNIT_SPELLINGS[unit])
# The counters of languages that count with one ("62\uac1c", "18\u500b", "18 qu\u1ea3"): a closed class,
# dressing as an English count noun is ("62 apples"), naming no unit.
COUNTER_WORDS = frozenset([
    "\u4e2a", "\u500b", "\uac1c", "\uba85", "\ub9c8\ub9ac", "\uad8c", "\uc7a5", "\ub300", "\u672c", "\u679a",
    "\u5339", "\u982d", "\u53f0", "\u4ef6", "\u53ea", "\u6761", "\u689d", "\u5f20", "\u5f35", "\u4f4d",
    "\u4eba", "\u540d", "\u6b21", "\u5c81", "\u6b73", "\uc0b4", "\u9875", "\u9801", "\u676f", "\u74f6",
    "\u7bb1", "\u5305", "\u888b", "\u9897", "\u9846", "\u6735", "\u68f5", "\u53cc", "\u96d9", "qu\u1ea3",
    "c\xe1i", "con", "ng\u01b0\u1eddi", "chi\u1ebfc", "cu\u1ed1n",
])
# What may stand after an amount in any language: its currency or its counter.
DRESSING_WORDS = CURRENCY_WORDS | COUNTER_WORDS
# Dressing that names no unit worth comparing: "25 percent" is 25 as "25\%" is.
_PLAIN_WORDS = {"percent", "per cent"}
# Count nouns whose plural takes no "-s" ("432 people"): dressing, as "12 apples" is.
_PLAIN_WORDS |= {"people", "children", "men", "women", "sheep", "fish", "deer", "mice", "geese",
                 "teeth", "cattle", "oxen", "staff", "aircraft", "series", "species"}
_PLAIN_WORDS |= COUNTER_WORDS  # "62\uac1c": a count, as "62 apples" is
# Number words multiply: "5 thousand" is 5000, never 5.
_SCALES = {
    "hundred": 100,
    "thousand": 10**3,
    "million": 10**6,
    "billion": 10**9,
    "trillion": 10**12,
}
# A plural count noun ("12 apples", "18 students") is dressing too: GSM8K answers carry one. Not
# these plurals, which change or hedge the value ("5 tenths", "3 times", "2 thousands").
_NOT_COUNT_NOUNS = {
    "times", "less", "minus", "plus", "perhaps", "thus", "always", "sometimes", "is", "was",
    "has", "this", "its", "yes", "as", "us", "equals", "tens", "ones", "hundreds", "thousands",
    "millions", "billions", "trillions", "dozens", "scores", "halves", "thirds", "quarters",
    "fourths", "fifths", "sixths", "sevenths", "eighths", "ninths", "tenths", "hundredths",
    "thousandths", "millionths", "squares", "cubes", "powers", "percents", "digits", "odds",
}  # fmt: skip
# (an English plural's shape: not "-us", "-ss", "-is", which end adjectives and singulars
# such as "bogus", "erroneous", "less", "basis")
_COUNT_NOUN_RE = re.compile(r"[a-z]{2,30}(?<![uis])s")
# Words that scale the number before them whatever their spelling: every English ordinal used
# as a denominator ("18 twelfths", "5 twentieths", "2 hundredths") and a past participle of an
# operation ("1 doubled", "1 halved", "1 squared"; not "bed", "seed", "sled").
_SCALING_WORD_RE = re.compile(
    r"(?:(?:four|fif|six|seven|eigh|nin|ten|eleven|twelf|(?:thir|four|fif|six|seven|eigh|nine)teen|"
    r"(?:twen|thir|for|fif|six|seven|eigh|nine)tie|hundred|thousand|million|billion)ths?|"
    r"[a-z]{3,}(?<!e)ed)"
)
# After "1" a count noun is singular ("1 apple", "#### 1 book"); these words after a number
# are never a count noun: they change, hedge or negate it.
_NOT_SINGULAR_NOUNS = {
    "or", "and", "not", "nor", "more", "less", "fewer", "minus", "plus", "times", "over",
    "squared", "cubed", "half", "third", "quarter", "fourth", "fifth", "tenth", "hundredth",
    "thousandth", "percent", "dozen", "score", "maybe", "perhaps", "possibly", "probably",
    "approximately", "about", "roughly", "wait", "no", "to", "of", "each", "per", "th", "st",
    "nd", "rd", "digit", "power", "square", "cube", "root", "factorial", "mod", "modulo",
}  # fmt: skip
_SINGULAR_NOUN_RE = re.compile(r"[a-z]{2,30}")


_NUMBER_WORDS_TEXT = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred ones twos threes fours fives sixes sevens eights nines tens dozen"
)
_NUMBER_WORD_SET = frozenset(_NUMBER_WORDS_TEXT.split())


def read_words(words: str, *, after_one: bool = False) -> tuple[int, str | None] | None:
    """``(scale, unit)`` for the words after a number, or None when they are not dressing.

    >>> read_words("thousand dollars"), read_words("Apples"), read_words("squared")
    ((1000, 'dollar'), (1, None), None)
    """
    parts = words.lower().split()
    scale = 1
    while parts and parts[0] in _SCALES:
        scale *= _SCALES[parts.pop(0)]
    if not parts:
        return scale, None
    phrase = " ".join(parts)
    if any(part.strip("-") in _NUMBER_WORD_SET for part in parts):
        return None  # "1 two" offers a second value, never a count noun ("5 twos" neither)
    if phrase in _UNITS:
        return scale, _UNITS[phrase]
    if phrase in _PLAIN_WORDS:
        return scale, None
    if len(parts) == 1 and _SCALING_WORD_RE.fullmatch(phrase):
        return None
    if len(parts) == 1 and _COUNT_NOUN_RE.fullmatch(phrase) and phrase not in _NOT_COUNT_NOUNS:
        return scale, None
    if (
        after_one
        and scale == 1
        and len(parts) == 1
        and _SINGULAR_NOUN_RE.fullmatch(phrase)
        and phrase not in _NOT_SINGULAR_NOUNS
    ):
        return scale, None
    return None
