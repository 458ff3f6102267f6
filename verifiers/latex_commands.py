r"""The LaTeX commands whose arguments render as plain text or math: the allow-list that
``verifiers.hidden_content`` reads LaTeX by (issue 30).

LaTeX has no closed set of command names, and a renderer's extensions can do anything with
an argument: show it as a tooltip only (``\mathtip``, ``\texttip``), show one of several
(``\toggle``, ``\mathchoice``), use it as a link target (``\href``), draw it over other
text (``\llap``, ``\smash``) or turn a code into a character (``\unicode{55}`` is 7). So a
command that is not listed here and takes a value as its argument (a brace group or one
token holding a digit, a number word or a box) makes what renders uncertain, and the
completion is refused. Listed: the commands of standard LaTeX, amsmath and MathJax that
typeset their arguments in place, and the symbols (a symbol takes no argument: a group
after it renders as a plain group). Forms that do not render are read elsewhere in
``verifiers.hidden_content`` (conditionals, definitions, colours, ``\phantom``, ...) and are
listed here only so that one form is read once.
"""

from __future__ import annotations

__all__ = ["RENDERING_COMMANDS"]

# Commands that typeset their arguments where they stand.
_WITH_ARGUMENTS = """
frac dfrac tfrac cfrac sfrac nicefrac genfrac sqrt root boxed fbox framebox binom dbinom tbinom
text textbf textit textrm textsf texttt textnormal textup textmd textsl textsc emph mbox hbox vbox
mathrm mathbf mathit mathsf mathtt mathcal mathbb mathfrak mathscr mathds mathnormal bold
boldsymbol bm pmb Bbb operatorname mathop mathbin mathrel mathord mathopen mathclose mathpunct
mathinner overline underline overrightarrow overleftarrow overleftrightarrow underrightarrow
underleftarrow underleftrightarrow vec hat widehat bar tilde widetilde dot ddot dddot check breve
acute grave mathring overbrace underbrace overset underset stackrel overarc wideparen overparen
underparen pmod bmod mod pod begin end cancel bcancel xcancel cancelto tag substack xrightarrow
xleftarrow xRightarrow xLeftarrow xleftrightarrow ensuremath multicolumn multirow cline
textsuperscript textsubscript SI si num qty unit ang ce pu intertext shortintertext section
subsection subsubsection paragraph textcircled
"""
# Symbols, delimiters, sizes and spacing: no argument of their own.
_SYMBOLS = """
alpha beta gamma Gamma delta Delta epsilon varepsilon zeta eta theta Theta vartheta iota kappa
varkappa lambda Lambda mu nu xi Xi pi Pi varpi rho varrho sigma Sigma varsigma tau upsilon Upsilon
phi Phi varphi chi psi Psi omega Omega digamma
cdot cdotp times div pm mp ast star circ bullet oplus ominus otimes oslash odot cap cup uplus sqcap
sqcup vee wedge lor land setminus smallsetminus wr diamond bigtriangleup bigtriangledown
triangleleft triangleright lhd rhd unlhd unrhd amalg dagger ddagger dag ddag
le leq ge geq lt gt ne neq approx sim simeq cong equiv propto parallel perp mid nmid subset
subseteq subsetneq supset supseteq supsetneq in notin ni ll gg leqslant geqslant leqq geqq prec
succ preceq succeq doteq models vdash dashv asymp bowtie smile frown lesssim gtrsim nless ngtr
nleq ngeq approxeq thicksim thickapprox
to gets rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow implies impliedby
iff mapsto longmapsto longrightarrow longleftarrow Longrightarrow Longleftarrow
longleftrightarrow Longleftrightarrow uparrow downarrow Uparrow Downarrow updownarrow nearrow
searrow swarrow nwarrow hookrightarrow hookleftarrow rightleftharpoons leftrightarrows
sin cos tan cot sec csc arcsin arccos arctan arccot sinh cosh tanh coth log ln lg exp max min
sup inf lim limsup liminf gcd lcm det dim ker deg arg Pr hom
sum prod coprod int iint iiint oint bigcup bigcap bigsqcup bigoplus bigotimes bigodot bigvee
bigwedge biguplus
infty partial nabla forall exists nexists emptyset varnothing angle measuredangle
sphericalangle triangle square Box blacksquare checkmark therefore because ldots cdots vdots
ddots dots dotsc dotsb dotsm dotsi hdots iddots hbar hslash ell Re Im aleph beth wp prime
backprime neg lnot not surd top bot flat sharp natural clubsuit diamondsuit heartsuit spadesuit
S P copyright pounds euro degree textdegree celsius qed qedhere QED bigstar circledcirc
lvert rvert lVert rVert vert Vert langle rangle lfloor rfloor lceil rceil lbrace rbrace lbrack
rbrack lparen rparen backslash left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl
biggr Biggl Biggr over atop choose brace brack
displaystyle textstyle scriptstyle scriptscriptstyle limits nolimits rm bf it sf tt cal
tiny scriptsize footnotesize small normalsize large Large LARGE huge Huge
quad qquad enspace thinspace medspace thickspace negthinspace negmedspace negthickspace hfill
vfill hss hspace vspace kern mkern hskip vskip mskip hglue vglue strut mathstrut null relax
allowbreak nobreak newline linebreak par noindent smallskip medskip bigskip
item hline notag nonumber displaylines cr arraystretch
"""
# Read by ``verifiers.hidden_forms``' own forms (a visible colour renders, the others hide).
_READ_ELSEWHERE = """
color textcolor colorbox phantom hphantom vphantom label class cssId style htmlStyle htmlClass
htmlId htmlData scalebox resizebox rotatebox reflectbox raisebox turnbox newcommand
renewcommand providecommand DeclareMathOperator newenvironment renewenvironment def gdef edef
xdef newif ifthenelse iffalse iftrue fi else
"""

RENDERING_COMMANDS: frozenset[str] = frozenset((_WITH_ARGUMENTS + _SYMBOLS + _READ_ELSEWHERE).split())
