"""Loading a transformers causal LM from a local folder or a hub id, with the checks that
turn a wrong name into one clear error (:func:`check_model_source`, :func:`check_causal`).
The default model and adapter checkpoints are resolved above this module, in
:func:`policy_opt.models.policy.load_policy`.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Iterator
from pathlib import Path

import torch
from transformers import (
    AutoModelForCausalLM,
    AutoTokenizer,
    PreTrainedModel,
    PreTrainedTokenizerBase,
)

from policy_opt.models.default import DEFAULT_NAME

_DTYPES = {
    "auto": "auto",
    "float32": torch.float32,
    "fp32": torch.float32,
    "float16": torch.float16,
    "fp16": torch.float16,
    "bfloat16": torch.bfloat16,
    "bf16": torch.bfloat16,
}


def load_pretrained(
    name: str,
    *,
    path: str,
    offline: str | None = None,
    dtype: str | torch.dtype = "float32",
    device: str | torch.device = "cpu",
) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """``(model, tokenizer)`` from ``path``, a folder or hub id already checked for ``name``
    (:func:`check_model_source`; ``offline``: read only the hub cache). See
    :func:`policy_opt.models.policy.load_policy` for ``dtype`` and the errors raised."""
    torch_dtype = _resolve_dtype(dtype)
    local = name == DEFAULT_NAME or _looks_local(name)
    if local:
        _check_model_dir(Path(path))
    try:
        # Offline, only the cache is read (no retries); a local folder loads without bars.
        with quiet_weight_bars() if local else contextlib.nullcontext():
            tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=bool(offline))
            model = AutoModelForCausalLM.from_pretrained(path, dtype=torch_dtype,
                                                         local_files_only=bool(offline))
    except OSError as err:
        hint = ("" if local else
                "\nA hub id needs network access or a copy in the Hugging Face cache "
                "(HF_HUB_OFFLINE=1 uses only the cache); use a local path or 'default' offline.")
        raise OSError(f"could not load model {name!r}: {err}{hint}") from err
    except Exception as err:
        # A truncated or corrupt weights file surfaces as safetensors' own error type, an
        # unknown architecture as KeyError/ValueError: name the model instead of a traceback.
        raise OSError(f"could not load model {name!r} from {path}: "
                      f"{type(err).__name__}: {err}") from err
    _set_special_tokens(name, model, tokenizer)
    tokenizer.padding_side = "left"
    model.to(device)
    model.eval()
    check_causal(model, name)
    return model, tokenizer




def check_model_source(name: str) -> tuple[str, str | None]:
    """Where ``--model name`` (not ``"default"``) will load from, checked before anything
    slow: (the path or hub id, why the hub is offline or None).

    Raises FileNotFoundError for a local-looking path that does not exist (naming the nearest
    names beside it) or a folder that is not a saved model, and OSError for a hub id that is
    neither reachable nor in the hub cache: one line each, at once, instead of transformers'
    retries."""
    if _looks_local(name):
        path = Path(name).expanduser()
        if not path.exists():
            raise FileNotFoundError(_missing_path_message(name))
        _check_model_dir(path)
        return os.fspath(path), None
    offline = hub_offline()
    if offline and not _in_hub_cache(name):
        raise OSError(f"could not load model {name!r}: it is not a local folder, the Hugging "
                      f"Face hub cannot be reached ({offline}) and it is not in the hub cache; "
                      "use a local path (./NAME for a folder here) or 'default'")
    return name, offline


def is_adapter_dir(path: Path) -> bool:
    """A LoRA checkpoint: peft's adapter files and no full model."""
    return (path / "adapter_config.json").is_file() and not (path / "config.json").is_file()


