"""Rows from one data file: ``.jsonl`` / ``.jsonl.gz`` (one object a line), ``.json`` (a list of
objects), ``.parquet``, ``.csv`` (a header line), each read by ``datasets``' own loader, so
values keep their types (a CSV column of numbers gives numbers). Each record keeps
where it came from, so an error about its content names the file and line
(:class:`DataError`). Used by ``python -m verifiers probe --data FILE`` and by
``tasks.sources`` (which adds where a task's files are found).
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import json
import os
import tempfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any


class DataError(ValueError):
    """The data was found but is unusable: empty file, malformed line, missing field."""


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
        verifiers.records.DataError: x.jsonl line 3: missing field 'b' (fields: ['a'])
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


def _object(data: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(data, dict):
        raise DataError(
            f"{where}: expected a JSON object, got {type(data).__name__} {_short(data)}"
        )
    return data
