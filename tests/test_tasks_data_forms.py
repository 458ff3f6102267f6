"""Every form a user's data arrives in reaches a task: ``datasets`` objects, ``save_to_disk``
folders, CSV, the hub's folder layouts; and one file read for two splits says so once."""

from __future__ import annotations

import csv
import warnings
from pathlib import Path

import pytest

import tasks
from tasks import DataError, DataNotFound, DataSource
from tasks.audit import audit

datasets = pytest.importorskip("datasets")
pq = pytest.importorskip("pyarrow.parquet")
pa = pytest.importorskip("pyarrow")

TRAIN = [{"question": f"{i}+{i}?", "answer": f"Sum:\n#### {2 * i}"} for i in range(3)]
TEST = [{"question": "9+9?", "answer": "#### 18"}]


def _answers(rows) -> list[str]:
    return [r.answer for r in rows]


def _parquet(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), path)


def test_a_dataset_dict_object_gives_each_split_its_rows():
    data = datasets.DatasetDict({"train": datasets.Dataset.from_list(TRAIN),
                                 "test": datasets.Dataset.from_list(TEST)})
    task = tasks.get("gsm8k")
    assert _answers(task.rows("train", path=data)) == ["0", "2", "4"]
    assert _answers(task.rows("test", path=data)) == ["18"]
    assert audit(task, path=data).failures == []


def test_a_dataset_dict_without_the_split_names_the_splits_it_has():
    data = datasets.DatasetDict({"train": datasets.Dataset.from_list(TRAIN)})
    with pytest.raises(DataNotFound, match=r"no split 'test'.*\['train'\]"):
        tasks.get("gsm8k").rows("test", path=data)


def test_an_iterable_dataset_is_read():
    data = datasets.Dataset.from_list(TEST).to_iterable_dataset()
    assert _answers(tasks.get("gsm8k").rows("test", path=data)) == ["18"]


def test_one_dataset_for_two_splits_warns_once():
    data = datasets.Dataset.from_list(TEST)
    task = tasks.get("gsm8k")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the first split alone is not a mistake
        task.rows("test", path=data)
    with pytest.warns(UserWarning, match=r"splits \['test', 'train'\] get the same rows"):
        task.rows("train", path=data)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # said once
        task.rows("train", path=data)


def test_an_audit_of_one_file_says_both_splits_are_that_file(tmp_path: Path):
    one = tmp_path / "five.jsonl"
    one.write_text("".join(
        f'{{"question": "q{i}", "answer": "#### {i}"}}\n' for i in range(5)))
    with pytest.warns(UserWarning, match="five.jsonl.*same rows"):
        report = audit(tasks.get("gsm8k"), path=str(one))
    assert report.checked == 10


@pytest.mark.parametrize("kind", ["dict", "single"])
def test_a_save_to_disk_folder_is_read(tmp_path: Path, kind: str):
    folder = tmp_path / "saved"
    if kind == "dict":
        datasets.DatasetDict({"test": datasets.Dataset.from_list(TEST)}).save_to_disk(folder)
    else:
        datasets.Dataset.from_list(TEST).save_to_disk(folder)
    assert _answers(tasks.get("gsm8k").rows("test", path=str(folder))) == ["18"]


def test_a_damaged_save_to_disk_folder_is_a_data_error(tmp_path: Path):
    folder = tmp_path / "saved"
    folder.mkdir()
    (folder / "dataset_dict.json").write_text("{not json")
    with pytest.raises(DataError, match="cannot be read as a saved dataset"):
        tasks.get("gsm8k").rows("test", path=str(folder))


def test_csv_files_are_read(tmp_path: Path):
    with open(tmp_path / "test.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["question", "answer"])
        writer.writeheader()
        writer.writerows(TEST + [{"question": "a, \"quoted\"\nline", "answer": "#### 1"}])
    rows = tasks.get("gsm8k").rows("test", path=str(tmp_path))
    assert _answers(rows) == ["18", "1"]
    assert 'a, "quoted"\nline' in rows[1].prompt[-1]["content"]


@pytest.mark.parametrize(
    ("text", "message"),
    [("question,answer\nq,#### 1,extra\n", "more values than the header"),
     ("question,answer\nq\n", "fewer values than the header"),
     ("question,answer\n", "file is empty")],
)
def test_malformed_csv_names_the_line(tmp_path: Path, text: str, message: str):
    (tmp_path / "test.csv").write_text(text)
    with pytest.raises(DataError, match=message):
        tasks.get("gsm8k").rows("test", path=str(tmp_path))


@pytest.mark.parametrize(
    "layout",
    ["main/test/0000.parquet", "data/test-00000-of-00001.parquet",
     "main/test-00000-of-00001.parquet", "test/0000.parquet"],
)
def test_hub_download_layouts(tmp_path: Path, monkeypatch, layout: str):
    _parquet(tmp_path / "gsm8k" / layout, TEST)
    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path))
    assert _answers(tasks.get("gsm8k").rows("test")) == ["18"]
    assert _answers(tasks.get("gsm8k").rows("test", path=str(tmp_path / "gsm8k"))) == ["18"]


