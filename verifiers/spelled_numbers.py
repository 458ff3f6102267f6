r"""Numbers spelled in words of many languages, and in superscript or subscript digits: the
values a policy can offer without writing a digit (issue 30, round 7).

A value offered in a word (``vier\n\boxed{5}``, ``The answer is sechs. \boxed{5}``,
``\boxed{5}; lima also works.``) or in a raised digit (``⁴? #### 6``) is as much an answer
as ``4``. The grammar reads numbers, so it needs their words: this table holds zero to ten
in 33 languages, and eleven to twenty in eighteen of them. It is a lexicon of values, not a list of hedges: a word it lacks leaves a
value unread, and the places that read values before a commitment (a sentence that is a value
alone, a sentence that opens with one, an earlier answer clause) refuse what they cannot read
only where the shape itself offers a value.

Words that are also words of English prose are left out of ``TAIL_WORD`` (read after the
final answer, where English prose may follow; prose in another language is no allow-listed
closing there anyway): ``one``, ``to``, ``on``, ``hat``, ``fire``, ``due``, ``et``, ``en``.
The value slots before a commitment read all of them, since a sentence that is only ``Ein.``
or ``Hat!`` offers a value.

>>> spelled_value("vier"), spelled_value("Sechs"), spelled_value("पांच"), spelled_value("₄")
('4', '6', '5', '4')
>>> spelled_value("twenty-one"), spelled_value("bunny"), spelled_value("\u516b"), spelled_value("\u4e8c\u5341\u4e94")
('21', None, '8', '25')
"""

from __future__ import annotations

import re
import unicodedata

from verifiers.answer_text import read_visible
from verifiers.number_words import read_number_words
from verifiers.numeral_forms import CJK_DIGITS, CJK_SCALES, cjk_value

__all__ = ["CJK_NUMERAL", "SPELLED_VALUE", "SPELLED_WORD", "TAIL_WORD", "RAISED_DIGITS", "spelled_value"]

# zero .. ten, one language a line (a word with variants: "pięć pieć").
_TABLE = """
de null eins zwei drei vier fünf|funf sechs sieben acht neun zehn
nl nul een twee drie vier vijf zes zeven acht negen tien
fr zéro|zero un deux trois quatre cinq six sept huit neuf dix
es cero uno dos tres cuatro cinco seis siete ocho nueve diez
it zero uno due tre quattro cinque sei sette otto nove dieci
pt zero um dois|duas três|tres quatro cinco seis sete oito nove dez
ro zero unu doi|două trei patru cinci șase|şase|sase șapte|şapte|sapte opt nouă|noua zece
sv noll en|ett två|tva tre fyra fem sex sju åtta|atta nio tio
da nul en|et to tre fire fem seks syv otte ni ti
no null en|ett to tre fire fem seks sju|syv åtte ni ti
fi nolla yksi kaksi kolme neljä|nelja viisi kuusi seitsemän|seitseman kahdeksan yhdeksän|yhdeksan kymmenen
pl zero jeden|jedna dwa|dwie trzy cztery pięć|piec sześć|szesc siedem osiem dziewięć|dziewiec dziesięć|dziesiec
cs nula jedna|jeden dva|dvě tři čtyři pět šest sedm osm devět deset
hu nulla egy kettő|két három négy öt hat hét nyolc kilenc tíz
tr sıfır|sifir bir iki üç|uc dört|dort beş|bes altı|alti yedi sekiz dokuz on
id nol satu dua tiga empat lima enam tujuh delapan sembilan sepuluh
tl sero isa dalawa tatlo apat lima anim pito walo siyam sampu
sw sifuri moja mbili tatu nne tano sita saba nane tisa kumi
vi không một hai ba bốn năm sáu bảy tám chín mười
ru ноль один|одна два|две три четыре пять шесть семь восемь девять десять
uk нуль один|одна два|дві три чотири п'ять|п’ять шість сім вісім дев'ять|дев’ять десять
bg нула едно|един две|два три четири пет шест седем осем девет десет
el μηδέν ένα|ενα|ένας δύο|δυο τρία|τρια τέσσερα|τεσσερα πέντε|πεντε έξι|εξι επτά|εφτά|επτα οκτώ|οχτώ|οκτω εννέα|εννιά|εννεα δέκα|δεκα
ar صفر واحد|واحدة اثنان|اثنين|اثنتان ثلاثة|ثلاث أربعة|اربعة|أربع خمسة|خمس ستة|ست سبعة|سبع ثمانية|ثمان تسعة|تسع عشرة|عشر
fa صفر یک دو سه چهار پنج شش هفت هشت نه ده
he אפס אחת|אחד שתיים|שתים|שניים|שנים שלוש|שלושה ארבע|ארבעה חמש|חמישה שש|שישה שבע|שבעה שמונה תשע|תשעה עשר|עשרה
hi शून्य एक दो तीन चार पांच|पाँच छह|छः|छ सात आठ नौ दस
bn শূন্য এক দুই তিন চার পাঁচ ছয় সাত আট নয় দশ
th ศูนย์ หนึ่ง สอง สาม สี่ ห้า หก เจ็ด แปด เก้า สิบ
ko 영 하나|한 둘|두 셋|세 넷|네 다섯 여섯 일곱 여덟 아홉 열
ja ゼロ ひとつ ふたつ みっつ よっつ いつつ むっつ ななつ やっつ ここのつ とお
ta பூஜ்யம் ஒன்று இரண்டு மூன்று நான்கு ஐந்து ஆறு ஏழு எட்டு ஒன்பது பத்து
ka ნული ერთი ორი სამი ოთხი ხუთი ექვსი შვიდი რვა ცხრა ათი
"""