def _check_model_dir(path: Path) -> None:
    if is_adapter_dir(path):
        return
    # transformers reports an empty or tokenizer-only folder as a missing sentencepiece
    # install (it tries every tokenizer backend first), which sends users the wrong way.
    if path.is_dir() and not (path / "config.json").is_file():
        raise FileNotFoundError(
            f"model folder {str(path)!r} has no config.json: it is not a saved transformers "
            "model (save one with model.save_pretrained(folder) and "
            "tokenizer.save_pretrained(folder))")


def _set_special_tokens(name: str, model: PreTrainedModel,
                        tokenizer: PreTrainedTokenizerBase) -> None:
    """Give the tokenizer an EOS (the model config's, when only the config names one) and a
    pad token (EOS), or raise ValueError when the model has no EOS at all."""
    if tokenizer.eos_token_id is None:
        eos = _config_eos(model)
        if eos is None or not 0 <= eos < len(tokenizer):
            # Without an EOS a completion can only end at --max-new-tokens, and a multi-turn
            # env never gets its turn back: every rollout would be silently truncated.
            raise ValueError(
                f"model {name!r} has no end-of-sequence token (no eos_token in its tokenizer "
                "files, no eos_token_id in config.json or generation_config.json), so a "
                "completion could never end; set eos_token in tokenizer_config.json")
        tokenizer.eos_token = tokenizer.convert_ids_to_tokens(eos)
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token


def _config_eos(model: PreTrainedModel) -> int | None:
    for cfg in (getattr(model, "generation_config", None), model.config):
        eos = getattr(cfg, "eos_token_id", None)
        if isinstance(eos, (list, tuple)):
            eos = eos[0] if eos else None
        if isinstance(eos, int):
            return eos
    return None


def check_causal(model: PreTrainedModel, name: str = "the model") -> None:
    """Raise ValueError unless the logits at a position ignore the tokens after it.

    ``AutoModelForCausalLM`` also loads encoders such as BERT (as ``BertLMHeadModel``, with
    bidirectional attention unless ``is_decoder`` is set): every completion token would then
    see the tokens after it and the log-probs would be meaningless, with no error. A sequence,
    its copy and a variant that differs only in its last token are run together; a causal
    model gives the variant the same logits at every earlier position, up to the noise seen
    between the two copies.
    """
    vocab = int(getattr(model.config, "vocab_size", 0) or 0)
    if vocab < 2:
        return
    device = next(model.parameters()).device
    ids = torch.arange(1, 6, device=device) % vocab
    rows = torch.stack([ids, ids.clone(), ids.clone()])
    rows[2, -1] = (ids[-1] + 1) % vocab
    with torch.no_grad():
        logits = model(input_ids=rows, attention_mask=torch.ones_like(rows)).logits.float()
    head = logits[0, :-1]
    # A causal model gives row 2 the same logits as row 0 before the changed token. Row 1
    # repeats row 0 exactly, so any difference between them is the kernels' own noise (GPU
    # reductions need not be bitwise repeatable): the leak must stand well above it. A
    # bidirectional leak is far larger, though in a freshly initialised tiny BERT only ~3e-3
    # of the logits' scale.
    noise = float((logits[1, :-1] - head).abs().max())
    eps = torch.finfo(next(model.parameters()).dtype).eps
    tol = 4 * eps * (1.0 + float(head.abs().max())) + 10 * noise
    if not torch.allclose(head, logits[2, :-1], rtol=0.0, atol=tol):
        raise ValueError(
            f"model {name!r} ({type(model).__name__}) is not causal: its logits at a position "
            "change with the tokens after it, so it cannot be trained as a policy. Use a "
            "decoder-only language model (for a BERT-style config, is_decoder=true makes it "
            "causal)")


def _resolve_dtype(dtype: str | torch.dtype) -> str | torch.dtype:
    if isinstance(dtype, torch.dtype):
        return dtype
    if dtype not in _DTYPES:
        raise ValueError(f"dtype must be one of {sorted(_DTYPES)} or a torch.dtype, got {dtype!r}")
    return _DTYPES[dtype]


_HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?")


