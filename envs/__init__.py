"""Gymnasium text environments: observation = the chat messages the env adds, action = the
model's text. Importing the package registers every task as ``rlvr/<task>-v0`` and the
multi-turn envs (``rlvr/guess-number-v0``, ``rlvr/calculator-v0``, ``rlvr/code-feedback-v0``,
``rlvr/tool-calculator-v0``, ``rlvr/tool-python-v0``, ``rlvr/tool-search-v0``: ``ToolEnv``).
``python -m envs probe NAME`` plays adversarial policies against any of them (``envs.probe``).

Example:
    >>> import envs, gymnasium
    >>> env = gymnasium.make("rlvr/guess-number-v0")
    >>> prompt, info = env.reset(seed=0)
    >>> prompt[-1]["role"]
    'user'
    >>> envs.make("guess-number").spec.id
    'rlvr/guess-number-v0'
"""

import tasks.verifiers_check  # noqa: F401 - first: one-line error if 'verifiers' is PyPI's
from envs.base import ChatMessages, EpisodeOver, TextEnv, UnicodeText
from envs.code_feedback import CodeFeedbackEnv
from envs.guess_number import GuessNumberEnv
from envs.registry import env_id, make, names, register_all
from envs.single_turn import SingleTurnEnv
from envs.tool_env import ToolEnv
from envs.tool_use import ToolUseEnv
from envs.vector_memory import ChatMessagesBatch  # registers AsyncVectorEnv's shared memory

register_all()

__all__ = [
    "ChatMessages",
    "ChatMessagesBatch",
    "CodeFeedbackEnv",
    "EpisodeOver",
    "GuessNumberEnv",
    "SingleTurnEnv",
    "ToolEnv",
    "ToolUseEnv",
    "TextEnv",
    "UnicodeText",
    "env_id",
    "make",
    "names",
    "register_all",
]
