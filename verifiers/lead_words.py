"""The vocabulary of the ``lead`` rule (``verifiers.answer_lead``): the closed word classes it
reads by allow-list. A word before an answer's value is read only when it is in one of these
sets (a copula or committing verb, a filler, an answer label, an opener that orders or
concludes); the doubt, belief and bound words here are the ones that refuse even inside an
otherwise committed clause. The rules that read them are in ``answer_lead``.
"""

from __future__ import annotations

from verifiers.qualifier_words import APPROXIMATE_WORDS, BOUND_WORDS, MAYBE_WORDS


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Copulas and committing verbs after which a number is what the sentence states.
COMMIT_WORDS = _words(
    """
    is are was were be been being am equals equal equaling equalling makes make made
    gives give gave giving get gets got getting obtain obtains obtained yields yield yielding
    becomes become became has have had having need needs needed take takes took costs cost
    find finds found remain remains leaves leave left total totals totaling totalling sum
    sums of earns earned earn pays paid pay spends spent sells sold buys bought saves saved
    weighs weighed holds held contains contained owes owed receives received collects
    collected uses used eats ate scores scored wins won walks walked runs ran drives drove
    reads bakes baked picks picked catches caught produces produced requires required
    comes came adds added answer answered result so thus hence therefore conclude concludes
    by with
    es est ist lautet lauten sind son sont são sono é è är er je jest este adalah ialah là ay on és yra ir
    ni ja er het was vale равно равен равна это дорівнює є е је হল হলো
    """
)

# Words that may stand between a commit-word and the value: "gives us", "is therefore".
FILLERS = _words(
    """
    therefore thus so then just exactly indeed simply clearly hence now finally precisely
    still only altogether overall us me you them him her it all also really worth
    """
)

ARTICLES = _words("a an the")

# After these a short noun phrase may name the value: "has length 5", "gives us the roots".
NOUN_TAKERS = _words(
    "has have had having gives give gave giving get gets got getting obtain obtains obtained "
    "yields yield find finds found leaves leave with"
)

# The noun phrase between a noun-taker and the value holds no word of these closed classes
# (prepositions, degree and doubt words, negations): "can have at most 2" bounds the value.
NOT_NOUNS = _words(
    """
    about above across after against along almost among around at before below beneath
    beside besides between beyond but circa close despite down during except excluding few
    fewer from hardly in inside into less like least many more most much near nearly neither
    nor not never no off over past per plus minus roughly round since than through till to
    toward towards under underneath unlike until up upon versus via within without
    approximately barely scarcely maybe perhaps probably possibly likely some any several
    either whether if unless when whenever while whereas although though instead rather else
    otherwise other another wrong incorrect false guess estimate bound limit max maximum min
    minimum upper lower exceeding exceeds
    """
)

# A label that says it revises an earlier answer commits to the new one ("Actually, let me
# redo this: <answer>0</answer>"); the earlier one is read by the paragraph rule.
REVISION_WORDS = _words(
    "actually wait redo recount recounting recompute recomputing recalculate recalculating "
    "recheck rechecking correction corrected correcting edit update revised oops sorry mistake"
)

# Copulas that are English words too, read as copulas only right after an answer word.
SHORT_COPULAS = _words("to da de")

# What may link an answer clause to the sentence before it: "..., which means the answer is",
# "We conclude that the answer is", "This shows it is".
CLAUSE_LINKS = _words("which means meaning this gives we see shows follows conclude that it")

PREPOSITIONS = _words("of by with to as")

# A preposition commits the value after it only after a word that makes it name the amount:
# "a total of 18", "a lifespan of 10", "increased by 5", "is left with 7". After any other
# word it states a bound, a part or a comparison ("falls short of 18", "a maximum of 18",
# "in excess of 18", "shy of 18", "beat him by 5"): an allow-list, as every word here is.
PREPOSITION_HEADS = {
    "of": _words(
        """
        total sum worth amount number count value length lifespan distance height width depth
        area perimeter volume weight speed rate cost price profit income salary balance score
        average population capacity duration age budget savings revenue fee bill debt loss
        gain mass answer result solution product difference quotient remainder residue digit
        """
    ),
    "by": _words(
        """
        increased increases increase decreased decreases decrease grew grows grow rose rises
        rise fell falls fall dropped drops drop reduced reduces reduce raised raises raise
        lowered lowers lower went goes go up down given changed changes
        """
    ),
    "with": _words("left leaves leave leaving up started starts start ended ends end remains remained stayed"),
    # not "rounds to" (an approximation) nor "up to" (a bound) but after "adds up"
    "to": _words(
        """
        comes came come coming amounts amounted amount amounting simplifies simplified reduces
        reduced evaluates evaluated equivalent
        """
    ),
    # "It factors as (x-1)(x+1)", "can be written as 2^5": a form of the same value (not
    # "such as", an example, nor "as much as", a bound)
    "as": _words(
        """
        factors factored factor factorises factorizes factorised factorized written write writes
        rewritten rewrite rewrites expressed express expresses
        """
    ),
}

