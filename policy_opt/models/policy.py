"""``load_policy``: the default model (shipped, or built by its warm-start recipe on first use),
a local folder, an adapter checkpoint or a hub id, as ``(model, tokenizer)``.

``load_policy("default")`` gives the project's own small Llama-architecture model (about
2.4M parameters, byte-level tokenizer), warm-started by ``python -m policy_opt.pretrain``.
Its weights ship in ``policy_opt/default_model/`` and are used while the recipe that made
them is unchanged; after a recipe change it is rebuilt on first use (about 19 minutes on 2
cores) and cached under ``$RLVR_CACHE/default-<recipe-hash>`` (or ``~/.cache/rlvr/...``);
any change to the recipe changes the hash, so a stale cache is never loaded. Anything else
is passed to ``AutoModelForCausalLM`` / ``AutoTokenizer`` (:mod:`policy_opt.models.loading`).

This module sits above both the loader and the recipe, so neither imports the other.

Example:
    >>> model, tok = load_policy("default")            # doctest: +SKIP
    >>> model, tok = load_policy("Qwen/Qwen2.5-0.5B-Instruct", dtype="bfloat16")  # doctest: +SKIP
"""

from __future__ import annotations

import os
from pathlib import Path

import torch
from transformers import PreTrainedModel, PreTrainedTokenizerBase

import policy_opt.models.warm_start as warm_start
from policy_opt.models.default import DEFAULT_NAME, SHIPPED_DIR, cache_root, shipped_recipe_hash
from policy_opt.models.loading import (
    _looks_local,
    check_model_source,
    is_adapter_dir,
    load_pretrained,
)
from policy_opt.models.lora import load_merged


def default_model_path(*, build: bool = True, verbose: bool = True, **recipe) -> Path:
    """Path of the cached default model, building it first when absent (and ``build``).

    ``recipe`` overrides fields of :class:`policy_opt.models.warm_start.Recipe` (tests use a
    few steps); the cache directory name carries the recipe's hash.
    """
    spec = warm_start.Recipe(**recipe)
    digest = warm_start.recipe_hash(spec)
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
    warm_start.build(spec, path, verbose=verbose)
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
    name = os.fspath(name_or_path)
    if name == DEFAULT_NAME:
        return load_pretrained(name, path=os.fspath(default_model_path(verbose=verbose)),
                               dtype=dtype, device=device)
    path, offline = check_model_source(name)
    if _looks_local(name) and is_adapter_dir(Path(path)):
        # The adapters' base may itself be any name load_policy takes ("default" included).
        return load_merged(Path(path), lambda base: load_policy(base, dtype=dtype, device=device,
                                                                verbose=verbose))
    return load_pretrained(name, path=path, offline=offline, dtype=dtype, device=device)
