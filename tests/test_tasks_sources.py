"""Row sources: resolution order (path > $RLVR_DATA_DIR > hub), one clear error when none
works, and bad data named by file, line and field. Uses only temporary files."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

import tasks
from tasks import sources
from tasks.sources import DataError, DataNotFound, DataSource, read_records

ROW = {"question": "Janet has 3 eggs and buys 4. How many eggs?", "answer": "3+4=7\n#### 7"}


def _jsonl(path: Path, rows: list, raw_lines: list[str] | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(r) for r in rows] + (raw_lines or [])
    path.write_text("\n".join(lines) + ("\n" if lines else ""))
    return path


@pytest.fixture
def no_hub(monkeypatch: pytest.MonkeyPatch) -> list:
    """The hub fails like it does offline; records the calls."""
    calls: list = []

    def offline(hub_id: str, config: str | None, split: str):
        calls.append((hub_id, config, split))
        raise ConnectionError("offline: cannot reach huggingface.co")

    monkeypatch.setattr(sources, "_load_hub", offline)
    return calls


# --- resolution order ---------------------------------------------------------------------


def test_explicit_path_wins_over_env_and_hub(tmp_path: Path, monkeypatch, no_hub) -> None:
    env = tmp_path / "env"
    _jsonl(env / "gsm8k" / "test.jsonl", [{**ROW, "answer": "#### 1"}])
    monkeypatch.setenv("RLVR_DATA_DIR", str(env))
    mine = _jsonl(tmp_path / "mine.jsonl", [ROW, ROW])
    rows = tasks.get("gsm8k").rows("test", path=str(mine))
    assert [r.answer for r in rows] == ["7", "7"] and no_hub == []


def test_env_folder_is_used_when_no_path(tmp_path: Path, monkeypatch, no_hub) -> None:
    _jsonl(tmp_path / "gsm8k" / "test.jsonl", [ROW])
    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path))
    rows = tasks.get("gsm8k").rows("test")
    assert rows[0].id == "gsm8k/test/0" and rows[0].answer == "7" and no_hub == []
    assert rows[0].info["solution"] == ROW["answer"]


def test_hub_is_last_and_gets_the_right_call(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path))  # no gsm8k/ inside
    calls = []

    def fake_hub(hub_id, config, split):
        calls.append((hub_id, config, split))
        return [ROW]

    monkeypatch.setattr(sources, "_load_hub", fake_hub)
    assert tasks.get("gsm8k").rows("train")[0].answer == "7"
    assert calls == [("openai/gsm8k", "main", "train")]


def test_none_works_one_error_names_all_three_ways(monkeypatch, no_hub) -> None:
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    with pytest.raises(DataNotFound) as info:
        tasks.get("gsm8k").rows("test")
    message = str(info.value)
    assert "path= argument: not given" in message
    assert "$RLVR_DATA_DIR: not set" in message
    assert "load_dataset('openai/gsm8k', 'main', split='test') failed: ConnectionError" in message
    assert no_hub == [("openai/gsm8k", "main", "test")]


def test_env_folder_without_the_split_is_named_in_the_error(tmp_path, monkeypatch, no_hub):
    _jsonl(tmp_path / "gsm8k" / "train.jsonl", [ROW])
    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path))
    with pytest.raises(DataNotFound, match=r"no file for split 'test' in .*gsm8k"):
        tasks.get("gsm8k").rows("test")


def test_missing_explicit_path_never_falls_back(tmp_path: Path, monkeypatch, no_hub) -> None:
    _jsonl(tmp_path / "gsm8k" / "test.jsonl", [ROW])
    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path))
    with pytest.raises(DataNotFound, match="does not exist"):
        tasks.get("gsm8k").rows("test", path=str(tmp_path / "typo.jsonl"))
    assert no_hub == []


def test_path_may_be_a_task_folder_or_the_data_root(tmp_path: Path, no_hub) -> None:
    _jsonl(tmp_path / "gsm8k" / "test.jsonl", [ROW])
    task = tasks.get("gsm8k")
    assert len(task.rows("test", path=str(tmp_path / "gsm8k"))) == 1
    assert len(task.rows("test", path=str(tmp_path))) == 1


def test_hub_layout_parquet_shards_and_gzip(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "gsm8k" / "main"
    folder.mkdir(parents=True)
    for shard in range(2):
        table = pa.Table.from_pylist([{**ROW, "answer": f"#### {shard}"}])
        pq.write_table(table, folder / f"test-0000{shard}-of-00002.parquet")
    assert [r.answer for r in tasks.get("gsm8k").rows("test", path=str(tmp_path))] == ["0", "1"]
    gz = tmp_path / "t.jsonl.gz"
    with gzip.open(gz, "wt") as f:
        f.write(json.dumps(ROW) + "\n")
    assert read_records(str(gz))[0].field("question") == ROW["question"]


# --- bad data: file, line, field ----------------------------------------------------------


def test_missing_column_names_file_line_and_field(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "test.jsonl", [ROW, {"question": "q"}])
    with pytest.raises(DataError) as info:
        tasks.get("gsm8k").rows("test", path=str(path))
    assert str(info.value).startswith(f"{path} line 2: missing field 'answer'")


def test_empty_file_is_an_error_not_zero_rows(tmp_path: Path) -> None:
    path = tmp_path / "test.jsonl"
    path.write_text("\n\n")
    with pytest.raises(DataError, match=f"{path}: file is empty"):
        tasks.get("gsm8k").rows("test", path=str(path))


def test_malformed_line_names_file_and_line(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "test.jsonl", [ROW, ROW], raw_lines=['{"question": "q", "answer": '])
    with pytest.raises(DataError, match=f"{path} line 3: malformed JSON"):
        tasks.get("gsm8k").rows("test", path=str(path))


def _corrupt_gzips(tmp_path: Path) -> dict[str, Path]:
    """One .jsonl.gz per way a damaged gzip fails mid-read: a bad deflate block (zlib.error),
    a cut-off stream (EOFError) and a wrong trailer (gzip.BadGzipFile)."""
    good = gzip.compress(b"".join(json.dumps(ROW).encode() + b"\n" for _ in range(200)))
    found: dict[str, Path] = {}
    for pos in range(12, len(good) - 8):
        damaged = bytearray(good)
        damaged[pos] ^= 0x55
        try:
            gzip.decompress(bytes(damaged))
        except Exception as e:
            if type(e).__name__ not in found:
                path = tmp_path / f"{type(e).__name__}.jsonl.gz"
                path.write_bytes(bytes(damaged))
                found[type(e).__name__] = path
    found["cut"] = tmp_path / "cut.jsonl.gz"
    found["cut"].write_bytes(good[: len(good) // 2])
    return found


def test_corrupt_gzip_is_a_data_error_naming_the_file(tmp_path: Path) -> None:
    damaged = _corrupt_gzips(tmp_path)
    assert "error" in damaged, "no flipped byte gave zlib.error: the test lost its case"
    for path in damaged.values():
        with pytest.raises(DataError, match=f"^{path}"):
            read_records(str(path))


def test_folder_named_like_a_data_file_is_a_data_error(tmp_path: Path) -> None:
    (tmp_path / "test.jsonl").mkdir()
    with pytest.raises(DataError, match=f"{tmp_path / 'test.jsonl'}: is a directory"):
        tasks.get("gsm8k").rows("test", path=str(tmp_path))


@pytest.mark.parametrize("name", ["test.jsonl", "test.json"])
def test_json_nested_too_deeply_is_a_data_error(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(DataError, match=f"^{path}.*nested too deeply"):
        read_records(str(path))


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        ({"question": 5, "answer": "#### 1"}, "field 'question' should be str, got int 5"),
        ({"question": "q", "answer": "no final line"}, "field 'answer': .*'#### N'"),
        ({"question": "q", "answer": "#### seven"}, "field 'answer': .*not a number"),
    ],
)
def test_wrong_field_values_are_named(tmp_path: Path, bad: dict, match: str) -> None:
    path = _jsonl(tmp_path / "test.jsonl", [ROW, bad])
    with pytest.raises(DataError, match=f"line 2: {match}"):
        tasks.get("gsm8k").rows("test", path=str(path))


def test_non_object_lines_lists_and_types(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "a.jsonl", [ROW], raw_lines=["[1, 2]"])
    with pytest.raises(DataError, match="line 2: expected a JSON object, got list"):
        read_records(str(path))
    listed = tmp_path / "b.json"
    listed.write_text(json.dumps([ROW, "oops"]))
    with pytest.raises(DataError, match=r"b.json item 1: expected a JSON object"):
        read_records(str(listed))
    # datasets' json loader reads a .json holding one object as one row (it used to be an
    # error here, when sources.py had its own reader)
    one_object = tmp_path / "c.json"
    one_object.write_text(json.dumps(ROW))
    assert [r.data for r in read_records(str(one_object))] == [ROW]
    with pytest.raises(DataError, match="unsupported file type"):
        read_records(str(tmp_path / "d.xlsx"))
    binary = tmp_path / "e.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(DataError, match="UTF-8"):
        read_records(str(binary))


def test_parquet_missing_column_names_row(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "test.parquet"
    pq.write_table(pa.Table.from_pylist([{"question": "q"}]), path)
    with pytest.raises(DataError, match=f"{path} row 0: missing field 'answer'"):
        tasks.get("gsm8k").rows("test", path=str(path))
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"not parquet")
    with pytest.raises(DataError, match="not a readable parquet file"):
        read_records(str(broken))


def test_mbpp_and_humaneval_name_their_bad_fields(tmp_path: Path) -> None:
    row = {"task_id": 12, "prompt": "p", "code": "def f(x):\n    return x", "test_list": []}
    path = _jsonl(tmp_path / "m.jsonl", [row])
    with pytest.raises(DataError, match="line 1: field 'test_list' should be a non-empty list"):
        tasks.get("mbpp").rows("test", path=str(path))
    he = _jsonl(tmp_path / "h.jsonl", [{"task_id": "HumanEval/0", "prompt": "def f():\n"}])
    with pytest.raises(DataError, match="line 1: missing field 'canonical_solution'"):
        tasks.get("humaneval").rows("test", path=str(he))


def test_data_source_for_a_new_task(tmp_path: Path, monkeypatch, no_hub) -> None:
    _jsonl(tmp_path / "capitals" / "train.jsonl", [{"q": "France?", "a": "Paris"}])
    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path))
    source = DataSource("capitals")
    record = source.records("train")[0]
    assert record.field("a") == "Paris"
    assert record.where == f"{os.path.join(tmp_path, 'capitals', 'train.jsonl')} line 1"
    with pytest.raises(DataNotFound, match="this task has no hub dataset"):
        source.records("test")


def test_a_local_only_task_is_not_told_to_reach_the_hub(monkeypatch, no_hub) -> None:
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    with pytest.raises(DataNotFound) as err:
        DataSource("capitals").records("train")
    fix = str(err.value).splitlines()[-1]
    # The project's shared folder holds no capitals/, and there is no hub dataset to reach.
    assert fix.startswith("Fix one of them:") and "hub" not in fix and "shared/data" not in fix
    with pytest.raises(DataNotFound, match="allow network access to the hub"):
        DataSource("gsm8k", hub_id="openai/gsm8k", hub_config="main").records("train")
