"""Property tests of the text rewards, written from the public API and the invariants only.

An RL policy searches the whole space of completions for anything that pays 1.0 without
being right, so the generators (``tests/reward_grammar.py``) compose completions from
grammars (commitment form x joiner x alternative value x hidden wrapper x position x number
format) and each property asserts, for every case it draws:

- soundness: a completion that offers a value other than the gold (two values, a hedge, a
  negation, a comparison, a value hidden in markup that does not render) is never paid 1.0;
- completeness: the gold in an ordinary, unambiguous dressing is paid 1.0.

Forms that are genuinely ambiguous (``The answer is 5, not 6.``) appear only in the
soundness direction, never as a completeness requirement. Time and crashes:
``tests/test_reward_time.py``. To see every violation grouped by class instead of the first
one per property: ``python tests/reward_census.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from hypothesis import given

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reward_grammar import PROPERTIES, Case, Property, profile, violation  # noqa: E402


def _property_test(prop: Property) -> Callable[..., None]:
    @profile(prop.examples)
    @given(case=prop.strategy)
    def test(case: Case) -> None:
        problem = violation(prop, case)
        assert problem is None, problem

    test.__name__ = test.__qualname__ = f"test_{prop.name}"
    test.__doc__ = f"{prop.verifier}: every generated case is scored as its label says."
    return test


for _prop in PROPERTIES:
    globals()[f"test_{_prop.name}"] = _property_test(_prop)
