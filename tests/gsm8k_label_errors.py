"""The GSM8K rows whose own solution concludes one amount and then writes another after
``####`` (issue 30, round 16: the working's last sentence is read as a commitment, so these
references are refused as offering two answers, reason ``hedged``). Each entry: row id ->
(the amount the last working line concludes, the ``####`` answer)."""

LABEL_ERRORS: dict[str, tuple[str, str]] = {
    "gsm8k/train/356": ("64", "66"),  # "James scored a total of 48 + 16 = 64 points."
    "gsm8k/train/786": ("9", "3"),  # "he needs 4500/500=9 reams of paper"
    "gsm8k/train/2770": ("108", "106"),  # "they spend $70 + $38 = $108 in all."
    "gsm8k/train/3334": ("8600", "7200"),  # "Mr. Mathews made $4200+$3000 = $8600"
    "gsm8k/train/4796": ("120", "140"),  # "there are 100+20 = 120 trucks and tanks in the yard."
    "gsm8k/train/1154": ("207.00", "1035"),  # "the stockings will cost 162+45 = $<<162+45=207.00>>207.00"
    "gsm8k/train/6157": ("100", "110"),  # "over 100 acts, 70 + 40 = 100 people have reappeared in all."
    "gsm8k/train/7444": ("140", "280"),  # "So he played 14*20=140 minutes"
    "gsm8k/train/5350": ("45", "33"),  # "13 marbles + 4 marbles + 16 marbles = 45 marbles" (round 20)
    "gsm8k/train/6760": ("18", "14"),  # "All total, Matthew needs to cook, 4+4+6 = 18 hot dogs" (round 20)
    "gsm8k/test/1038": ("6", "4"),  # "it will take 300,000/50,000=6 years"
}
TRAIN_ROWS = 7473


def row_index(row_id: str) -> int:
    """The row's index in train then test, as the tests concatenate them."""
    _, split, index = row_id.split("/")
    return int(index) + (TRAIN_ROWS if split == "test" else 0)
