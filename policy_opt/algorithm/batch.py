"""The tensor layout the algorithm's functions read: :class:`Batch`, packed episodes with every
completion starting at one column (packed by :func:`policy_opt.training.batching.pack_episodes`),
and :func:`prompts_shared`, whether each group's rows share their prompt (the shared-prompt
trick of :func:`policy_opt.algorithm.logprobs.completion_logprobs` then runs it once).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class Batch:
    """Episodes packed for the policy: prompts left-padded to a common width P so that every
    completion starts at column P, completions right-padded to L.

    input_ids, attention_mask, position_ids: [N, P + L]
    completion_ids, completion_mask:         [N, L]   (mask 1 on the model's own tokens)
    """

    input_ids: torch.Tensor
    attention_mask: torch.Tensor
    position_ids: torch.Tensor
    completion_ids: torch.Tensor
    completion_mask: torch.Tensor

    @property
    def device(self) -> torch.device:
        return self.input_ids.device

    def rows(self, idx: torch.Tensor | slice) -> Batch:
        return Batch(*(t[idx] for t in (self.input_ids, self.attention_mask, self.position_ids,
                                         self.completion_ids, self.completion_mask)))

    def trimmed(self, width: int | None = None) -> Batch:
        """The same rows without the completion columns that are padding in every row.

        ``width``: the longest completion of these rows when the caller knows it (a micro-
        batch plan does), which spares reading it back from the device."""
        length = self.completion_ids.shape[1]
        p = self.input_ids.shape[1] - length
        if width is None:
            used = self.attention_mask[:, p:].any(dim=0).nonzero()
            keep = int(used.max()) + 1 if len(used) else 1
        else:
            keep = min(length, max(1, width))
        if keep == length:
            return self
        return Batch(self.input_ids[:, :p + keep], self.attention_mask[:, :p + keep],
                     self.position_ids[:, :p + keep], self.completion_ids[:, :keep],
                     self.completion_mask[:, :keep])

    def to(self, device: torch.device | str) -> Batch:
        return Batch(*(t.to(device) for t in (self.input_ids, self.attention_mask,
                                               self.position_ids, self.completion_ids,
                                               self.completion_mask)))


def prompts_shared(batch: Batch, group_size: int) -> bool:
    """Whether each run of ``group_size`` consecutive rows starts from one prompt (as the G
    completions of a group do)."""
    n, length = batch.completion_ids.shape
    if group_size < 2 or n % group_size:
        return False
    p = batch.input_ids.shape[1] - length
    prompts = batch.input_ids[:, :p].reshape(n // group_size, group_size, p)
    masks = batch.attention_mask[:, :p].reshape(n // group_size, group_size, p)
    return bool((prompts == prompts[:, :1]).all() and (masks == masks[:, :1]).all())
