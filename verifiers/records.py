"""Rows from one data file: ``.jsonl`` / ``.jsonl.gz`` (one object a line), ``.json`` (a list of
objects), ``.parquet``, ``.csv`` (a header line; every value is a string). Each record keeps
where it came from, so an error about its content names the file and line
(:class:`DataError`). Used by ``python -m verifiers probe --data FILE`` and by
``tasks.sources`` (which adds where a task's files are found).
"""

from __future__ import annotations

import csv
import gzip
import json
import os
import zlib
from collections.abc import Mapping
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


def read_records(path: str) -> list[Record]:
    """Every record of one file; raises :class:`DataError` on an empty file, a malformed line
    or a record that is not an object."""
    name = path.lower()
    if os.path.isdir(path):
        # a folder can match a data file's name (``test.jsonl/``); opening it would raise
        # IsADirectoryError with no hint of which task or split looked for it
        raise DataError(f"{path}: is a directory, not a data file")
    if name.endswith((".jsonl", ".jsonl.gz")):
        records = _read_jsonl(path)
    elif name.endswith(".json"):
        records = _read_json(path)
    elif name.endswith(".parquet"):
        records = _read_parquet(path)
    elif name.endswith(".csv"):
        records = _read_csv(path)
    else:
        raise DataError(
            f"{path}: unsupported file type (use .jsonl, .jsonl.gz, .json, .parquet or .csv)"
        )
    if not records:
        raise DataError(f"{path}: file is empty (no rows)")
    return records


def _read_jsonl(path: str) -> list[Record]:
    opener = gzip.open if path.lower().endswith(".gz") else open
    records = []
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            for number, line in enumerate(f, start=1):
                if not line.strip():
                    continue
                where = f"{path} line {number}"
                records.append(Record(_object(_loads(line, where), where), where))
    except (UnicodeDecodeError, gzip.BadGzipFile, EOFError, zlib.error) as e:
        # a truncated or corrupt .gz surfaces mid-iteration as any of the last three
        raise DataError(f"{path}: cannot be read as UTF-8 JSON lines ({e})") from None
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None
    return records


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"{where}: malformed JSON ({e.msg} at column {e.colno})") from None
    except RecursionError:
        # json's decoder recurses once per level: a line of 100k '[' exhausts the stack
        raise DataError(f"{where}: JSON nested too deeply to read") from None


def _read_json(path: str) -> list[Record]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text ({e})") from None
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None
    if not text.strip():
        return []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(
            f"{path} line {e.lineno}: malformed JSON ({e.msg} at column {e.colno})"
        ) from None
    except RecursionError:
        raise DataError(f"{path}: JSON nested too deeply to read") from None
    if not isinstance(data, list):
        raise DataError(f"{path}: expected a JSON list of objects, got {type(data).__name__}")
    return [Record(_object(d, f"{path} item {i}"), f"{path} item {i}") for i, d in enumerate(data)]


def _read_parquet(path: str) -> list[Record]:
    import pyarrow  # lazy: only parquet users pay for it
    import pyarrow.parquet

    try:
        rows = pyarrow.parquet.read_table(path).to_pylist()
    except (pyarrow.ArrowException, OSError) as e:
        raise DataError(f"{path}: not a readable parquet file ({e})") from None
    return [Record(row, f"{path} row {i}") for i, row in enumerate(rows)]


def _read_csv(path: str) -> list[Record]:
    records = []
    try:
        with open(path, encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f)
            for row in reader:
                where = f"{path} line {reader.line_num}"
                if None in row:  # more values than header columns
                    raise DataError(f"{where}: more values than the header has columns")
                if any(v is None for v in row.values()):
                    raise DataError(f"{where}: fewer values than the header has columns")
                records.append(Record(row, where))
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text ({e})") from None
    except csv.Error as e:
        raise DataError(f"{path}: malformed CSV ({e})") from None
    except OSError as e:
        raise DataError(f"{path}: cannot be read ({e.strerror or e})") from None
    return records


def _object(data: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(data, dict):
        raise DataError(
            f"{where}: expected a JSON object, got {type(data).__name__} {_short(data)}"
        )
    return data