# eleven .. twenty, in the languages that write them as one word.
_TEENS = """
de elf zwölf|zwolf dreizehn vierzehn fünfzehn|funfzehn sechzehn siebzehn achtzehn neunzehn zwanzig
fr onze douze treize quatorze quinze seize dix-sept dix-huit dix-neuf vingt
es once doce trece catorce quince dieciséis|dieciseis diecisiete dieciocho diecinueve veinte
it undici dodici tredici quattordici quindici sedici diciassette diciotto diciannove venti
pt onze doze treze catorze|quatorze quinze dezesseis|dezasseis dezessete|dezassete dezoito dezenove|dezanove vinte
nl elf twaalf dertien veertien vijftien zestien zeventien achttien negentien twintig
sv elva tolv tretton fjorton femton sexton sjutton arton nitton tjugo
pl jedenaście dwanaście trzynaście czternaście piętnaście szesnaście siedemnaście osiemnaście dziewiętnaście dwadzieścia
ru одиннадцать двенадцать тринадцать четырнадцать пятнадцать шестнадцать семнадцать восемнадцать девятнадцать двадцать
fi yksitoista kaksitoista kolmetoista neljätoista viisitoista kuusitoista seitsemäntoista kahdeksantoista yhdeksäntoista kaksikymmentä
ro unsprezece doisprezece treisprezece paisprezece cincisprezece șaisprezece|şaisprezece șaptesprezece|şaptesprezece optsprezece nouăsprezece douăzeci
el έντεκα δώδεκα δεκατρία δεκατέσσερα δεκαπέντε δεκαέξι δεκαεπτά δεκαοχτώ|δεκαοκτώ δεκαεννιά|δεκαεννέα είκοσι
da elleve tolv tretten fjorten femten seksten sytten atten nitten tyve
no elleve tolv tretten fjorten femten seksten sytten atten nitten tjue
hu tizenegy tizenkettő tizenhárom tizennégy tizenöt tizenhat tizenhét tizennyolc tizenkilenc húsz
cs jedenáct dvanáct třináct čtrnáct patnáct šestnáct sedmnáct osmnáct devatenáct dvacet
hi ग्यारह बारह तेरह चौदह पंद्रह सोलह सत्रह अठारह उन्नीस बीस
uk одинадцять дванадцять тринадцять чотирнадцять п'ятнадцять шістнадцять сімнадцять вісімнадцять дев'ятнадцять двадцять
"""
# Words of English or of common prose that the tail must not read as values (see above).
_PROSE_WORDS = frozenset(["a", "one", "to", "on", "hat", "fire", "due", "ni", "ti", "et", "en", "um", "null", "zero"])


def _read_table() -> dict[str, int]:
    words: dict[str, int] = {}
    rows = [(line, 0) for line in _TABLE.strip().splitlines()]
    rows += [(line, 11) for line in _TEENS.strip().splitlines()]
    for line, first in rows:
        for value, variants in enumerate(line.split()[1:], start=first):
            for word in variants.split("|"):
                # as written and as the normaliser leaves it (a Cyrillic "о" reads as Latin)
                for form in (word, read_visible(word)[0]):
                    words.setdefault(form.lower(), value)
    return words


