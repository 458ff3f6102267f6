"""A colocated ``vllm.LLM`` behind the rollout engine interface (:mod:`policy_opt.rollout.engine`);
vLLM is imported only when one is built, so the rest of the package works without it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import torch

from policy_opt.rollout.engine import FINISH_LENGTH, FINISH_STOP, Generation, check_sampling_args


class VLLMEngine:
    """A colocated vLLM engine whose weights follow the trainer's model.

    Args:
        model: a hub id or local path vLLM can load (the same checkpoint as the policy).
        gpu_memory_utilization: the share of GPU memory vLLM may take (the trainer needs
            the rest when colocated).
        dtype: passed to ``vllm.LLM``.
        **llm_kwargs: any other ``vllm.LLM`` argument (``max_model_len``, ``enforce_eager``...).

    ``sync_weights(model)`` copies the trainer's current parameters into the engine in
    memory: it calls the vLLM model's own ``load_weights(iterable of (name, tensor))`` (which
    maps Hugging Face names and fills fused qkv / gate_up projections in place, so CUDA
    graphs stay valid) through ``LLM.apply_model`` when the installed vLLM has it, else on
    ``LLM.llm_engine.model_executor.driver_worker[.worker].model_runner.model`` (the path
    TRL's colocate mode uses). No file is written. For the model to be reachable in this
    process, the engine sets ``VLLM_ENABLE_V1_MULTIPROCESSING=0`` unless already set.
    Tensor parallelism is not supported by this sync (one GPU, TP=1).

    Raises ``ImportError`` with an install hint when vLLM is missing, and ``RuntimeError``
    when no CUDA device is available.

    Example:
        >>> engine = VLLMEngine("Qwen/Qwen2.5-0.5B-Instruct")   # doctest: +SKIP
        >>> engine.sync_weights(policy)                           # doctest: +SKIP
    """

    def __init__(
        self,
        model: str,
        *,
        gpu_memory_utilization: float = 0.3,
        dtype: str = "bfloat16",
        seed: int = 0,
        tensor_parallel_size: int = 1,
        sleep_between_phases: bool = False,
        **llm_kwargs: Any,
    ):
        if not isinstance(model, str) or not model:
            raise TypeError(
                f"model must be a hub id or a local path (str) vLLM can load, got {model!r}"
            )
        if not 0 < gpu_memory_utilization <= 1:
            raise ValueError(
                f"gpu_memory_utilization must be in (0, 1], got {gpu_memory_utilization}"
            )
        if tensor_parallel_size < 1:
            raise ValueError(f"tensor_parallel_size must be >= 1, got {tensor_parallel_size}")
        # The V1 engine core must run in this process so sync_weights can reach the model.
        os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
        vllm = _import_vllm()
        if not torch.cuda.is_available():
            raise RuntimeError("VLLMEngine needs a CUDA GPU; use TransformersEngine on CPU")
        self._vllm = vllm
        if torch.distributed.is_available() and torch.distributed.is_initialized():
            # Under torchrun every rank owns a colocated engine; vLLM's external launcher
            # reuses the ranks torchrun started instead of spawning its own workers.
            llm_kwargs.setdefault("distributed_executor_backend", "external_launcher")
        self.sleep_between_phases = sleep_between_phases
        self.llm = vllm.LLM(
            model=model,
            gpu_memory_utilization=gpu_memory_utilization,
            dtype=dtype,
            seed=seed,
            tensor_parallel_size=tensor_parallel_size,
            enable_sleep_mode=sleep_between_phases,
            **llm_kwargs,
        )
        self._asleep = False
        self.tokenizer = self.llm.get_tokenizer()

    def generate(
        self,
        prompts: list[list[int]],
        *,
        max_new_tokens: int,
        temperature: float = 1.0,
        top_p: float = 1.0,
        stop: Sequence[str] = (),
        seed: int | None = None,
    ) -> list[Generation]:
        """Sample one completion per prompt with vLLM; stop-string tokens are kept."""
        check_sampling_args(prompts, max_new_tokens, temperature, top_p, stop)
        self.wake_up()
        if not prompts:
            return []

        def params(i: int) -> Any:
            return self._vllm.SamplingParams(
                max_tokens=max_new_tokens,
                temperature=float(temperature),
                top_p=float(top_p),
                stop=list(stop) or None,
                include_stop_str_in_output=True,
                # vLLM seeds each request's generator with its own seed: one seed for the
                # batch would give a GRPO group's copies of a prompt the same completion.
                seed=None if seed is None else seed + i,
                logprobs=0,  # the sampled token's own log-prob
            )

        try:
            from vllm.inputs import TokensPrompt

            inputs: list[Any] = [TokensPrompt(prompt_token_ids=list(p)) for p in prompts]
        except ImportError:  # older vLLM
            inputs = [{"prompt_token_ids": list(p)} for p in prompts]
        outputs = self.llm.generate(inputs, [params(i) for i in range(len(inputs))],
                                    use_tqdm=False)
        return [_generation_from_vllm(o.outputs[0]) for o in outputs]

    def sleep(self) -> None:
        """Free the engine's GPU memory (weights offloaded, KV cache dropped) while the trainer
        runs the optimisation phase; a no-op unless built with ``sleep_between_phases``."""
        if self.sleep_between_phases and not self._asleep:
            self.llm.sleep(level=1)
            self._asleep = True

    def wake_up(self) -> None:
        """Take the memory back before the next rollout phase (see ``sleep``)."""
        if self._asleep:
            self.llm.wake_up()
            self._asleep = False

    def sync_weights(self, model: Any) -> None:
        """Load ``model``'s current parameters into the engine, in memory (no disk)."""
        self.wake_up()
        # FSDP2 shards are gathered whole, a collective every rank joins in the same order
        # (each rank syncs its own colocated engine).
        state = [(name, (p.full_tensor() if hasattr(p, "full_tensor") else p).detach())
                 for name, p in model.state_dict().items()]

        def load(vllm_model: Any) -> None:
            vllm_model.load_weights(iter(state))

        if hasattr(self.llm, "apply_model"):
            self.llm.apply_model(load)
        else:  # older vLLM: reach the in-process worker's model directly
            worker = self.llm.llm_engine.model_executor.driver_worker
            load(getattr(worker, "worker", worker).model_runner.model)
        if hasattr(self.llm, "reset_prefix_cache"):
            # Cached prefixes hold KV computed with the old weights.
            self.llm.reset_prefix_cache()


def _generation_from_vllm(completion: Any) -> Generation:
    token_ids = list(completion.token_ids)
    logprobs = None
    if completion.logprobs is not None:
        logprobs = [float(step[tid].logprob) for step, tid in zip(completion.logprobs, token_ids)]
    reason = FINISH_LENGTH if completion.finish_reason == "length" else FINISH_STOP
    return Generation(token_ids, logprobs, reason)


def _import_vllm() -> Any:
    try:
        import vllm
    except ImportError as err:
        raise ImportError(
            "VLLMEngine needs vLLM, which is not installed: `pip install 'rlvr-toolkit[vllm]'` "
            "(or `pip install vllm`) on a machine with a CUDA GPU; on CPU use TransformersEngine"
        ) from err
    return vllm
