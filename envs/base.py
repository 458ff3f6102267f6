"""The text-environment base class and the spaces it uses.

An LLM environment is an ordinary ``gymnasium.Env`` here: the observation is the list of chat
messages the env adds (the prompt after ``reset``, the env's reply after ``step``) and the
action is the model's text. ``gymnasium.spaces.Text`` does not fit (its default charset is
ASCII letters and digits, so ``"What is 2 + 2?"`` is not in it), hence the two spaces below,
which accept any Unicode text and still sample, seed and check like the built-in spaces, so
``gymnasium.utils.env_checker.check_env`` passes.

Example:
    >>> space = UnicodeText(max_length=20, seed=0)
    >>> "Größe: 2 + 2 = 4 ✓" in space, 3 in space
    (True, False)
    >>> ChatMessages(max_messages=2).contains([{"role": "user", "content": "hi"}])
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

ROLES = ("system", "user", "assistant", "tool")

# Code-point ranges `sample` draws from: printable ASCII and whitespace (most of real text),
# Latin-1 letters, Greek, CJK and emoji (so a sampled action exercises multi-byte UTF-8).
_SAMPLE_RANGES = ((0x20, 0x7E), (0xC0, 0xFF), (0x391, 0x3C9), (0x4E00, 0x4E2F), (0x1F600, 0x1F64F))
_SAMPLE_WEIGHTS = np.array([0.8, 0.05, 0.05, 0.05, 0.05])


def _is_valid_text(x: Any) -> bool:
    if not isinstance(x, str):
        return False
    try:
        # Lone surrogates are legal in a Python str but cannot be encoded, so no tokenizer
        # could take them: keep them out of the space.
        x.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class UnicodeText(spaces.Space[str]):
    """Any UTF-8 encodable string with ``min_length <= len(x) <= max_length`` characters.

    Example:
        >>> space = UnicodeText(max_length=8, seed=3)
        >>> sample = space.sample()
        >>> isinstance(sample, str) and len(sample) <= 8 and sample in space
        True
        >>> "x" * 9 in space, "\\ud800" in space
        (False, False)
    """

    def __init__(self, max_length: int = 100_000, *, min_length: int = 0,
                 seed: int | np.random.Generator | None = None):
        if not 0 <= min_length <= max_length:
            raise ValueError(
                f"UnicodeText needs 0 <= min_length <= max_length, got min_length={min_length}, "
                f"max_length={max_length}")
        self.min_length = int(min_length)
        self.max_length = int(max_length)
        super().__init__(dtype=str, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        if mask is not None or probability is not None:
            raise ValueError("UnicodeText.sample takes no mask or probability")
        # Short samples: a random action is for smoke tests, not for filling the context.
        high = min(self.max_length, max(self.min_length, 64))
        length = int(self.np_random.integers(self.min_length, high + 1))
        which = self.np_random.choice(len(_SAMPLE_RANGES), size=length, p=_SAMPLE_WEIGHTS)
        chars = [chr(int(self.np_random.integers(_SAMPLE_RANGES[k][0], _SAMPLE_RANGES[k][1] + 1)))
                 for k in which]
        return "".join(chars)

    def contains(self, x: Any) -> bool:
        return _is_valid_text(x) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"UnicodeText(min_length={self.min_length}, max_length={self.max_length})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, UnicodeText) and self.min_length == other.min_length
                and self.max_length == other.max_length)

    __hash__ = None  # type: ignore[assignment]  # mutable RNG inside, like gymnasium's spaces


class ChatMessages(spaces.Space[list]):
    """A list of chat messages ``{"role": ..., "content": ...}``.

    ``role`` must be one of ``roles`` and ``content`` a string in ``UnicodeText(max_chars)``;
    other keys are allowed when their values are strings (``"name"`` of a tool, for example).

    Example:
        >>> space = ChatMessages(max_messages=3, seed=0)
        >>> space.contains([{"role": "tool", "content": "4", "name": "calculator"}])
        True
        >>> space.contains([{"role": "robot", "content": "beep"}])
        False
        >>> all(m["role"] in ROLES for m in space.sample())
        True
    """

    def __init__(self, *, max_messages: int = 64, min_messages: int = 0,
                 max_chars: int = 100_000, roles: Sequence[str] = ROLES,
                 seed: int | np.random.Generator | None = None):
        if not 0 <= min_messages <= max_messages:
            raise ValueError(
                f"ChatMessages needs 0 <= min_messages <= max_messages, got "
                f"min_messages={min_messages}, max_messages={max_messages}")
        if not roles:
            raise ValueError("ChatMessages needs at least one role")
        self.min_messages = int(min_messages)
        self.max_messages = int(max_messages)
        self.roles = tuple(roles)
        self.content = UnicodeText(max_chars)
        super().__init__(dtype=object, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def seed(self, seed: int | None = None) -> int:
        used = super().seed(seed)
        # The content space draws from the same stream so one seed fixes every sample.
        self.content._np_random = self._np_random
        return used

    def sample(self, mask: Any = None, probability: Any = None) -> list[dict[str, str]]:
        if mask is not None or probability is not None:
            raise ValueError("ChatMessages.sample takes no mask or probability")
        rng = self.np_random
        self.content._np_random = rng
        high = max(self.min_messages, min(self.max_messages, 4))  # keep samples small
        n = int(rng.integers(self.min_messages, high + 1))
        return [{"role": self.roles[int(rng.integers(len(self.roles)))],
                 "content": self.content.sample()} for _ in range(n)]

    def contains(self, x: Any) -> bool:
        if not isinstance(x, list | tuple):
            return False
        if not self.min_messages <= len(x) <= self.max_messages:
            return False
        for message in x:
            if not isinstance(message, dict) or message.get("role") not in self.roles:
                return False
            if message.get("content") not in self.content:
                return False
            if not all(isinstance(k, str) and isinstance(v, str) for k, v in message.items()):
                return False
        return True

    def __repr__(self) -> str:
        return (f"ChatMessages(min_messages={self.min_messages}, "
                f"max_messages={self.max_messages}, roles={self.roles})")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ChatMessages) and self.roles == other.roles
                and self.min_messages == other.min_messages
                and self.max_messages == other.max_messages and self.content == other.content)

    __hash__ = None  # type: ignore[assignment]


class EpisodeOver(RuntimeError):
    """``step`` was called on an episode that has already ended (call ``reset``)."""


class TextEnv(gymnasium.Env[list, str]):
    """Base class of every text environment: chat messages in, model text out.

    Subclasses implement two hooks and get seeding, limits, the transcript and rendering:

    - ``_start(options) -> list[dict]``: pick the episode (use ``self.np_random``, already
      seeded by ``reset``) and return the prompt messages.
    - ``_respond(text) -> (messages, reward, terminated, info)``: react to the model's text.

    The base class appends the model's text to ``self.messages`` as an assistant message
    before calling ``_respond``, ends the episode as *truncated* when ``max_turns`` model
    turns or ``max_chars`` characters of conversation are used up without the env
    terminating it (calling ``_on_truncate`` for the final reward and info), and rejects
    actions that are not strings.

    Every info dict carries ``turn`` (model turns so far); the final one also carries
    ``truncated`` and ``correct``, and single-turn task envs add ``rubric`` (the breakdown).
    A reward of "no signal" (an infrastructure failure, never the model's fault) is reported
    as reward 0.0 with ``info["no_signal"] = True``, which the rollout turns into ``None``.

    Arguments:
        max_turns: model turns before the episode is truncated.
        max_chars: characters of conversation (prompt, actions and replies) before the
            episode is truncated.
        render_mode: ``None`` or ``"ansi"`` (``render()`` returns the transcript).
    """

    # "ansi" rendering returns the transcript; the fps is nominal (text has no frame rate),
    # declared because Gymnasium's checker expects one with any render mode.
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, *, max_turns: int = 1, max_chars: int = 100_000,
                 render_mode: str | None = None):
        if max_turns < 1:
            raise ValueError(f"max_turns must be >= 1, got {max_turns}")
        if max_chars < 1:
            raise ValueError(f"max_chars must be >= 1, got {max_chars}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {render_mode!r}")
        self.max_turns = max_turns
        self.max_chars = max_chars
        self.render_mode = render_mode
        self.observation_space = ChatMessages(max_chars=max_chars)
        self.action_space = UnicodeText(max_chars)
        self.messages: list[dict[str, str]] = []
        self.turn = 0
        self._done = True

    # ------------------------------------------------------------------ hooks

    def _start(self, options: dict[str, Any]) -> list[dict[str, str]]:
        raise NotImplementedError

    def _respond(self, text: str) -> tuple[list[dict[str, str]], float, bool, dict[str, Any]]:
        raise NotImplementedError

    def _on_truncate(self) -> tuple[float, dict[str, Any]]:
        """Final reward and info when the episode runs out of turns or characters."""
        return 0.0, {"correct": False, "reason": "truncated"}

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[list[dict[str, str]], dict]:
        super().reset(seed=seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}")
        self.turn = 0
        self._done = False
        prompt = [dict(m) for m in self._start(dict(options or {}))]
        self.messages = [dict(m) for m in prompt]
        return prompt, {"turn": 0}

    def step(self, action: str) -> tuple[list[dict[str, str]], float, bool, bool, dict]:
        if self._done:
            raise EpisodeOver("the episode has ended; call reset() before step()")
        if not isinstance(action, str):
            raise TypeError(f"action must be the model's text (str), got {type(action).__name__}")
        self.turn += 1
        self.messages.append({"role": "assistant", "content": action})
        reply, reward, terminated, info = self._respond(action)
        reply = [dict(m) for m in reply]
        info = dict(info)
        truncated = False
        if not terminated and (self.turn >= self.max_turns or self._chars(reply) > self.max_chars):
            reward, extra = self._on_truncate()
            info.update(extra)
            truncated = True
            reply = []  # nobody will read a reply after the last turn
        self.messages.extend(dict(m) for m in reply)
        self._done = terminated or truncated
        info["turn"] = self.turn
        if self._done:
            info["truncated"] = truncated
            info.setdefault("correct", False)
        return reply, float(reward), bool(terminated), truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return "\n".join(f"[{m['role']}] {m['content']}" for m in self.messages)

    # ------------------------------------------------------------------ helpers

    def _chars(self, pending: Sequence[dict[str, str]] = ()) -> int:
        return sum(len(m["content"]) for m in [*self.messages, *pending])
