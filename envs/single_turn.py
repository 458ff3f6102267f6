"""Any task as a one-step environment: the prompt is a row, the action is scored by the rubric.

Example:
    >>> env = SingleTurnEnv("arithmetic", split="test")   # doctest: +SKIP
    >>> prompt, info = env.reset(seed=0)                   # doctest: +SKIP
    >>> _, reward, terminated, truncated, info = env.step("#### 4")  # doctest: +SKIP
    >>> terminated, sorted(info["rubric"])                 # doctest: +SKIP
    (True, ['accuracy', 'format'])
"""

from __future__ import annotations

import numbers
import os
import threading
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from envs.base import TextEnv, check_int, show

# Generated tasks are endless, so rows are loaded up to this many; every shipped file-backed
# split (GSM8K train: 7,473) fits.
DEFAULT_ROW_LIMIT = 10_000

_cache_lock = threading.Lock()
_task_cache: dict[tuple, Any] = {}
_rows_cache: dict[tuple, list] = {}
_task_refs: dict[tuple, weakref.ref] = {}


def load_task(name: str, task_kwargs: Mapping[str, Any] | None = None) -> Any:
    """``tasks.get(name, **task_kwargs)``, built once per process (envs are made per episode).

    Example:
        >>> load_task("arithmetic") is load_task("arithmetic")   # doctest: +SKIP
        True
    """
    import tasks

    key = (name, repr(sorted((task_kwargs or {}).items())))
    with _cache_lock:
        if key not in _task_cache:
            _task_cache[key] = tasks.get(name, **dict(task_kwargs or {}))
        return _task_cache[key]


def _object_key(task: Any) -> tuple | None:
    """A cache key for a task object that lives as long as the object (``None``: not
    cacheable), so a rollout that makes an env per episode loads the rows once."""
    try:
        ref = weakref.ref(task)
    except TypeError:
        return None
    key = ("object", id(task))
    with _cache_lock:
        known = _task_refs.get(key)
        if known is None or known() is not task:  # a new object reusing a dead one's id
            _task_refs[key] = ref
            for cached in [k for k in _rows_cache if k[:2] == key]:
                del _rows_cache[cached]
    return key


def load_rows(task: Any, split: str, *, seed: int, limit: int | None, path: str | None,
              cache_key: tuple | None) -> list:
    """The task's rows, cached under ``cache_key`` (``None``: not cached)."""
    # A datasets object as path is not cached: it may not hash, and a key by id() could
    # outlive it and serve its rows to a new object at the same address.
    if path is not None and not isinstance(path, str | os.PathLike):
        cache_key = None
    # The data location is part of the key: the same task read after $RLVR_DATA_DIR changes
    # (in one process) must not be served the rows of the old folder.
    key = (None if cache_key is None
           else (*cache_key, split, seed, limit, path, os.environ.get("RLVR_DATA_DIR")))
    with _cache_lock:
        if key is not None and key in _rows_cache:
            return _rows_cache[key]
    kwargs: dict[str, Any] = {"seed": seed, "limit": limit}
    if path is not None:
        kwargs["path"] = path
    rows = list(task.rows(split, **kwargs))
    if not rows:
        raise ValueError(f"task {getattr(task, 'name', task)!r} has no rows in split {split!r}")
    if key is not None:
        with _cache_lock:
            _rows_cache.setdefault(key, rows)
    return rows


def _factory_module(name: str) -> str | None:
    """The module whose import registers task ``name``, when it is not a built-in (a copy of
    the env in a new process has to import it again); ``None`` for built-ins."""
    from tasks import registry

    if name in registry._BUILTIN or ":" in name:
        return None  # built-ins import themselves; "module:factory" names carry the module
    module = getattr(registry.factory(name), "__module__", None)
    return module if module and module != "__main__" else None


