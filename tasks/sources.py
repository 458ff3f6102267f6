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

import contextlib
import csv
import glob
import gzip
import json
import os
import tempfile
import threading
import warnings
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ENV_VAR = "RLVR_DATA_DIR"


class DataError(ValueError):
    """The data was found but is unusable: empty file, malformed line, missing field."""


class DataNotFound(FileNotFoundError):
    """No source gave data for the requested task and split."""


class HubUnavailable(ConnectionError):
    """The hub was not asked: offline mode, or no connection (see :mod:`tasks.hub`)."""


@dataclass(frozen=True)
class Record:
    """One raw record and where it came from (``"<file> line 12"``), so that every error about
    its content can say where to look."""

    data: Mapping[str, Any]
    where: str

    def field(self, name: str, kind: type | tuple[type, ...] = str) -> Any:
        """The value of ``name``, checked to be of ``kind``.

        >>> Record({"a": 1}, "x.jsonl line 3").field("b")
        Traceback (most recent call last):
        ...
        tasks.sources.DataError: x.jsonl line 3: missing field 'b' (fields: ['a'])
        """
        if name not in self.data:
            raise DataError(f"{self.where}: missing field {name!r} (fields: {sorted(self.data)})")
        value = self.data[name]
        # bool is an int subclass; a True where a number is expected is bad data, not a 1
        if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
            expected = " or ".join(k.__name__ for k in _kinds(kind))
            raise DataError(
                f"{self.where}: field {name!r} should be {expected}, got "
                f"{type(value).__name__} {_short(value)}"
            )
        return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _short(value: Any, n: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= n else text[: n - 3] + "..."


# file suffix -> the ``datasets`` packaged loader that reads it (``load_dataset(kind, ...)``)
_LOADERS = {".jsonl": "json", ".jsonl.gz": "json", ".json": "json", ".parquet": "parquet",
            ".csv": "csv"}


def read_records(path: str) -> list[Record]:
    """Every record of one file, read by ``datasets``' own loader for its type
    (``load_dataset("json" | "csv" | "parquet", data_files=path)``); raises
    :class:`DataError` naming the file (and the line, when the fault is in one) on an empty
    file, a malformed line or a record that is not an object."""
    name = path.lower()
    if os.path.isdir(path):
        # a folder can match a data file's name (``test.jsonl/``); reading it would fail
        # with no hint of which task or split looked for it
        raise DataError(f"{path}: is a directory, not a data file")
    suffix = next((s for s in sorted(_LOADERS, key=len, reverse=True) if name.endswith(s)), None)
    if suffix is None:
        raise DataError(
            f"{path}: unsupported file type (use .jsonl, .jsonl.gz, .json, .parquet or .csv)"
        )
    if not os.path.isfile(path):
        raise DataError(f"{path}: cannot be read (no such file)")
    rows = _load_file(_LOADERS[suffix], path)
    if not rows:
        raise DataError(f"{path}: file is empty (no rows)")
    if suffix == ".csv" and any(v is None for row in rows for v in row.values()):
        _diagnose_csv(path)  # a short row reads as empty cells: name its line
    where = _locator(suffix, path, len(rows))
    if suffix != ".parquet":
        # The loaders give every row every column of the file (arrow unifies the schema), a
        # key a JSON object lacks or an empty CSV cell as None: drop those, so that a row
        # without a field is reported as missing it.
        rows = [{k: v for k, v in row.items() if v is not None} for row in rows]
    return [Record(row, where(i)) for i, row in enumerate(rows)]


@contextlib.contextmanager
def _quiet_datasets() -> Iterator[None]:
    """No progress bars or log lines from ``datasets`` while it reads one of our files (a
    failure is reported by our own error, once)."""
    import datasets

    bars = datasets.utils.are_progress_bars_disabled()
    level = datasets.logging.get_verbosity()
    datasets.disable_progress_bars()
    datasets.logging.set_verbosity(datasets.logging.CRITICAL)
    try:
        yield
    finally:
        datasets.logging.set_verbosity(level)
        if not bars:
            datasets.enable_progress_bars()


def _load_file(kind: str, path: str) -> list[dict[str, Any]]:
    import datasets  # lazy: importing datasets costs ~1 s

    try:
        # A private cache folder, dropped after: datasets caches a local file by path and
        # modification time, so a file rewritten within the same second would read stale.
        with _quiet_datasets(), tempfile.TemporaryDirectory(prefix="rlvr-data-") as cache:
            data = datasets.load_dataset(kind, data_files=path, split="train", cache_dir=cache,
                                         keep_in_memory=True)
            rows = data.to_list()
    except Exception as e:  # datasets and pyarrow raise many kinds: find the line, or say so
        if _is_blank(path):
            return []
        if kind == "json":
            _diagnose_json(path)
        elif kind == "csv":
            _diagnose_csv(path)
        cause = e.__cause__ or e
        if "corresponds to no data" in str(cause):  # a CSV with a header and no rows
            return []
        what = {"json": "cannot be read as JSON", "csv": "malformed CSV",
                "parquet": "not a readable parquet file"}[kind]
        raise DataError(f"{path}: {what} ({type(cause).__name__}: "
                        f"{_short(str(cause), 200)})") from None
    if kind == "csv" and rows and "__index_level_0__" in rows[0]:
        # pandas takes the surplus first value of every row as an index
        raise DataError(f"{path}: more values than the header has columns")
    return rows


def _open_text(path: str) -> Any:
    opener = gzip.open if path.lower().endswith(".gz") else open
    return opener(path, "rt", encoding="utf-8", newline="" if path.endswith(".csv") else None)


def _is_blank(path: str) -> bool:
    try:
        with _open_text(path) as f:
            return not any(line.strip() for line in f)
    except (OSError, UnicodeDecodeError, EOFError, zlib.error):
        return False


def _diagnose_json(path: str) -> None:
    """After the loader failed: raise the :class:`DataError` naming the line at fault (or
    the file, when it cannot be decoded); return when no single line is to blame."""
    try:
        with _open_text(path) as f:
            if path.lower().endswith(".json"):
                text = f.read()
                try:
                    data = json.loads(text)
                except json.JSONDecodeError as e:
                    raise DataError(f"{path} line {e.lineno}: malformed JSON ({e.msg} at "
                                    f"column {e.colno})") from None
                items = data if isinstance(data, list) else [data]
                for i, item in enumerate(items):
                    _object(item, f"{path} item {i}")
                return
            for number, line in enumerate(f, start=1):
                if line.strip():
                    where = f"{path} line {number}"
                    _object(_loads(line, where), where)
    except RecursionError:
        # json's decoder recurses once per level: 100k '[' exhaust the stack
        raise DataError(f"{path}: JSON nested too deeply to read") from None
    except (UnicodeDecodeError, gzip.BadGzipFile, EOFError, zlib.error) as e:
        # a truncated or corrupt .gz surfaces mid-iteration as any of the last three
        raise DataError(f"{path}: cannot be read as UTF-8 JSON ({e})") from None
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None


def _diagnose_csv(path: str) -> None:
    """Raise the :class:`DataError` naming the first row with more or fewer values than the
    header (or an undecodable file); return when there is none."""
    try:
        with _open_text(path) as f:
            reader = csv.reader(f)
            header = next(reader, [])
            for row in reader:
                if not row:
                    continue
                where = f"{path} line {reader.line_num}"
                if len(row) > len(header):
                    raise DataError(f"{where}: more values than the header has columns")
                if len(row) < len(header):
                    raise DataError(f"{where}: fewer values than the header has columns")
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text ({e})") from None
    except csv.Error as e:
        raise DataError(f"{path}: malformed CSV ({e})") from None
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"{where}: malformed JSON ({e.msg} at column {e.colno})") from None


def _locator(suffix: str, path: str, n: int) -> Callable[[int], str]:
    """Where row ``i`` is, for error messages: the line of a JSON-lines file (blank lines
    skipped, as the loader does), the item of a JSON list, the row of a table."""
    if suffix in (".jsonl", ".jsonl.gz"):
        try:
            with _open_text(path) as f:
                lines = [number for number, line in enumerate(f, start=1) if line.strip()]
        except (OSError, UnicodeDecodeError, EOFError, zlib.error):
            lines = []
        if len(lines) == n:
            return lambda i: f"{path} line {lines[i]}"
    if suffix == ".json":
        return lambda i: f"{path} item {i}"
    return lambda i: f"{path} row {i}"


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


def _object(data: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(data, dict):
        raise DataError(
            f"{where}: expected a JSON object, got {type(data).__name__} {_short(data)}"
        )
    return data


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
        raise DataNotFound(
            f"no data for task {self.task!r} split {split!r}. Tried, in order:\n  "
            + "\n  ".join(tried)
            + f"\nFix one of them: pass path=<file or folder>, set {ENV_VAR} to a folder holding "
            f"{self.task}/ (e.g. {ENV_VAR}=../shared/data), or allow network access to the hub."
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
