"""Tasks: where rows come from, how a row becomes a prompt, and which rubric scores it.

>>> import tasks
>>> "gsm8k" in tasks.names()
True
>>> task = tasks.get("arithmetic")
>>> row = task.rows("train", limit=1)[0]
>>> task.score(row, task.reference_completion(row)).total
1.0

See docs/new_task.md to write a new task, and ``python -m tasks --help`` for the CLI.
"""

import tasks.verifiers_check  # noqa: F401 - first: one-line error if 'verifiers' is PyPI's
from tasks.base import Problem, Row, Task
from tasks.prompts import Prompt, render_plain
from tasks.registry import get, names, register
from tasks.sources import DataError, DataNotFound, DataSource

__all__ = [
    "DataError",
    "DataNotFound",
    "DataSource",
    "Problem",
    "Prompt",
    "Row",
    "Task",
    "get",
    "names",
    "register",
    "render_plain",
]
