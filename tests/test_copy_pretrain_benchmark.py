"""``benchmarks/copy_pretrain.py``: the copy task it trains on, and a short run that learns."""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import copy_pretrain  # noqa: E402

from policy_opt.models.default import default_tokenizer  # noqa: E402


def _args(**kw) -> argparse.Namespace:
    base = {"min_len": 4, "max_len": 10, "gap": 60, "delims": '<"( :='}
    return argparse.Namespace(**{**base, **kw})


def test_examples_repeat_the_digits_after_the_same_delimiter() -> None:
    tok = default_tokenizer()
    rng = random.Random(3)
    for _ in range(200):
        ids, start = copy_pretrain.copy_example(rng, _args(), tok)
        text = tok.decode(ids)
        m = re.fullmatch(r"(.)(\d{4,10})>([a-z ,.]{0,60})\1(\d{4,10})>", text, re.DOTALL)
        assert m is not None, text
        assert m.group(2) == m.group(4)
        assert text[start:].rstrip(">") == m.group(2)  # the loss starts at the second copy


def test_a_short_run_lowers_the_copy_loss_and_saves_a_model(tmp_path, capsys) -> None:
    out = tmp_path / "copy-base"
    assert copy_pretrain.main(["--steps", "12", "--every", "12", "--lr", "3e-3", "--threads", "1",
                               "--out", str(out)]) == 0
    rows = re.findall(r"step +(\d+)  first digit ([\d.]+)  other digits ([\d.]+)", capsys.readouterr().out)
    assert [int(r[0]) for r in rows] == [0, 12]
    assert float(rows[1][2]) < float(rows[0][2])  # the digits are no longer uniform guesses
    from policy_opt.models.policy import load_policy

    model, _ = load_policy(str(out), verbose=False)
    assert model.config.num_hidden_layers == 4


def test_bad_arguments_name_the_field() -> None:
    with pytest.raises(SystemExit):
        copy_pretrain.main(["--steps", "0"])