ADDS_UP = _words("adds added add adding sums summed sum totals totaled totalled")

# A joiner hands the lead to the ``before`` rule: "..., or \\boxed{1.25}" restates a value.
JOINERS = _words("or and that i.e ie namely")

# Words of an answer label ("Final answer:", "Total:", "Svar:"); every word of a label must
# be one of these (or an answer phrase of a script without word spaces).
LABEL_WORDS = _words(
    """
    answer answers final result results total solution ans sum conclusion output value the
    desired required requested needed sought best only unique exact
    my our correct short so thus therefore hence overall a amount cost price count number
    hmm wait actually recounting recount rechecking correction corrected edit update updated
    revised ok okay yes well now then note here is here's
    svar svaret vastaus antwoord odpowiedź odpowiedz jawaban jawabannya cevap cevabı risposta
    resposta respuesta réponse reponse antwort lösung ergebnis resultado risultato résultat
    wynik sonuç hasil tulos válasz odpověď răspuns rezultat ответ відповідь результат
    απάντηση đáp án kết quả câu trả lời la le il die der el o resposta odgovor odpověď odpoveď
    atsakymas atbilde jibu sagot ang jawapan javob отговорът отговор одговор উত্তর பதில்
    endgültige finale eindantwoord slutligt slutgiltigt lopullinen ostateczna konečná konečný
    végső végleges son cuối cùng akhir mwisho vastus lõplik galutinis galīgā konačni končni
    endergebnis final svaret respuesta răspuns окончательный остаточна відповідь
    endeligt endelig endelige konačan konačno atebiad terfynol erantzun finala huling
    итоговый итоговая итог окончателен финальный kesin nihai ostateczny definitivo definitiva
    правильный правильная правильна верный richtige richtig korrekte korrekt correcta correcto
    correcte corretta corretto correta correto poprawna poprawny doğru benar đúng
    right итого số सही अंतिम صحيح الصحيحة الصحيح النهائية
    """
)

# The word "answer" in the label languages: a clause "<label words> <answer noun> <copula>"
# is an answer clause in any of them.
ANSWER_NOUNS = _words(
    """
    answer answers result solution ans svar svaret vastaus antwoord odpowiedź odpowiedz
    jawaban jawabannya cevap cevabı risposta resposta respuesta réponse reponse antwort lösung
    ergebnis resultado risultato résultat wynik sonuç hasil tulos válasz odpověď răspuns
    rezultat ответ відповідь результат απάντηση odgovor odpoveď atsakymas atbilde jibu sagot
    jawapan javob отговорът отговор одговор উত্তর பதில் eindantwoord endergebnis lời án
    """
)

# Answer words alone commit ("Svar 7", "The answer \\boxed{5}").
ANSWER_WORDS = LABEL_WORDS - _words("a the la le il die der el o my our correct short value")

# A sentence opener before the answer's own part (before its last comma) is free prose
# ("Since the question asks for the largest value, our answer is"), except for what
# qualifies a statement whatever follows it: doubt, falsity, approximation, a scenario, and
# any adverb in -ly but the few that only order or conclude ("Probably,", "Incorrectly,",
# "Roughly speaking,", "In the worst case,", "Usually,"). Other scripts' words of these kinds
# are the qualifier lists' (``verifiers.qualifier_words``); conditions ("If n is odd,",
# "Equality occurs when ...,") are the condition rule's (``verifiers.answer_sentence``).
OPENER_QUALIFIERS = _words(
    """
    maybe perhaps wrong wrongly incorrect false approximate approx about around circa roughly
    nearly almost otherwise usually typically generally often sometimes theory theoretically
    worst best far estimate estimated guess guessing rounded rounding approximating ish might
    could may unless assuming suppose supposing provided most ballpark
    hunch gut feeling intuition impression suspicion bet sure certain confident mistaken
    unsure uncertain typical estimating ballparking eyeballing eyeball guesstimating guesstimate
    crude loose loosely generous grob sch\u00e4tzt sch\u00e4tzen
    arredondando arredondarmos arredondado redondeando redondeado arrondi arrondissant iikot
    """
)

LY_OK = _words(
    """
    finally clearly consequently accordingly lastly ultimately similarly equivalently
    explicitly formally simply only really directly exactly precisely immediately
    respectively altogether namely hence firstly secondly thirdly additionally obviously
    evidently trivially easily quickly readily symmetrically analogously conversely
    """
)

