"""Rule-based rewards for language-model completions (pure Python, no torch).

Importing the package first checks that no other distribution has installed files into it
(``verifiers.name_clash``: PyPI's ``verifiers`` uses the same top-level name); ``tasks``,
``envs`` and ``policy_opt`` check that the ``verifiers`` they import is this one
(``tasks.verifiers_check``), whichever install order put the other one first.
"""

import os as _os

# What tasks/envs/policy_opt look for (tasks.verifiers_check): the other project's package
# of the same name does not have it.
__rlvr_toolkit__ = True

from verifiers import name_clash as _name_clash

_name_clash.check(_os.path.dirname(__file__))
