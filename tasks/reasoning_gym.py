"""``rg:NAME``: any of reasoning-gym's procedural datasets as a task (the optional extra:
``pip install -e '.[reasoning-gym]'``).

>>> import tasks                                                    # doctest: +SKIP
>>> task = tasks.get("rg:leg_counting", size=100, level=2)           # doctest: +SKIP
>>> row = task.rows("train", limit=1)[0]                             # doctest: +SKIP
>>> task.score(row, f"<answer>{row.answer}</answer>").total          # doctest: +SKIP
1.0

Options go to ``tasks.get`` as keywords (``python -m tasks show rg:gcd -o size=50``), or in
the name as a query, which is how ``--env`` passes them: ``rg:leg_counting?level=3&size=500``.

- ``size`` / ``test_size``: rows of the train and test split (default 1,000 and 200; a few
  generators take ~60 ms a row, so the default stays small).
- ``seed``: a base seed. Each split draws its own dataset seed from (name, split, this seed,
  the rows' seed), so train and test are different streams and a run is repeatable.
- ``level``: reasoning-gym's curriculum for NAME at that global level (an int), or per
  attribute (``{"num_animals": 3}``); the curriculum writes the difficulty fields of the
  config, and any config keyword given too wins over it.
- ``partial``: keep reasoning-gym's raw score. **Strict is the default**: accuracy is 1.0 only
  when reasoning-gym scores the answer exactly 1.0, else 0, because several of its scorers pay
  partial credit for wrong answers (``-41`` for gold ``-4`` scores 0.667), which a policy can
  farm; README's "reasoning-gym" section lists them (``benchmarks/rg_partial_credit.py``).
- ``datasets``: for ``rg:composite``, ``{name: weight}`` or ``{name: {"weight": w, "config":
  {...}}}``; ``rg:a+b`` is the composite of ``a`` and ``b`` with equal weights.
- any other keyword is a field of the dataset's config (``min_animals=2``), checked by name.

The answer is read as reasoning-gym reads it: the last complete ``<answer>...</answer>``
(:func:`verifiers.format.extract_tag`). Rubric: accuracy (weight 1) + format (an ``<answer>``
tag is present; weight 0.1), ungated like the built-in tasks.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from tasks.base import Problem, Row, Task
from tasks.prompts import Prompt
from tasks.rubrics import FORMAT_WEIGHT
from tasks.seeds import row_seed
from verifiers.format import extract_tag
from verifiers.rubric import RewardFunc, Rubric
from verifiers.types import CORRECT, FORMAT, HEDGED, WRONG, Verdict

PREFIX = "rg:"
INSTALL_HINT = "pip install -e '.[reasoning-gym]'"
INSTRUCTION = "Give only your final answer between <answer> and </answer> tags."
_OWN_OPTIONS = ("size", "test_size", "seed", "level", "partial", "datasets", "system")


def _package() -> Any:
    try:
        import reasoning_gym
    except ImportError:
        raise ImportError(
            f"the rg: tasks need the optional package reasoning-gym: {INSTALL_HINT}"
        ) from None
    return reasoning_gym


def parse_name(spec: str) -> tuple[str, dict[str, Any]]:
    """``"leg_counting?level=2&size=50"`` -> ``("leg_counting", {"level": 2, "size": 50})``;
    values are Python literals, else strings.

    >>> parse_name("gcd?min_value=2&partial=True")
    ('gcd', {'min_value': 2, 'partial': True})
    """
    name, _, query = spec.partition("?")
    options: dict[str, Any] = {}
    for item in filter(None, query.split("&")):
        key, eq, text = item.partition("=")
        if not eq or not key.isidentifier():
            raise ValueError(f"rg:{spec}: expected KEY=VALUE after '?', got {item!r}")
        try:
            options[key] = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            options[key] = text
    return name.strip(), options


def describe() -> str:
    """One line for ``python -m tasks list``."""
    try:
        known = _package().factory.DATASETS
    except ImportError as e:
        return f"reasoning-gym's datasets ({e})"
    names = sorted(set(known) - {"composite"})
    return (f"reasoning-gym's {len(names)} datasets and their composites: "
            f"{', '.join(names[:4])}, ... (options: rg:NAME?level=2&size=500)")


def family_factory(spec: str) -> functools.partial:
    """The task factory for ``rg:`` + ``spec`` (``tasks.registry`` calls this): fails in one
    line when reasoning-gym is missing or ``spec`` names no dataset of it."""
    rg = _package()
    name = spec.partition("?")[0].strip()
    known = rg.factory.DATASETS
    for part in name.split("+"):
        if part not in known:
            raise KeyError(f"unknown reasoning-gym dataset {part!r} (rg:{spec}); it has "
                           f"{len(known)}: {', '.join(sorted(known)[:8])}, ... "
                           "(reasoning_gym.factory.DATASETS)")
    return functools.partial(_from_spec, spec)


def _from_spec(spec: str, **options: Any) -> Task:
    # the query is read when the task is built, where a bad option is a ValueError the
    # commands report in one line; keywords win over the query
    name, query = parse_name(spec)
    return reasoning_gym_task(name, **{**query, **options})


def _dataset_config(name: str, level: int | Mapping[str, int] | None,
                    config: Mapping[str, Any]) -> Any:
    """The config object of dataset ``name``: its curriculum at ``level`` when given, then
    ``config`` on top (fields checked by name)."""
    rg = _package()
    config_cls = rg.factory.DATASETS[name][1]
    fields = {f.name for f in dataclasses.fields(config_cls)}
    unknown = sorted(set(config) - fields)
    if unknown:
        raise ValueError(f"rg:{name}: {unknown[0]!r} is not an option (its config fields: "
                         f"{', '.join(sorted(fields))}; ours: {', '.join(_OWN_OPTIONS)})")
    if level is None:
        return config_cls(**config)
    if not rg.factory.has_curriculum(name):
        raise ValueError(f"rg:{name}: level= needs a curriculum and {name} has none")
    curriculum = rg.factory.create_curriculum(name)
    levels = level if isinstance(level, Mapping) else dict.fromkeys(curriculum.attributes, level)
    for attr, value in levels.items():
        if attr not in curriculum.attributes:
            raise ValueError(f"rg:{name}: the curriculum has no attribute {attr!r} (it has "
                             f"{', '.join(curriculum.attributes)})")
        top = len(curriculum.attributes[attr].levels) - 1
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"rg:{name}: level must be an int >= 0, got {value!r}")
        curriculum.set_attr_level(attr, min(value, top))  # as set_global_level clamps
    return dataclasses.replace(curriculum.generate_configuration(), **config)


def _composite_specs(name: str, datasets: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    if datasets is None:
        if name == "composite":
            raise ValueError("rg:composite needs datasets={name: weight, ...} (or write rg:a+b)")
        return [{"name": n, "weight": 1.0, "config": {}} for n in name.split("+")]
    if not isinstance(datasets, Mapping) or not datasets:
        raise ValueError(f"rg:{name}: datasets must be a non-empty mapping, got {datasets!r}")
    specs = []
    for sub, value in datasets.items():
        spec = dict(value) if isinstance(value, Mapping) else {"weight": value}
        specs.append({"name": str(sub), "weight": float(spec.get("weight", 1.0)),
                      "config": dict(spec.get("config") or {})})
    return specs


def build_dataset(name: str, *, seed: int, size: int, level: Any = None,
                  datasets: Mapping[str, Any] | None = None, **config: Any) -> Any:
    """reasoning-gym's dataset ``name`` (or a composite: ``a+b``, ``composite``) with
    ``size`` rows from ``seed``."""
    rg = _package()
    if name == "composite" or "+" in name:
        from reasoning_gym.composite import CompositeConfig, CompositeDataset, DatasetSpec

        specs = [DatasetSpec(**s) for s in _composite_specs(name, datasets)]
        for spec in specs:  # each part's config is checked as a single dataset's would be
            _dataset_config(spec.name, None, spec.config)
        return CompositeDataset(CompositeConfig(size=size, seed=seed, datasets=specs))
    cfg = _dataset_config(name, level, {**config, "seed": seed, "size": size})
    if hasattr(cfg, "validate"):
        try:
            cfg.validate()
        except AssertionError as e:  # reasoning-gym validates with assert
            raise ValueError(f"rg:{name}: {e}") from None
    return rg.factory.DATASETS[name][0](config=cfg)


@functools.lru_cache(maxsize=32)
def _scorer(key: str) -> Any:
    """The dataset whose ``score_answer`` scores rows built from ``key`` (built once per
    process: rubric workers rebuild it from the key, which pickles)."""
    spec = json.loads(key)
    return build_dataset(spec.pop("name"), seed=0, size=1, **spec)


def rg_accuracy(completion: str, answer: str, *, rg_key: str, partial: bool = False,
                **info: Any) -> Verdict:
    """reasoning-gym's score of the last ``<answer>`` in ``completion``; strict (1.0 only for
    a score of exactly 1.0) unless ``partial``."""
    pred, problem = read_answer(completion)
    if pred is None:
        return Verdict(0.0, problem, gold=answer)
    entry = {"question": info.get("question", ""), "answer": info.get("rg_answer"),
             "metadata": copy.deepcopy(info.get("rg_metadata", {}))}  # a scorer may edit it
    try:
        raw = float(_scorer(rg_key).score_answer(pred, entry))
    except Exception as e:  # noqa: BLE001 - its scorers parse the model's text and can raise
        # on what they cannot read ('11 units' in prime_factorization): a wrong answer, not
        # an infrastructure fault (which would drop the sample as "no signal")
        return Verdict(0.0, f"{WRONG}: reasoning-gym's scorer refused it "
                       f"({type(e).__name__}: {str(e)[:80]})", pred=pred, gold=answer)
    reward = raw if partial else float(raw == 1.0)
    reason = CORRECT if raw == 1.0 else WRONG if raw == 0.0 else f"{WRONG}: partial {raw:.3g}"
    return Verdict(reward, reason, pred=pred, gold=answer, details={"rg_score": raw})


_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
# linear: the classes exclude what ends them, so no backtracking
_OTHER_COMMITMENT = re.compile(r"\\(?:boxed|fbox)\s*\{([^{}]*)\}|####([^<\n]*)")


def read_answer(completion: Any) -> tuple[str | None, str]:
    """``(answer, "")`` or ``(None, why)``: the text of the last ``<answer>`` tag, as
    reasoning-gym reads it, but only when the completion ends there and every earlier tag
    says the same. reasoning-gym takes the last tag whatever follows, so ``<answer>5</answer>
    Or maybe 6.`` would pay for 5 (``python -m tasks probe rg:leg_counting`` found it); after
    the answer is where hedges and revisions go.

    >>> read_answer("so 2+2=4 <answer>4</answer>")
    ('4', '')
    >>> read_answer("<answer>4</answer> or maybe 5")
    (None, 'format: text after </answer>')
    """
    if not isinstance(completion, str):
        return None, f"{FORMAT}: the completion is not text"
    last = extract_tag(completion, "answer")
    if last is None:
        return None, f"{FORMAT}: no <answer>...</answer>"
    if not completion.rstrip().endswith("</answer>"):
        return None, f"{FORMAT}: text after </answer>"
    if any(m.group(1).strip() != last for m in _TAG.finditer(completion)):
        return None, f"{HEDGED}: <answer> tags that disagree"
    # another commitment form (a box, a '####' line) that names something else is a second
    # answer: '\\boxed{6} and <answer>5</answer>'
    for m in _OTHER_COMMITMENT.finditer(completion):
        if (m.group(1) or m.group(2) or "").strip() != last:
            return None, f"{HEDGED}: {m.group(0).strip()[:40]!r} besides the <answer> tag"
    return last, ""


def answer_tag_format(completion: str, answer: str, **info: Any) -> Verdict:
    """1.0 if the completion ends with an ``<answer>...</answer>`` (:func:`read_answer`)."""
    pred, problem = read_answer(completion)
    return Verdict(1.0, CORRECT) if pred is not None else Verdict(0.0, problem)


def reference(row: Row) -> str:
    return f"<answer>{row.answer}</answer>"


def reasoning_gym_task(name: str, *, size: int = 1_000, test_size: int = 200, seed: int = 0,
                       level: int | Mapping[str, int] | None = None, partial: bool = False,
                       datasets: Mapping[str, Any] | None = None, system: str | None = None,
                       **config: Any) -> Task:
    """reasoning-gym's dataset ``name`` as the task ``rg:name`` (see the module doc)."""
    for key, value in (("size", size), ("test_size", test_size), ("seed", seed)):
        if isinstance(value, bool) or not isinstance(value, int) or value < (key != "seed"):
            raise ValueError(f"rg:{name}: {key} must be an int >= {int(key != 'seed')}, "
                             f"got {value!r}")
    if not isinstance(partial, bool):
        raise ValueError(f"rg:{name}: partial must be True or False, got {partial!r}")
    # JSON: the key pickles to rubric workers and hashes for the scorer cache
    key = json.dumps({"name": name, "level": level, "datasets": datasets, **config},
                     sort_keys=True, default=str)
    build_dataset(name, seed=0, size=1, level=level, datasets=datasets, **config)  # fail now
    sizes = {"train": size, "test": test_size}
    task_name = f"{PREFIX}{name}"

    def problems(split: str, rows_seed: int, path: str | None) -> Iterator[Problem]:
        if path is not None:
            raise ValueError(f"{task_name} is generated; it takes no path")
        # reasoning-gym seeds row i with seed + i, so nearby seeds share rows: each split
        # takes a far-apart seed, derived as the built-in generators derive theirs
        ds_seed = row_seed(task_name, split, seed, rows_seed) % 2**31
        dataset = build_dataset(name, seed=ds_seed, size=sizes[split], level=level,
                                datasets=datasets, **config)
        for i in range(sizes[split]):
            entry = dataset[i]
            gold = entry.get("answer")
            info = {"question": entry["question"], "rg_answer": gold,
                    "rg_metadata": entry.get("metadata", {})}
            yield Problem(f"{task_name}/{split}/{i}", entry["question"].strip(),
                          "" if gold is None else str(gold), info)

    accuracy = functools.partial(rg_accuracy, rg_key=key, partial=partial)
    rubric = Rubric([RewardFunc("accuracy", accuracy),
                     RewardFunc("format", answer_tag_format, weight=FORMAT_WEIGHT,
                                in_process=True)])
    return Task(task_name, problems, rubric, prompt=Prompt(INSTRUCTION, system=system),
                reference=reference, description=f"reasoning-gym's {name} (strict: "
                f"{'no' if partial else 'yes'})")