# One- and two-word openers that order, conclude or sum up ("So,", "In total,", "Yes,").
SHORT_OPENER_WORDS = _words(
    """
    in conclusion total summary short sum all together up summing symmetry simplifying
    checking combining substituting adding multiplying dividing subtracting solving counting
    next first second third also again here yes no ok okay well alright great good right
    indeed fact done fine sure computing calculating putting everything by oh ah hmm um note after
    these those them this it we the from using formula table end equation equations values
    plugging solving for at last with results step steps work above previous together
    interval notation form simplest lowest terms decimal fraction radical base words percent
    scientific standard expanded factored exact
    """
)

QUALIFIER_WORDS = frozenset(
    w.lower() for w in (*APPROXIMATE_WORDS, *BOUND_WORDS, *MAYBE_WORDS) if " " not in w
)

# Nouns and adverbs of doubt in the answer's own clause ("My hunch is", "Probably it is").
DOUBT_WORDS = (OPENER_QUALIFIERS - _words("best about around most far")) | QUALIFIER_WORDS | _words(
    "hunch guess guesses feeling estimate bet intuition impression belief suspicion gut"
)

# Verbs of belief before an answer clause ("Wait, I think the answer is 5").
BELIEF_WORDS = _words("think believe suppose guess feel assume hope doubt reckon suspect")

DOUBT_OR_BELIEF = DOUBT_WORDS | BELIEF_WORDS

# In the answer's own clause, a verb of belief or report governs it ("He thinks he has 18.").
OWN_DOUBT_WORDS = DOUBT_WORDS | _words(
    """
    think thinks thought believe believes believed suppose supposes supposed guessed assume
    assumes assumed hope hopes hoped doubt doubts doubted reckon reckons suspect suspects
    suspected claim claims claimed wish wishes wished imagine imagines imagined pretend
    pretends pretended says said tells told insists insisted argues argued
    suggested suggests proposed proposes
    candidate candidates example examples attempt attempts guess guesses bound bounds
    estimate estimates mistake mistakes
    """
)

# Adverbs in "-ly" that may stand right before the committing word ("She only has 18",
# "It finally costs 18"): the openers' allow-list and a few more. Any other ("hardly",
# "barely", "scarcely", "approximately") qualifies the verb; nouns in "-ly" are subjects.
PLAIN_LY_WORDS = LY_OK | _words(
    """
    actually currently initially originally eventually therefore daily weekly monthly yearly
    hourly nightly quarterly biweekly family families supply ally jelly belly lily rally reply
    bully assembly butterfly fly anomaly monopoly
    """
)

# Auxiliaries that may stand between such an adverb and the verb ("She hardly will have 18").
AUXILIARIES = _words("will would can could shall should must may might does did do to")

OBJECT_PRONOUNS = _words("us them him her me you it")

# "So", "therefore", "hence" in the languages a policy writes: they conclude, as "So," does.
CONNECTIVE_WORDS = _words(
    """
    deci kwa hiyo portanto logo ent\u00e3o quindi dunque perci\u00f2 pertanto donc ainsi alors dus daarom
    daher somit folglich deshalb also zatem wi\u0119c tedy tak\u017ee proto tudi\u017e tehát ezért jadi maka
    oleh karena itu sehingga dolay\u0131s\u0131yla bu nedenle yani entonces por lo tanto consiguiente as\u00ed
    allts\u00e5 d\u00e4rf\u00f6r s\u00e5 derfor difor alts\u00e5 siis joten niin siksi kaya samakatuwid dakle zato stoga
    prin urmare v\u00ec v\u1eady do \u0111\u00f3 n\u00ean \u03b5\u03c0\u03bf\u03bc\u03ad\u03bd\u03c9\u03c2 \u03ac\u03c1\u03b1
    \u043f\u043e\u044d\u0442\u043e\u043c\u0443 \u0438\u0442\u0430\u043a \u0441\u043b\u0435\u0434\u043e\u0432\u0430\u0442\u0435\u043b\u044c\u043d\u043e
    \u0442\u0430\u043a\u0438\u043c \u043e\u0431\u0440\u0430\u0437\u043e\u043c \u043e\u0442\u0436\u0435 \u0442\u043e\u043c\u0443 \u0437\u0430\u0442\u043e\u0432\u0430 \u05dc\u05db\u05df
    \u0644\u0630\u0644\u0643 \u0625\u0630\u0646 \u0644\u0630\u0627 \u0628\u0627\u0644\u062a\u0627\u0644\u064a
    \u0907\u0938\u0932\u093f\u090f \u0905\u0924\u0903 \u09a4\u09be\u0987 \u0985\u09a4\u098f\u09ac
    \u0e14\u0e31\u0e07\u0e19\u0e31\u0e49\u0e19 \u067e\u0633 \u0628\u0646\u0627\u0628\u0631\u0627\u06cc\u0646
    """
)

SHORT_OPENERS = (SHORT_OPENER_WORDS | LABEL_WORDS | FILLERS | LY_OK | CLAUSE_LINKS | REVISION_WORDS
                  | CONNECTIVE_WORDS)
