"""Where a dataset task's records come from: an explicit path, the ``RLVR_DATA_DIR`` folder, or
the Hugging Face hub, in that order, and never anything else.

1. ``path=``: a file, a folder laid out like ``RLVR_DATA_DIR/<task>/``, a folder written by
   ``datasets``' ``save_to_disk``, or a ``datasets`` object (``Dataset``, ``DatasetDict``,
   ``IterableDataset``; a dict-like of split -> rows picks the split, a single dataset or
   file is used for every split, which a ``UserWarning`` says once). Used if given; a path
   that does not exist is an error, not a reason to look elsewhere.
2. ``$RLVR_DATA_DIR/<task>/``: a folder with one subfolder per task, e.g. ``gsm8k/train.jsonl``,
   ``math500/test.jsonl``, or a hub download's layout: ``gsm8k/main/train-00000-of-00001.parquet``,
   ``data/train-00000-of-00001.parquet``, ``main/train/0000.parquet`` (the hub's parquet
   export).
3. the hub, through ``datasets.load_dataset(hub_id, config, split=split)`` (needs network).
   Offline (``HF_HUB_OFFLINE=1``) or with no connection to the hub, and no cached copy, it
   is not asked at all, so the error below comes in about a second rather than after
   ``datasets``' ~30 s of retries (:mod:`tasks.hub`).

When none of them gives data, :class:`DataNotFound` names all three and why each failed. Bad
data raises :class:`DataError` naming the file, the line (or row index) and the field.

Files: ``.jsonl`` / ``.jsonl.gz`` (one object a line), ``.json`` (a list of objects),
``.parquet``, ``.csv`` (a header line), each read by ``datasets``' own loader
(``load_dataset("json" | "parquet" | "csv", data_files=...)``), so values keep their types
(a CSV column of numbers gives numbers). When a loader fails, the file is scanned for the
line at fault, so the error still names it; a field error names the line (JSON lines), the
item (a JSON list) or the row (parquet, CSV).

>>> import json, tempfile, os
>>> folder = tempfile.mkdtemp()
>>> with open(os.path.join(folder, "test.jsonl"), "w") as f:
...     _ = f.write(json.dumps({"question": "1+1?", "answer": "2"}) + "\\n")
>>> [r.field("answer") for r in DataSource("demo").records("test", path=folder)]
['2']
"""

from __future__ import annotations

import glob
import os
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from verifiers.records import (  # noqa: F401  (file reading lives below tasks)
    DataError,
    Record,
    _object,
    _short,
    read_records,
)

ENV_VAR = "RLVR_DATA_DIR"


class DataNotFound(FileNotFoundError):
    """No source gave data for the requested task and split."""


class HubUnavailable(ConnectionError):
    """The hub was not asked: offline mode, or no connection (see :mod:`tasks.hub`)."""


def _is_saved_dataset(folder: str) -> bool:
    """Whether ``folder`` was written by ``datasets``' ``save_to_disk``."""
    return any(os.path.isfile(os.path.join(folder, marker))
               for marker in ("dataset_dict.json", "state.json"))


def _load_from_disk(folder: str) -> Any:
    import datasets  # lazy: only users of saved datasets pay for it

    try:
        return datasets.load_from_disk(folder)
    except Exception as e:  # a damaged folder: datasets raises many kinds
        raise DataError(f"{folder}: cannot be read as a saved dataset "
                        f"({type(e).__name__}: {_short(str(e), 200)})") from None


def _is_dataset_object(obj: Any) -> bool:
    return not isinstance(obj, str | bytes | os.PathLike) and (
        isinstance(obj, Mapping) or hasattr(obj, "__iter__"))


_splits_read: dict[str, set[str]] = {}
_splits_lock = threading.Lock()


def _note_split(what: str, task: str, split: str) -> None:
    """Warn, once per source, when one file or dataset is read for a second split (an audit
    of a 5-row file otherwise reports 10/10 with no hint that train and test are the same
    rows). A single-split task reading its one file stays quiet."""
    with _splits_lock:
        seen = _splits_read.setdefault(what, set())
        first_repeat = len(seen) == 1 and split not in seen
        seen.add(split)
    if first_repeat:
        warnings.warn(
            f"task {task!r}: path={what} is one file/dataset, so splits {sorted(seen)} get the "
            "same rows; give a folder with one file per split, or a DatasetDict, to keep them "
            "apart",
            UserWarning,
            stacklevel=5,
        )


def _describe(data: Any) -> str:
    """A one-line name for a dataset object (its repr spans lines)."""
    try:
        size = f" of {len(data)} rows"
    except TypeError:  # an IterableDataset has no length
        size = ""
    return f"<{type(data).__name__}{size} at {id(data):#x}>"


def _load_hub(hub_id: str, config: str | None, split: str) -> Iterable[Mapping[str, Any]]:
    """The hub rows of one split (module-level so tests can replace it); raises
    :class:`HubUnavailable` within about a second when offline or without a connection,
    instead of ``datasets``' ~30 s of retries."""
    from tasks.hub import hub_blocked

    why = hub_blocked(hub_id)
    if why:
        raise HubUnavailable(why)
    import datasets  # lazy: importing datasets costs ~1 s and most users have local files

    return datasets.load_dataset(hub_id, config, split=split)