def _looks_local(name: str) -> bool:
    """Whether ``name`` means a folder on disk rather than a hub id.

    A hub id is "org/name" or "name" of letters, digits and ``._-``. Anything absolute,
    dotted, home-relative, with more than one slash, not spelled like a hub id, existing on
    disk, or whose first part is an existing folder (``runs/arth`` where ``runs/`` exists: a
    typo of a local run, not an org on the hub) is a path.

    Example:
        >>> _looks_local("Qwen/Qwen2.5-0.5B-Instruct"), _looks_local("./ckpt"), _looks_local("a b")
        (False, True, True)
    """
    if name.startswith(("/", ".", "~")) or name.count("/") > 1 or os.path.exists(name):
        return True
    if not _HUB_ID.fullmatch(name):
        return True
    return "/" in name and os.path.isdir(name.split("/", 1)[0])


def _missing_path_message(name: str) -> str:
    """'model path does not exist' with the nearest sibling names, for a typo."""
    import difflib

    path = Path(name).expanduser()
    parent = path.parent if path.parent.is_dir() else None
    hint = ""
    if parent is not None:
        near = difflib.get_close_matches(path.name, [p.name for p in parent.iterdir()], n=3)
        if near:
            hint = " (did you mean " + ", ".join(repr(str(parent / n)) for n in near) + "?)"
    return f"model path does not exist: {name!r}{hint}"


HUB_PROBE_SECONDS = 3.0
"""How long a check that the hub answers may take before the run treats itself as offline."""


def hub_offline(timeout: float = HUB_PROBE_SECONDS) -> str | None:
    """Why the Hugging Face hub cannot be used (``HF_HUB_OFFLINE`` set, or no TCP connection
    to it within ``timeout`` seconds), or None when it answers. Checked once, before loading:
    transformers would otherwise retry for 30-50 s and print a dozen lines first."""
    from urllib.parse import urlparse

    for var in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        if os.environ.get(var, "").strip().lower() in ("1", "true", "yes", "on"):
            return f"{var} is set"
    url = urlparse(os.environ.get("HF_ENDPOINT", "https://huggingface.co"))
    host, port = url.hostname or "huggingface.co", url.port or (80 if url.scheme == "http" else 443)
    return _probe(host, port, timeout)


@functools.lru_cache(maxsize=8)
def _probe(host: str, port: int, timeout: float) -> str | None:
    # Once per process: the checks before the trainer starts and load_policy share it.
    import socket
    import threading

    result: list[str | None] = []

    def probe() -> None:
        try:
            socket.create_connection((host, port), timeout=timeout).close()
            result.append(None)
        except Exception as err:  # noqa: BLE001 - any failure means: no hub from here
            result.append(f"no connection to {host}: {type(err).__name__}")

    # getaddrinfo ignores the socket timeout, so the whole probe runs in a thread we stop
    # waiting for.
    thread = threading.Thread(target=probe, daemon=True)
    thread.start()
    thread.join(timeout + 0.5)
    return result[0] if result else f"no answer from {host} within {timeout:g} s"


def _in_hub_cache(name: str) -> bool:
    try:
        from huggingface_hub import try_to_load_from_cache

        return isinstance(try_to_load_from_cache(name, "config.json"), str)
    except Exception:  # a malformed id or an unreadable cache: not there
        return False


@contextlib.contextmanager
def quiet_weight_bars() -> Iterator[None]:
    """Hide transformers' own per-call bars ("Loading weights", "Writing model shards") in
    the block: a checkpoint every few steps would print one each time. Hub download bars
    stay (transformers' flag gates both, so it is only lowered around local work)."""
    from transformers.utils import logging as hf_logging

    was = getattr(hf_logging, "_tqdm_active", None)
    if was is None:  # another transformers version: leave its bars alone
        yield
        return
    hf_logging._tqdm_active = False
    try:
        yield
    finally:
        hf_logging._tqdm_active = was