_WORDS = _read_table()
# Raised and lowered digits, read as digits where they stand alone ("⁴?", "**₄**").
# (and the dingbat circled digits: "\u277a", "\u278b")
RAISED_DIGITS = "\u2070\u00b9\u00b2\u00b3\u2074-\u2079\u2080-\u2089\u2776-\u2793"


def _alternation(words: set[str]) -> str:
    """An alternation of ``words`` as a trie (``a(?:cht|lti)|...``): Python's engine tries a
    flat alternation's branches one by one, 400 of them at every line start of a 1 MB text."""
    if not words:
        return "(?!)"
    heads: dict[str, set[str]] = {}
    for word in words:
        if word:
            heads.setdefault(word[0], set()).add(word[1:])
    branches = []
    for head, rests in sorted(heads.items()):
        optional = "" in rests
        inner = _alternation(rests - {""}) if rests - {""} else ""
        if not inner:
            branches.append(re.escape(head))
        else:
            branches.append(f"{re.escape(head)}(?:{inner}){'?' if optional else ''}")
    return "|".join(branches)


# A word ends where no letter of its own script follows: "vierzig" is no "vier", but in
# "Sixでもいい" a Latin word stands before Japanese written without spaces.
_LATIN = r"A-Za-z\u00c0-\u024f\u1e00-\u1eff"
_OTHER = r"[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0e7f\u10a0-\u10ff]"


def _first_chars(words: set[str]) -> str:
    # a class of the words' first letters, tested once before the trie's branches are
    return "".join(sorted({re.escape(c) for w in words for c in (w[0], w[0].upper())}))


def _words_re(words: set[str]) -> str:
    latin = {w for w in words if re.fullmatch(rf"[{_LATIN}'\u2019]+", w)}
    other = words - latin
    return (
        rf"(?=[{_first_chars(latin)}])(?<![{_LATIN}])(?:{_alternation(latin)})(?![{_LATIN}])"
        rf"|(?=[{_first_chars(other)}])(?<!{_OTHER})(?:{_alternation(other)})(?!{_OTHER})"
    )


# Any word of the table, or a run of raised or lowered digits (regex pieces, case-insensitive).
SPELLED_WORD = rf"{_words_re(set(_WORDS))}|[{RAISED_DIGITS}]+"
# The words the tail reads as values: the table less the words of prose.
TAIL_WORD = _words_re(set(_WORDS) - _PROSE_WORDS)
_RAISED_RE = re.compile(rf"[{RAISED_DIGITS}]+")
_ENGLISH = (
    "zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    "fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    "eighty|ninety|hundred|thousand|million|billion"
)
_CJK_DIGITS, _CJK_SCALES = CJK_DIGITS, CJK_SCALES
_CJK_RUN = CJK_NUMERAL = "[" + "".join(_CJK_DIGITS) + "".join(_CJK_SCALES) + "]+"
# A value in words in a slot where a sentence or line holds one value (regex piece,
# case-insensitive): a word of the table, an English number phrase, a CJK numeral, raised digits.
SPELLED_VALUE = (
    rf"(?=[^\W\d_]|[{RAISED_DIGITS}])(?:(?=[{_first_chars(set(_ENGLISH.split('|')))}])(?<![A-Za-z])(?:{_alternation(set(_ENGLISH.split('|')))})"
    rf"(?:[ \t-]+(?:{_alternation(set(_ENGLISH.split('|')))}|and)(?![A-Za-z]))*(?![A-Za-z])"
    rf"|{SPELLED_WORD}|{_CJK_RUN})"
)


def spelled_value(text: str) -> str | None:
    """The integer ``text`` spells (a word of the table, English number words, raised or
    lowered digits), as digits; None when it spells none."""
    word = text.strip().strip("*_$.!?,;:\u3002\uff01").strip()
    if not word:
        return None
    if _RAISED_RE.fullmatch(word):
        if len(word) == 1:
            return str(int(unicodedata.numeric(word)))  # "\u277f" is 10
        return "".join(str(unicodedata.digit(c, 0)) for c in word)
    low = word.lower()
    if low in _WORDS:
        return str(_WORDS[low])
    english = read_number_words(low)
    if english is None and re.fullmatch(_CJK_RUN, word):
        english = cjk_value(word)
    return None if english is None else str(english)
