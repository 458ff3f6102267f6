r"""Adapters: any reward function or rubric as a TRL ``GRPOTrainer`` reward or a verl
``compute_score``, so our verifiers work without our trainer.

>>> from verifiers.adapters import to_trl, to_verl
>>> from verifiers.gsm8k import gsm8k_check
>>> reward = to_trl(gsm8k_check)
>>> reward.__name__
'gsm8k_check'
>>> reward(prompts=["q1", "q2"], completions=["#### 4", "#### 5"], answer=["4", "4"])
[1.0, 0.0]
>>> compute_score = to_verl(gsm8k_check)
>>> compute_score(data_source="openai/gsm8k", solution_str="#### 4", ground_truth="4")["score"]
1.0

Both wrap a plain function in a one-function ``Rubric`` (its hard deadline, typed errors and
counters come along; ``.rubric`` on the adapter is that rubric, for logging its counters).

**Which argument gets what** (both adapters, the rule of
``verifiers.adapter_args.Routed``): a reward function is
called ``fn(completion, answer, **kwargs)``. The answer is the gold: TRL's ``answer_key``
column, verl's ``ground_truth``. The other row fields (dataset columns, ``extra_info`` keys)
and options (verl's ``reward_kwargs``, winning over a field of the same name) fill the
function's named parameters and its ``**kwargs``, as TRL passes columns: ``policy="strict"``
reaches ``gsm8k_check(..., *, policy=...)``. A field is never passed under the name of the
function's own completion or answer parameter: a column ``answer`` next to
``answer_key="solution"``, or the ``answer`` verl's GSM8K preprocessing puts in
``extra_info``, is not passed to ``fn(completion, answer, **info)`` (a ``RuntimeWarning``
says so once) instead of making every call fail with "got multiple values for argument
'answer'". Mistakes that would make every sample carry no signal raise a ``TypeError`` on
the first call instead: an option no function takes, an option named like a
completion/answer parameter, a required parameter nothing fills.

**TRL** (checked against TRL 1.16's ``GRPOTrainer._calculate_rewards``): TRL calls
``reward(prompts=..., completions=..., completion_ids=..., **columns, trainer_state=...,
log_extra=..., log_metric=...[, environments=...])`` where ``columns`` are the dataset's other
columns, one value per completion; it wants one ``float | None`` per completion (``None``
becomes NaN, which TRL excludes: no signal). The adapter takes the reference from
``columns[answer_key]`` and gives the remaining columns to the rubric as ``info``; a reward
that needs no gold (every function's answer parameter has a default, as ``format_reward``)
works without that column. Each row's info also gets ``completion_length``, the number of
TRL's ``completion_ids`` (the length terms of ``verifiers.length`` read it), unless a column
has that name. A conversational completion (a list of messages) is scored on the
text of its last assistant message. When TRL passes ``log_metric``, the adapter logs, per
batch, the mean of each function's reward (``<name>/<function>``), the fraction of samples
without signal (``<name>/no_signal``) and the number of reward errors (``<name>/errors``).

**verl** (checked against the reward managers of verl 0.9.1: ``naive``, ``dapo``, ``prime``,
``batch`` and the reward-loop ones, and ``custom_reward_function``): verl calls
``compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=...,
**reward_kwargs)`` (``prime``: the same four positionally, in a process pool, and it takes
only a number: use ``to_verl(..., result="float")``); ``batch`` calls
``compute_score(data_sources=..., solution_strs=..., ground_truths=..., extra_infos=...,
**reward_kwargs)`` and wants a list. verl accepts a float or a dict with ``"score"``, whose
other keys it collects per sample (so every dict has the same keys, all numbers).
``extra_info`` becomes the rubric's ``info`` (less ``rollout_reward_scores``, verl's own); the
reward-model plumbing verl's reward loop may add (``reward_router_address``,
``reward_model_tokenizer``) is left out. Numpy ground truths (``np.int64(7)``) are compared as
text, like Python numbers. verl cannot drop a sample, so a sample without signal scores 0.0
**and** (dict mode) is flagged ``no_signal=1.0`` with its error count in ``errors``: visible
in verl's reward metrics, and counted in ``.rubric.counters``. Per-function rewards are
included under their names (0.0 where the function gave none; ``no_signal`` says when that
happened).

**No silent zeros** (both adapters).

- verl's ``prime`` manager reads ``float(result[0])`` from anything that is not a number and
  turns any failure into 0.0 for the whole batch; the default dict result is a ``VerlScore``,
  a dict whose ``[0]`` (and ``float()``) is the score, so every manager reads it at its
  defaults.
- A gold given as a list, tuple or 1-d numpy array of strings/numbers (verl's
  ``ground_truth``, a dataset column of acceptable answers) means "any of these": each is
  scored and the best total wins (``RubricScore.reasons`` of the winner; the rubric's
  counters count every candidate). A gold that is an empty list, a nested list, or a list of
  other things raises a ``TypeError`` naming the field (``ground_truth``, or the TRL column)
  instead of scoring every sample as no signal; a function that takes a structured gold
  itself (a list of test cases) gets it unchanged with ``gold="as_is"``.

**Async reward functions** (see ``verifiers.rubric``): ``to_trl`` of a rubric with one
returns a reward whose ``__call__`` is ``async`` (TRL awaits such rewards on its own event
loop, concurrently with the others). ``to_verl`` returns a sync ``compute_score`` by default,
which every manager can call (the async functions run on the rubric's event loop, a batch
concurrently); ``to_verl(..., asynchronous=True)`` returns an ``async def`` one
(``inspect.iscoroutinefunction`` is true), which verl's reward-loop managers await on their
loop instead of a thread. Only those: ``naive``, ``dapo``, ``batch`` and ``prime`` call
``compute_score`` synchronously and would get a coroutine (``prime`` would score it 0.0),
which is why the sync form is the default.

``.rubric`` on an adapter is the rubric it scores with: the given one's functions, weights,
gate and deadline, each behind the rule above, with its own counters.

The code: the rule in ``verifiers.adapter_args``, TRL's side in ``verifiers.adapter_trl``,
verl's in ``verifiers.adapter_verl``, what a gold means in ``verifiers.adapter_golds``; this
module re-exports their public names and holds ``compute_score``, the data-source router
(``verifiers.routing``) that verl's ``custom_reward_function.path`` can point at.
"""

from __future__ import annotations

from verifiers.adapter_trl import AsyncTRLReward, TRLReward, completion_text, to_trl
from verifiers.adapter_verl import VerlComputeScore, VerlScore, to_verl
from verifiers.routing import DEFAULT_SOURCES, SourceRouter

__all__ = ["AsyncTRLReward", "TRLReward", "VerlComputeScore", "VerlScore", "completion_text",
           "compute_score", "register_source",
           "to_trl", "to_verl"]


# One compute_score for every data source (verifiers.routing); verl's custom_reward_function
# points here with name=compute_score.
compute_score = SourceRouter(DEFAULT_SOURCES, adapt=to_verl)
register_source = compute_score.register