def score_info(score: Any) -> tuple[float, dict[str, Any]]:
    """A ``RubricScore`` as the env's reward and info (``rubric``, ``reasons``, ``errors``,
    ``correct``; ``no_signal`` when the total is ``None``).

    ``correct`` is the ``accuracy`` (or ``correct``) entry of the breakdown when the rubric
    has one, else whether the total reached 1.
    """
    total = getattr(score, "total", None)
    breakdown = {str(k): (None if v is None else float(v))
                 for k, v in dict(getattr(score, "breakdown", {}) or {}).items()}
    reasons = {str(k): str(v) for k, v in dict(getattr(score, "reasons", {}) or {}).items()}
    errors = [str(e) for e in (getattr(score, "errors", ()) or ())]
    key = next((k for k in ("accuracy", "correct") if k in breakdown), None)
    if key is not None:
        correct = breakdown[key] is not None and breakdown[key] >= 1.0
    else:
        correct = total is not None and float(total) >= 1.0
    info: dict[str, Any] = {"rubric": breakdown, "reasons": reasons, "errors": errors,
                            "correct": bool(correct)}
    if total is None:
        info["no_signal"] = True
        return 0.0, info
    return float(total), info


class TaskEnvMixin:
    """Row selection shared by the envs that wrap a task (single-turn, tools, code feedback)."""

    task: Any
    rows: list
    row: Any
    reset_options = frozenset({"row", "row_id"})

    def _init_task(self, task: Any, *, split: str | None, task_kwargs: Mapping[str, Any] | None,
                   task_seed: int, limit: int | None, path: str | None) -> None:
        # Rows load lazily on the first reset(), so a bad value here would otherwise fail
        # there, deep inside the task's loader ("Stop argument for islice()...").
        if task_kwargs is not None and not isinstance(task_kwargs, Mapping):
            raise TypeError(f"task_kwargs must be a mapping or None, got {show(task_kwargs)}")
        task_seed = check_int("task_seed", task_seed)
        if limit is not None:
            limit = check_int("limit", limit, minimum=1)
        if path is not None and (isinstance(path, bytes)
                                 or not isinstance(path, str | os.PathLike | Mapping)
                                 and not hasattr(path, "__iter__")):
            raise TypeError(f"path must be a file or folder (str or os.PathLike), a datasets "
                            f"object, or None, got {show(path)}")
        self._task_spec: tuple[str, dict, str | None] | None = None
        if isinstance(task, str):
            self.task = load_task(task, task_kwargs)
            cache_key: tuple | None = ("name", task, repr(sorted((task_kwargs or {}).items())))
            self._task_spec = (task, dict(task_kwargs or {}), _factory_module(task))
        else:
            if task_kwargs:
                raise ValueError("task_kwargs only applies when task is given by name")
            for attr in ("rows", "score"):
                if not callable(getattr(task, attr, None)):
                    raise TypeError(f"task must be a task name or have a {attr}() method, "
                                    f"got {type(task).__name__}")
            self.task = task
            cache_key = _object_key(task)
        splits = getattr(self.task, "splits", None)
        if split is None:  # train when there is one (math500 and humaneval only have test)
            split = "train" if not splits or "train" in splits else splits[0]
        if splits and split not in splits:
            raise ValueError(f"task {getattr(self.task, 'name', '?')!r} has no split {split!r} "
                             f"(splits: {tuple(splits)})")
        self.split = split
        self._row_args = {"seed": task_seed, "limit": limit, "path": path,
                          "cache_key": cache_key}
        self._rows: list | None = None
        self.row = None

    # A task built by name pickles as its name (its factory's closures would not pickle), so
    # the env crosses process boundaries (AsyncVectorEnv with "spawn", Ray, multiprocessing).
    # The copy rebuilds the task, first importing the module that registered it when that
    # is the user's own, and reloads its rows on first use.
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        if state.get("_task_spec") is not None:
            state["task"] = None
            state["_rows"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        spec = state.get("_task_spec")
        if spec is not None:
            name, kwargs, module = spec
            if module is not None:
                from tasks.registry import import_user_module

                import_user_module(module)
            self.task = load_task(name, kwargs)

    @property
    def rows(self) -> list:  # loaded on first reset: making an env must stay cheap
        if self._rows is None:
            self._rows = load_rows(self.task, self.split, **self._row_args)
        return self._rows

    def _pick_row(self, options: Mapping[str, Any]) -> Any:
        rows = self.rows
        if "row" in options and "row_id" in options:
            raise ValueError("options may hold 'row' or 'row_id', not both")
        if "row" in options:
            index = options["row"]
            # bool is an int subclass, but {"row": True} is a mistake, not row 1.
            if (isinstance(index, bool) or not isinstance(index, numbers.Integral)
                    or not -len(rows) <= index < len(rows)):
                raise ValueError(f"options['row'] must be an int index into {len(rows)} rows, "
                                 f"got {show(index)}")
            return rows[int(index)]
        if "row_id" in options:
            for row in rows:
                if row.id == options["row_id"]:
                    return row
            raise ValueError(f"options['row_id'] {show(options['row_id'])} is not in split "
                             f"{self.split!r}")
        return rows[int(self.np_random.integers(len(rows)))]  # type: ignore[attr-defined]


def row_messages(row: Any) -> list[dict[str, str]]:
    prompt: Sequence[Mapping[str, str]] = row.prompt
    return [{"role": str(m["role"]), "content": str(m["content"])} for m in prompt]


class SingleTurnEnv(TaskEnvMixin, TextEnv):
    """One row of a task, one answer, one rubric score.

    ## Description
    Wraps any task (``tasks.get(name)``): ``reset`` picks a row, the model answers once, the
    task's rubric scores the answer and the episode ends.

    ## Action Space
    ``UnicodeText``: the model's completion.

    ## Observation Space
    ``ChatMessages``: the row's prompt after ``reset``; ``[]`` after the step.

    ## Rewards
    The rubric's total (``task.score(row, completion).total``), in [0, 1]; ``info`` holds
    the breakdown (``rubric``), ``reasons``, ``errors``, ``correct`` and ``row_id``. A total
    of ``None`` (no signal) is reward 0 with ``info["no_signal"] = True``.

    ## Starting State
    A row drawn uniformly from the split with the env's seeded generator;
    ``options={"row": i}`` or ``{"row_id": "..."}`` picks one.

    ## Episode End
    Always terminated after one step, or truncated (reward 0, the answer is not scored) when
    the prompt and the answer together are longer than ``max_chars`` characters.

    ## Arguments
    ``task`` (a name for ``tasks.get`` or a task object), ``split`` (default: ``"train"``,
    or the task's first split when it has no train split),
    ``task_kwargs`` (for ``tasks.get``), ``task_seed`` (the seed passed to ``task.rows``:
    which generated rows exist), ``limit`` (rows loaded, default 10,000), ``path`` (a local
    data file), ``max_chars``, ``render_mode`` (``"ansi"``).
    """

    def __init__(self, task: Any, *, split: str | None = None,
                 task_kwargs: Mapping[str, Any] | None = None, task_seed: int = 0,
                 limit: int | None = DEFAULT_ROW_LIMIT, path: str | None = None,
                 max_chars: int = 100_000, render_mode: str | None = None):
        super().__init__(max_turns=1, max_chars=max_chars, render_mode=render_mode)
        self._init_task(task, split=split, task_kwargs=task_kwargs, task_seed=task_seed,
                        limit=limit, path=path)

    def _start(self, options: dict[str, Any]) -> list[dict[str, str]]:
        self.row = self._pick_row(options)
        return row_messages(self.row)

    def _respond(self, text: str) -> tuple[list[dict[str, str]], float, bool, dict[str, Any]]:
        reward, info = score_info(self.task.score(self.row, text))
        info["row_id"] = self.row.id
        return [], reward, True, info

    def _on_truncate(self) -> tuple[float, dict[str, Any]]:
        return 0.0, {"correct": False, "reason": "truncated", "row_id": self.row.id}
