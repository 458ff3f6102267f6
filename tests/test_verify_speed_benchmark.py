"""benchmarks/verify_speed.py: ``--limit`` caps every dataset, GSM8K included."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import verify_speed  # noqa: E402


def test_limit_caps_gsm8k_too():
    # `--limit 500` ("rows per dataset") scored 2,000 GSM8K rows: the GSM8K default won.
    assert verify_speed.gsm8k_rows(500, 2000) == 500
    assert verify_speed.gsm8k_rows(None, 2000) == 2000
    assert verify_speed.gsm8k_rows(5000, 2000) == 2000
    assert verify_speed.gsm8k_rows(None, 0) is None  # --gsm8k-limit 0: all rows
    assert verify_speed.gsm8k_rows(300, 0) == 300