def default_patterns(split: str) -> tuple[str, ...]:
    """File names looked for in a task folder, first match wins (all shards of it are read)."""
    return (
        f"{split}.jsonl",
        f"{split}.jsonl.gz",
        f"{split}.json",
        f"{split}.parquet",
        f"{split}-*.parquet",
        f"{split}.csv",
        f"*/{split}.jsonl",
        f"*/{split}-*.parquet",
        f"*/{split}/*.parquet",
        f"{split}/*.parquet",
    )


@dataclass(frozen=True)
class DataSource:
    """The places a dataset task looks for its records.

    Arguments:
        task: the folder name under ``RLVR_DATA_DIR`` (usually the task name).
        hub_id, hub_config: the hub dataset, or ``None`` for local-only data.
        patterns: ``patterns(split) -> file name globs`` tried in a folder, in order, before
            :func:`default_patterns` (for datasets shipped as one file for all splits).
    """

    task: str
    hub_id: str | None = None
    hub_config: str | None = None
    patterns: Callable[[str], Sequence[str]] = field(default=lambda split: ())

    def records(self, split: str, path: Any = None) -> list[Record]:
        """The records of ``split`` from the first source that has them (see module doc)."""
        if path is not None:
            if _is_dataset_object(path):
                return self._from_dataset(path, split, what=_describe(path))
            return self._from_path(os.fspath(path), split)
        tried = ["1. path= argument: not given"]
        env = os.environ.get(ENV_VAR)
        if not env:
            tried.append(f"2. ${ENV_VAR}: not set")
        else:
            folder = os.path.join(env, self.task)
            if not os.path.isdir(folder):
                tried.append(f"2. ${ENV_VAR}={env}: no folder {folder}")
            else:
                files = self._files(folder, split)
                if files:
                    return [r for f in files for r in read_records(f)]
                tried.append(
                    f"2. ${ENV_VAR}={env}: no file for split {split!r} in {folder} "
                    f"(looked for {', '.join(self._patterns(split))})"
                )
        if self.hub_id is None:
            tried.append("3. hub: this task has no hub dataset")
        else:
            call = f"datasets.load_dataset({self.hub_id!r}, {self.hub_config!r}, split={split!r})"
            # any hub failure (network, auth, a wrong name) is reported with the other two ways
            try:
                rows = _load_hub(self.hub_id, self.hub_config, split)
                records = [
                    Record(row, f"hub {self.hub_id} {split} row {i}") for i, row in enumerate(rows)
                ]
            except HubUnavailable as e:
                tried.append(f"3. hub: {self.hub_id} not tried: {e}")
            except Exception as e:
                tried.append(f"3. hub: {call} failed: {type(e).__name__}: {_short(str(e), 200)}")
            else:
                if not records:
                    raise DataError(f"hub {self.hub_id} split {split!r}: no rows")
                return records
        if self.hub_id is None:  # a task of the user's: the project's data folder lacks it too
            fix = f"pass path=<file or folder>, or set {ENV_VAR} to a folder holding {self.task}/."
        else:
            fix = (f"pass path=<file or folder>, set {ENV_VAR} to a folder holding {self.task}/ "
                   f"(e.g. {ENV_VAR}=../shared/data), or allow network access to the hub.")
        raise DataNotFound(
            f"no data for task {self.task!r} split {split!r}. Tried, in order:\n  "
            + "\n  ".join(tried) + "\nFix one of them: " + fix
        )

    def _from_dataset(self, data: Any, split: str, what: str) -> list[Record]:
        """Records of a ``datasets`` object: a dict-like of splits gives ``split``; a single
        dataset (or any iterable of dicts) is every split."""
        if isinstance(data, Mapping) or callable(getattr(data, "keys", None)):
            splits = list(data.keys())
            if split not in splits:
                raise DataNotFound(f"path={what} has no split {split!r} for task "
                                   f"{self.task!r} (splits: {splits})")
            data, what = data[split], f"{what}[{split!r}]"
        else:
            _note_split(what, self.task, split)
        records = []
        for i, row in enumerate(data):
            where = f"{what} row {i}"
            records.append(Record(_object(row, where), where))
        if not records:
            raise DataError(f"path={what}: no rows for split {split!r}")
        return records

    def _from_path(self, path: str, split: str) -> list[Record]:
        if os.path.isfile(path):
            _note_split(repr(path), self.task, split)
            return read_records(path)
        if not os.path.isdir(path):
            raise DataNotFound(f"path {path!r} (task {self.task!r}) does not exist")
        if _is_saved_dataset(path):
            return self._from_dataset(_load_from_disk(path), split, what=repr(path))
        # a folder laid out like RLVR_DATA_DIR/<task>/, or RLVR_DATA_DIR itself
        for folder in (path, os.path.join(path, self.task)):
            files = self._files(folder, split) if os.path.isdir(folder) else []
            if files:
                return [r for f in files for r in read_records(f)]
        raise DataNotFound(
            f"path {path!r} has no file for task {self.task!r} split {split!r} "
            f"(looked for {', '.join(self._patterns(split))} there and in {self.task}/)"
        )

    def _patterns(self, split: str) -> tuple[str, ...]:
        return (*self.patterns(split), *default_patterns(split))

    def _files(self, folder: str, split: str) -> list[str]:
        for pattern in self._patterns(split):
            matches = sorted(glob.glob(os.path.join(glob.escape(folder), pattern)))
            if matches:
                return matches
        return []
