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

import numbers
from collections.abc import Collection, Sequence
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


def encodable(text: str) -> str:
    r"""``text`` with any lone surrogate written as a ``\udXXX`` escape, so it is UTF-8
    encodable (a tokenizer can take it) and inside ``UnicodeText``.

    Example:
        >>> encodable("ok ✓"), encodable("bad \ud800")
        ('ok ✓', 'bad \\ud800')
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


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
                 max_total_chars: int | None = None,
                 seed: int | np.random.Generator | None = None):
        if max_total_chars is not None and max_total_chars < 0:
            raise ValueError(f"ChatMessages needs max_total_chars >= 0 or None, got "
                             f"{max_total_chars}")
        self.max_total_chars = max_total_chars
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

    @property
    def shared_memory_bytes(self) -> int:
        """Bytes of one sub-env's slot in ``AsyncVectorEnv``'s shared memory
        (``envs.vector_memory``): every character as 4 UTF-8 bytes, plus room for the
        pickle framing, roles and short extra keys of each message."""
        chars = self.max_total_chars
        if chars is None:
            chars = self.max_messages * self.content.max_length
        return 64 + 4 * chars + 256 * self.max_messages

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
        if self.max_total_chars is not None:
            return sum(len(m["content"]) for m in x) <= self.max_total_chars
        return True

    def __repr__(self) -> str:
        return (f"ChatMessages(min_messages={self.min_messages}, "
                f"max_messages={self.max_messages}, roles={self.roles})")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ChatMessages) and self.roles == other.roles
                and self.max_total_chars == other.max_total_chars
                and self.min_messages == other.min_messages
                and self.max_messages == other.max_messages and self.content == other.content)

    __hash__ = None  # type: ignore[assignment]


class EpisodeOver(gymnasium.error.ResetNeeded, RuntimeError):
    """``step`` was called when no episode is running: before the first ``reset``, after the
    episode ended, or after a ``reset`` that raised. The message says which; call ``reset``.

    A ``gymnasium.error.ResetNeeded``, the error Gymnasium's ``OrderEnforcing`` wrapper
    raises for a step before reset, so one ``except`` covers wrapped and bare envs.
    """


def show(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters, so an error quoting a 1 MB argument stays
    one readable line."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def check_int(name: str, value: Any, *, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """``value`` as an ``int`` within the bounds, else an error naming ``name``.

    ``bool`` is refused (``max_turns=True`` is a mistake, not 1); NumPy integers are
    accepted.

    Example:
        >>> check_int("max_turns", 3, minimum=1)
        3
        >>> try:
        ...     check_int("max_turns", 2.5, minimum=1)
        ... except TypeError as err:
        ...     print(err)
        max_turns must be an int, got 2.5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {show(value)}")
    value = int(value)
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return value


