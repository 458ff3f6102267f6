"""The vLLM side of :class:`policy_opt.rollout.vllm_server.VLLMServerEngine`'s weight sync.

``vllm serve ... --worker-extension-cls policy_opt.rollout.vllm_worker.WeightSyncExtension`` mixes
:class:`WeightSyncExtension` into every GPU worker of the server (one per tensor-parallel
rank), and ``VLLM_SERVER_DEV_MODE=1`` lets the trainer call its methods over HTTP
(``POST /collective_rpc``, which runs the method on every worker). The weights themselves
travel over NCCL, from the trainer (rank 0) to the workers (ranks 1..N), never through a
file. The server must be able to import this module (run it from the repository root, or
``pip install`` the package into the server's environment).

torch and vLLM are imported inside the methods, so this module imports anywhere.
"""

from __future__ import annotations

from typing import Any


def nccl_communicator(host: str, port: int, rank: int, world_size: int, device: Any) -> Any:
    """Join the trainer/server weight-sync group as ``rank``; returns vLLM's NCCL communicator.

    Rank 0 (the trainer) hosts the rendezvous store at ``host:port``; every call blocks until
    all ``world_size`` ranks have joined. The group is vLLM's ``StatelessProcessGroup``, so
    it never touches either side's ``torch.distributed`` default group.
    """
    from vllm.distributed.device_communicators.pynccl import PyNcclCommunicator
    from vllm.distributed.utils import StatelessProcessGroup

    group = StatelessProcessGroup.create(host=host, port=port, rank=rank, world_size=world_size)
    return PyNcclCommunicator(group, device=device)


def broadcast(comm: Any, tensor: Any) -> None:
    """Broadcast ``tensor`` from rank 0 on the current CUDA stream (in place on receivers)."""
    import torch

    # On the current stream, so the transfer is ordered after the kernels that produced
    # the tensor (older vLLM versions otherwise use a side stream of their own).
    stream = torch.cuda.current_stream(tensor.device) if tensor.is_cuda else None
    comm.broadcast(tensor, src=0, stream=stream)


def torch_dtype(name: str) -> Any:
    """``"bfloat16"`` -> ``torch.bfloat16``; anything that is not a torch dtype is refused
    (the name arrives over HTTP)."""
    import torch

    dtype = getattr(torch, str(name), None)
    if not isinstance(dtype, torch.dtype):
        raise ValueError(f"not a torch dtype: {name!r}")
    return dtype


class WeightSyncExtension:
    """Worker methods the trainer calls through ``POST /collective_rpc``.

    vLLM's worker provides ``self.rank`` (its rank among the server's workers),
    ``self.device`` and ``self.model_runner.model``. Arguments arrive as JSON values.
    """

    def weight_sync_rank(self) -> int:
        """This worker's rank; the trainer counts the replies to size the NCCL group."""
        return int(self.rank)

    def init_weight_sync(self, host: str, port: int, world_size: int) -> None:
        """Join the trainer's NCCL group as rank ``1 + self.rank`` (the trainer is rank 0)."""
        self._weight_sync_comm = nccl_communicator(str(host), int(port), 1 + int(self.rank),
                                                   int(world_size), self.device)

    def receive_weights(self, metadata: list[Any]) -> None:
        """Receive one broadcast tensor per ``(name, dtype, shape)``, in order, and load each
        with the model's own ``load_weights`` (Hugging Face names; fused projections are
        filled in place).

        Every broadcast is received even after a load fails, and the error is raised at the
        end: the trainer keeps broadcasting, and a worker that stopped receiving would leave
        it blocked in NCCL for good.
        """
        import torch

        comm = getattr(self, "_weight_sync_comm", None)
        if comm is None:
            raise RuntimeError("receive_weights before init_weight_sync")
        # Checked before the first receive, for the same reason.
        specs = [(str(name), torch_dtype(dtype), tuple(int(s) for s in shape))
                 for name, dtype, shape in metadata]
        model = self.model_runner.model
        error: str | None = None
        for name, dtype, shape in specs:
            buf = torch.empty(shape, dtype=dtype, device=self.device)
            broadcast(comm, buf)
            if error is None:
                try:
                    model.load_weights([(name, buf)])
                except Exception as err:  # reported once all tensors are received
                    error = f"loading {name} {list(shape)} {dtype}: {err!r}"
        if torch.device(self.device).type == "cuda":
            torch.cuda.synchronize(self.device)  # loaded before the RPC returns
        if error is not None:
            raise RuntimeError(error)