def test_records_of_a_plain_list_of_dicts():
    source = DataSource("demo")
    assert [r.field("answer") for r in source.records("test", path=[{"answer": "x"}])] == ["x"]
    with pytest.raises(DataError, match="expected a JSON object"):
        source.records("test", path=[["not", "a", "dict"]])


def test_an_env_takes_a_datasets_object_as_path():
    import envs

    data = datasets.DatasetDict({"test": datasets.Dataset.from_list(TEST)})
    env = envs.make("gsm8k", split="test", path=data)
    prompt, _ = env.reset(seed=0)
    assert "9+9?" in prompt[-1]["content"]
    assert env.step("#### 18")[1] > 0.9


def test_os_pathlike_paths_still_work(tmp_path: Path):
    (tmp_path / "test.jsonl").write_text('{"question": "q", "answer": "#### 3"}\n')
    assert _answers(tasks.get("gsm8k").rows("test", path=Path(tmp_path))) == ["3"]


def test_train_reads_its_data_from_path(tmp_path: Path, tiny_model: Path, monkeypatch):
    from policy_opt.train import main

    monkeypatch.setenv("RLVR_DATA_DIR", str(tmp_path / "nowhere"))  # only --path has data
    data = tmp_path / "data"
    datasets.DatasetDict({"train": datasets.Dataset.from_list(TRAIN),
                          "test": datasets.Dataset.from_list(TEST)}).save_to_disk(data)
    out = tmp_path / "run"
    argv = ["--env", "gsm8k", "--path", str(data), "--model", str(tiny_model), "--out", str(out),
            "--max-steps", "1", "--prompts-per-step", "2", "--group-size", "2",
            "--max-new-tokens", "4", "--eval-prompts", "1", "--eval-k", "1", "--threads", "1"]
    assert main(argv) == 0
    assert (out / "metrics.jsonl").is_file()
    assert main([*argv[:2], "--path", str(tmp_path / "missing"), *argv[4:]]) == 2


def test_files_are_read_by_the_datasets_loaders(tmp_path: Path, monkeypatch):
    import datasets

    calls = []
    real = datasets.load_dataset

    def spy(kind, *args, **kwargs):
        calls.append((kind, kwargs.get("data_files")))
        return real(kind, *args, **kwargs)

    monkeypatch.setattr(datasets, "load_dataset", spy)
    (tmp_path / "test.jsonl").write_text('{"question": "q", "answer": "#### 2"}\n')
    (tmp_path / "train.csv").write_text("question,answer\nq,#### 3\n")
    _parquet(tmp_path / "validation.parquet", TEST)
    source = DataSource("demo")
    for split in ("test", "train", "validation"):
        assert len(source.records(split, path=str(tmp_path))) == 1
    assert calls == [("json", str(tmp_path / "test.jsonl")), ("csv", str(tmp_path / "train.csv")),
                     ("parquet", str(tmp_path / "validation.parquet"))]


def test_csv_values_keep_their_types(tmp_path: Path):
    from tasks.sources import read_records

    (tmp_path / "t.csv").write_text('question,level,weight,answer\n"1+1?",3,0.5,#### 2\n')
    (record,) = read_records(str(tmp_path / "t.csv"))
    assert record.data == {"question": "1+1?", "level": 3, "weight": 0.5, "answer": "#### 2"}
    assert record.field("level", int) == 3


def test_json_lines_errors_still_name_the_line_past_blank_lines(tmp_path: Path):
    from tasks.sources import read_records

    path = tmp_path / "t.jsonl"
    path.write_text('{"question": "q", "answer": "#### 1"}\n\n{"question": "r"}\n')
    records = read_records(str(path))
    assert [r.where for r in records] == [f"{path} line 1", f"{path} line 3"]
    with pytest.raises(DataError, match=f"^{path} line 3: missing field 'answer'"):
        records[1].field("answer")


def test_math500_csv_with_integer_answers(tmp_path: Path):
    """A CSV whose answer column is all integers is read as ints; math500 takes their text."""
    import tasks

    folder = tmp_path / "math500"
    folder.mkdir()
    (folder / "test.csv").write_text("problem,solution,answer\n1+1?,\\boxed{2},2\n2+2?,\\boxed{4},4\n")
    rows = list(tasks.get("math500").rows("test", path=str(folder)))
    assert [r.answer for r in rows] == ["2", "4"]
