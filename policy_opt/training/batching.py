"""Episodes packed into tensors, and the index plans the optimiser walks them by.

* :func:`pack_episodes`: episodes -> a :class:`policy_opt.algorithm.batch.Batch`, left-padded
  prompts and right-padded completions that all start at one column.
* :func:`minibatch_order`: the rows of each optimisation pass, whole groups shuffled.
* :func:`micro_batch_rows` / :func:`plan_micro_batches`: a minibatch cut into micro-batches
  of similar completion length, so trimming leaves little padding.

Device discipline (the trainer crashed on CUDA when this was not kept):

1. An index tensor or mask lives on the device of the tensor it indexes. The plans here are
   built on ``batch``'s device, so ``batch.rows(idx)``, ``adv[idx]``, ``active[idx // g]`` and
   ``idx[mask]`` never mix devices.
2. Random draws come from a CPU ``torch.Generator`` (the same permutation on every device,
   so a run's shuffles do not depend on the hardware) and are moved to the batch's device
   once per pass, never per micro-batch.
3. The host reads device data only where a plan needs a Python number: the per-group
   completion lengths of a minibatch (one transfer, for the cut points and each micro-
   batch's width) and the number of rows kept (a boolean mask's size is data-dependent on
   any device). Nothing is read back per micro-batch.

``tests/test_device_discipline.py`` runs the optimiser under a mode that fails on any
operation mixing devices, on a CPU-only machine.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from policy_opt.algorithm.batch import Batch, prompts_shared  # noqa: F401  (importable here too)
from policy_opt.rollout.episodes import Episode


def pack_episodes(episodes: Sequence[Episode], pad_id: int) -> Batch:
    """Pack episodes into a Batch on the CPU (see its docstring for the layout); move it with
    ``Batch.to`` (one copy per tensor, not one per episode)."""
    n = len(episodes)
    p = max(len(e.prompt_ids) for e in episodes)
    length = max(1, max(len(e.completion_ids) for e in episodes))
    input_ids = torch.full((n, p + length), pad_id, dtype=torch.long)
    attention = torch.zeros((n, p + length), dtype=torch.long)
    comp_mask = torch.zeros((n, length), dtype=torch.float32)
    for i, e in enumerate(episodes):
        start = p - len(e.prompt_ids)
        c = len(e.completion_ids)
        input_ids[i, start:p] = torch.tensor(e.prompt_ids, dtype=torch.long)
        attention[i, start:p] = 1
        if c:
            input_ids[i, p:p + c] = torch.tensor(e.completion_ids, dtype=torch.long)
            attention[i, p:p + c] = 1
            comp_mask[i, :c] = torch.tensor(e.completion_mask, dtype=torch.float32)
    position_ids = (attention.cumsum(-1) - 1).clamp(min=0)
    return Batch(input_ids, attention, position_ids, input_ids[:, p:].clone(), comp_mask)


def minibatch_order(n_groups: int, group_size: int, generator: torch.Generator,
                    device: torch.device | str) -> torch.Tensor:
    """[n_groups * group_size] row indices on ``device``: the groups in a random order (drawn
    from the CPU ``generator``), each group's rows kept together and in order."""
    groups = torch.randperm(n_groups, generator=generator)
    order = (groups[:, None] * group_size + torch.arange(group_size)).reshape(-1)
    return order.to(device)


# What one more forward/backward pass costs beyond its tokens (kernel launches, Python),
# in completion-token rows. A rough figure read off CPU profiles of the default model (a
# pass's fixed cost over one token's), not a tuned one: the plan is exact for any value.
MICRO_BATCH_OVERHEAD = 48


def plan_micro_batches(widths: Sequence[int], group_size: int, max_rows: int,
                       overhead: int = MICRO_BATCH_OVERHEAD) -> list[int]:
    """Cut groups sorted by completion length (``widths``: each group's longest, descending)
    into contiguous micro-batches of at most ``max_rows`` rows, minimising padded work.

    A micro-batch of groups i..j-1 is padded to ``widths[i]``; it costs
    ``(j - i) * group_size * widths[i] + overhead``. Dynamic programming over the cut points
    finds the cheapest plan exactly. Returns the cut points ``[0, ..., len(widths)]``.

    Example:
        >>> plan_micro_batches([30, 29, 12, 11], group_size=8, max_rows=32, overhead=48)
        [0, 2, 4]
        >>> plan_micro_batches([30, 29, 28, 27], group_size=8, max_rows=16, overhead=48)
        [0, 2, 4]
    """
    m = len(widths)
    per = max(1, max_rows // group_size)  # groups per micro-batch at most
    best = [0.0] + [float("inf")] * m
    back = [0] * (m + 1)
    for j in range(1, m + 1):
        for i in range(max(0, j - per), j):
            cost = best[i] + (j - i) * group_size * widths[i] + overhead
            if cost < best[j]:
                best[j], back[j] = cost, i
    cuts = [m]
    while cuts[-1] > 0:
        cuts.append(back[cuts[-1]])
    return cuts[::-1]


def micro_batch_rows(batch: Batch, idx: torch.Tensor, group_size: int, max_rows: int,
                     fixed_cuts: bool = False) -> list[tuple[torch.Tensor, int]]:
    """``idx`` (whole groups, on ``batch``'s device) cut into micro-batches of at most
    ``max_rows`` rows that hold completions of similar length, so trimming leaves little
    padding. Returns ``(rows, width)`` per micro-batch: its row indices (on ``batch``'s
    device) and its longest completion (for :meth:`Batch.trimmed`).

    Groups are ordered from the longest completion to the shortest and cut where
    :func:`plan_micro_batches` says (``fixed_cuts``: every ``max_rows // group_size`` groups,
    for ranks that must run the same number of passes). The gradient is a sum over
    micro-batches, so the order and the cuts change only float rounding."""
    g = group_size
    if len(idx) == 0:
        return []
    lengths = batch.attention_mask[idx, -batch.completion_ids.shape[1]:].sum(dim=1)
    longest = lengths.view(-1, g).max(dim=1).values
    order = torch.sort(longest, descending=True, stable=True).indices
    groups = idx.view(-1, g)[order]
    widths = longest[order].tolist()  # the plan's one read from the device
    if fixed_cuts:
        per = max(1, max_rows // g)
        cuts = [*range(0, len(groups), per), len(groups)]
    else:
        cuts = plan_micro_batches(widths, g, max_rows)
    return [(groups[a:b].reshape(-1), widths[a]) for a, b in zip(cuts, cuts[1:])]
