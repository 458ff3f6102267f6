"""Rule-based rewards for language-model completions (pure Python, no torch).

Importing the package first checks that no other distribution has installed files into it
(``verifiers.name_clash``: PyPI's ``verifiers`` uses the same top-level name).
"""

import os as _os

from verifiers import name_clash as _name_clash

_name_clash.check(_os.path.dirname(__file__))
