"""Policies: the offline default model and tokenizer, and loading any transformers causal LM.

``load_policy("default")`` gives the project's own small Llama-architecture model (about
2.4M parameters, byte-level tokenizer), warm-started by ``python -m policy_opt.pretrain``.
Its weights ship in ``policy_opt/default_model/`` and are used while the recipe that made
them is unchanged; after a recipe change it is rebuilt on first use (about 19 minutes on 2
cores) and cached under ``$RLVR_CACHE/default-<recipe-hash>`` (or ``~/.cache/rlvr/...``);
any change to the recipe changes the hash, so a stale cache is never loaded. Anything else
is passed to ``AutoModelForCausalLM`` / ``AutoTokenizer``: a local directory or a hub id.

Example:
    >>> tok = default_tokenizer()
    >>> tok.eos_token, len(tok)
    ('<|im_end|>', 260)
    >>> model, tok = load_policy("default")            # doctest: +SKIP
    >>> model, tok = load_policy("Qwen/Qwen2.5-0.5B-Instruct", dtype="bfloat16")  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import torch
from transformers import (
    AutoModelForCausalLM,
    AutoTokenizer,
    LlamaConfig,
    PreTrainedModel,
    PreTrainedTokenizerBase,
)

from policy_opt.tokenizer import byte_tokenizer

DEFAULT_NAME = "default"

_DTYPES = {
    "auto": "auto",
    "float32": torch.float32,
    "fp32": torch.float32,
    "float16": torch.float16,
    "fp16": torch.float16,
    "bfloat16": torch.bfloat16,
    "bf16": torch.bfloat16,
}


def default_tokenizer() -> PreTrainedTokenizerBase:
    """The project's own tokenizer: byte-level, no files, with a chat template.

    See :mod:`policy_opt.tokenizer` for the token table and the template.

    Example:
        >>> tok = default_tokenizer()
        >>> tok.apply_chat_template([{"role": "user", "content": "2+2"}], tokenize=False)
        '<|im_start|>user\\n2+2<|im_end|>'
    """
    return byte_tokenizer()


def default_config(
    *,
    hidden_size: int = 192,
    num_hidden_layers: int = 4,
    num_attention_heads: int = 6,
    intermediate_size: int = 768,
    max_position_embeddings: int = 1024,
) -> LlamaConfig:
    """The default model's architecture: a Llama with tied embeddings, ~2.4M parameters.

    The size was chosen for training on a CPU (a training step of 64 x 128 tokens takes about
    a second or two on two cores); pass smaller values for tests.

    Example:
        >>> cfg = default_config(hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        ...                      intermediate_size=64)
        >>> cfg.model_type, cfg.vocab_size, cfg.eos_token_id
        ('llama', 260, 259)
    """
    tok = byte_tokenizer()
    return LlamaConfig(
        vocab_size=len(tok),
        hidden_size=hidden_size,
        num_hidden_layers=num_hidden_layers,
        num_attention_heads=num_attention_heads,
        num_key_value_heads=num_attention_heads,
        intermediate_size=intermediate_size,
        max_position_embeddings=max_position_embeddings,
        tie_word_embeddings=True,
        rms_norm_eps=1e-5,
        rope_theta=10000.0,
        initializer_range=0.02,
        bos_token_id=None,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
    )


# The default recipe's output ships with the package (9.6 MB of fp32 safetensors), so the
# main job starts at once on a fresh machine instead of spending minutes on the warm start.
# It is used only while its recipe hash equals the current recipe's (a test checks this);
# after a recipe change, rebuild it: `python -m policy_opt.pretrain --out policy_opt/default_model`.
SHIPPED_DIR = Path(__file__).with_name("default_model")


def shipped_recipe_hash() -> str | None:
    """The recipe hash of the shipped default model, or None when none is shipped."""
    meta = SHIPPED_DIR / "recipe.json"
    if not meta.is_file() or not (SHIPPED_DIR / "model.safetensors").is_file():
        return None
    return json.loads(meta.read_text()).get("recipe_hash")


def cache_root() -> Path:
    """Where built default models live: ``$RLVR_CACHE`` or ``~/.cache/rlvr``."""
    env = os.environ.get("RLVR_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "rlvr"


def default_model_path(*, build: bool = True, verbose: bool = True, **recipe) -> Path:
    """Path of the cached default model, building it first when absent (and ``build``).

    ``recipe`` overrides fields of :class:`policy_opt.pretrain.Recipe` (tests use a few
    steps); the cache directory name carries the recipe's hash.
    """
    from policy_opt import pretrain  # lazy: the recipe pulls in the tasks package

    spec = pretrain.Recipe(**recipe)
    digest = pretrain.recipe_hash(spec)
    if shipped_recipe_hash() == digest:
        return SHIPPED_DIR
    path = cache_root() / f"default-{digest}"
    if (path / "config.json").is_file():
        return path
    if not build:
        raise FileNotFoundError(
            f"default model not built at {path}; run `python -m policy_opt.pretrain --out {path}`"
        )
    if verbose:
        print(f"[policy_opt] building the default model into {path} (first use only)", flush=True)
    pretrain.build(spec, path, verbose=verbose)
    return path


def load_policy(
    name_or_path: str | os.PathLike = DEFAULT_NAME,
    *,
    dtype: str | torch.dtype = "float32",
    device: str | torch.device = "cpu",
    verbose: bool = True,
) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """Load ``(model, tokenizer)`` from ``"default"``, a local directory, or a hub id.

    ``dtype``: ``"float32"`` (default), ``"bfloat16"``, ``"float16"``, ``"auto"`` (the
    checkpoint's) or a ``torch.dtype``. A tokenizer without a pad token gets its EOS as pad;
    padding is set to the left (prompts are left-padded for generation).

    Raises ``FileNotFoundError`` for a path that looks local but does not exist or is a folder
    without ``config.json``; ``OSError`` naming the model when a hub id cannot be fetched
    (offline, no cache) or its files cannot be read (missing or corrupt weights); and
    ``ValueError`` for a model that has no EOS token or is not causal (see ``check_causal``).

    ``"default"`` loads the shipped weights (``policy_opt/default_model/``) silently; only
    after a recipe change does the first call build the model, printing ``[policy_opt]
    building the default model into ~/.cache/rlvr/default-... (first use only)``.

    Example:
        >>> model, tok = load_policy("default")  # doctest: +SKIP
    """
    torch_dtype = _resolve_dtype(dtype)
    name = os.fspath(name_or_path)
    local = name == DEFAULT_NAME or _looks_local(name)
    if name == DEFAULT_NAME:
        path: str = os.fspath(default_model_path(verbose=verbose))
        offline = None
    else:
        path, offline = check_model_source(name)
    if local and _is_adapter_dir(Path(path)):
        from policy_opt.lora import load_merged

        return load_merged(Path(path), dtype=dtype, device=device, verbose=verbose)
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


def _is_adapter_dir(path: Path) -> bool:
    """A LoRA checkpoint: peft's adapter files and no full model."""
    return (path / "adapter_config.json").is_file() and not (path / "config.json").is_file()


def _check_model_dir(path: Path) -> None:
    if _is_adapter_dir(path):
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