def check_discount(name: str, value: Any) -> float:
    """``value`` as a ``float`` in (0, 1], else an error naming ``name`` (NaN is refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number in (0, 1], got {show(value)}")
    if not 0.0 < value <= 1.0:
        raise ValueError(f"{name} must be in (0, 1], got {value}")
    return float(value)


class TextEnv(gymnasium.Env[list, str]):
    """Base class of every text environment: chat messages in, model text out.

    Subclasses implement two hooks and get seeding, limits, the transcript and rendering:

    - ``_start(options) -> list[dict]``: pick the episode (use ``self.np_random``, already
      seeded by ``reset``) and return the prompt messages.
    - ``_respond(text) -> (messages, reward, terminated, info)``: react to the model's text.

    The base class appends the model's text to ``self.messages`` as an assistant message
    before calling ``_respond``, and ends the episode as *truncated* (calling
    ``_on_truncate`` for the final reward and info) when ``max_turns`` model turns are used
    up without the env terminating it, or when the conversation grows past ``max_chars``
    characters. An action that takes the conversation past ``max_chars`` is not evaluated
    at all (``_respond`` is not called), so a runaway 1 MB completion costs no parsing,
    scoring or sandbox time.

    Misuse raises: an action that is not a ``str`` (``TypeError``: a caller's bug, such as
    passing the message list or undecoded bytes, that must not be trained on as if the
    model had failed), ``step`` with no episode running (``EpisodeOver``), an ``options``
    key the env does not know (``ValueError``, when the env declares ``reset_options``).
    Any ``str``, however odd (empty, a megabyte, control characters), is a completion and
    never raises.

    Message contents the env returns are made UTF-8 encodable (``encodable``), so
    observations stay inside ``observation_space`` even when a reply quotes odd model
    output.

    Every info dict carries ``turn`` (model turns so far); the final one also carries
    ``truncated`` and ``correct`` (and ``truncated_by``, ``"max_turns"`` or
    ``"max_chars"``, when truncated), and single-turn task envs add ``rubric`` (the
    breakdown).
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

    # The keys ``reset(options=...)`` accepts; ``None`` accepts any. A typo such as
    # ``{"rowid": 3}`` would otherwise be ignored silently and give a random episode.
    reset_options: Collection[str] | None = None

    def __init__(self, *, max_turns: int = 1, max_chars: int = 100_000,
                 render_mode: str | None = None):
        max_turns = check_int("max_turns", max_turns, minimum=1)
        max_chars = check_int("max_chars", max_chars, minimum=1)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {show(render_mode)}")
        self.max_turns = max_turns
        self.max_chars = max_chars
        self.render_mode = render_mode
        # A conversation is cut at max_chars characters in all, so no observation holds more
        # (which bounds its slot in AsyncVectorEnv's shared memory).
        self.observation_space = ChatMessages(max_chars=max_chars, max_total_chars=max_chars)
        self.action_space = UnicodeText(max_chars)
        self.messages: list[dict[str, str]] = []
        self.turn = 0
        # Why step() may not run now; None while an episode is running.
        self._not_running: str | None = "step() was called before reset(); call reset() first"

    # ------------------------------------------------------------------ hooks

    def _start(self, options: dict[str, Any]) -> list[dict[str, str]]:
        raise NotImplementedError(f"{type(self).__name__} must implement _start(options) "
                                  "(TextEnv is a base class)")

    def _respond(self, text: str) -> tuple[list[dict[str, str]], float, bool, dict[str, Any]]:
        raise NotImplementedError(f"{type(self).__name__} must implement _respond(text) "
                                  "(TextEnv is a base class)")

    def _on_truncate(self) -> tuple[float, dict[str, Any]]:
        """Final reward and info when the episode runs out of turns or characters."""
        return 0.0, {"correct": False, "reason": "truncated"}

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[list[dict[str, str]], dict]:
        # Until _start succeeds there is no episode: a step after a reset that raised must
        # not run on the previous episode's row or secret (or on None).
        self._not_running = "the last reset() raised an exception; call reset() again"
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}")
        options = dict(options or {})
        if self.reset_options is not None:
            unknown = [key for key in options if key not in self.reset_options]
            if unknown:
                accepted = ", ".join(map(repr, sorted(self.reset_options))) or "none"
                raise ValueError(f"unknown reset option {show(unknown[0])} for "
                                 f"{type(self).__name__}; accepted options: {accepted}")
        super().reset(seed=seed)
        self.turn = 0
        self.messages = []
        prompt = self._clean(self._start(options))
        self.messages = [dict(m) for m in prompt]
        self._not_running = None
        return prompt, {"turn": 0}

    def step(self, action: str) -> tuple[list[dict[str, str]], float, bool, bool, dict]:
        if self._not_running is not None:
            raise EpisodeOver(self._not_running)
        if not isinstance(action, str):
            hint = ("; pass the assistant message's content, not a message list"
                    if isinstance(action, list | tuple | dict) else
                    "; decode the tokens to text first" if isinstance(action, bytes) else "")
            raise TypeError(
                f"action must be the model's text (str), got {type(action).__name__}{hint}")
        self.turn += 1
        self.messages.append({"role": "assistant", "content": action})
        truncated_by = None
        if self._chars() > self.max_chars:
            reply, reward, terminated, info = [], 0.0, False, {}
            truncated_by = "max_chars"
        else:
            reply, reward, terminated, info = self._respond(action)
            reply = self._clean(reply)
            info = dict(info)
            if not terminated and self.turn >= self.max_turns:
                truncated_by = "max_turns"
            elif not terminated and self._chars(reply) > self.max_chars:
                truncated_by = "max_chars"
        truncated = truncated_by is not None
        if truncated:
            reward, extra = self._on_truncate()
            info.update(extra, truncated_by=truncated_by)
            reply = []  # nobody will read a reply after the last turn
        self.messages.extend(dict(m) for m in reply)
        info["turn"] = self.turn
        if terminated or truncated:
            self._not_running = "the episode has ended; call reset() before step()"
            info["truncated"] = truncated
            info.setdefault("correct", False)
        return reply, float(reward), bool(terminated), truncated, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return "\n".join(f"[{m['role']}] {m['content']}" for m in self.messages)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _clean(messages: Sequence[dict[str, str]]) -> list[dict[str, str]]:
        # Env text can quote the model's program (a code env's feedback repeats an exception
        # message the candidate built from "\ud800"); a lone surrogate there would put the
        # observation outside its space and break the tokenizer that encodes the next prompt.
        return [{k: encodable(v) if isinstance(v, str) else v for k, v in m.items()}
                for m in messages]

    def _chars(self, pending: Sequence[dict[str, str]] = ()) -> int:
        return sum(len(m["content"]) for m in [*self.messages, *pending])
