"""Models: the default model's definition (``default``), loading any causal LM (``loading``),
LoRA adapters (``lora``), the default model's warm-start recipe (``warm_start``) and
``load_policy`` above them all (``policy``). The public names are importable from here."""

from policy_opt.models.default import (
    DEFAULT_NAME,
    SHIPPED_DIR,
    cache_root,
    default_config,
    default_tokenizer,
    shipped_recipe_hash,
)
from policy_opt.models.loading import check_model_source
from policy_opt.models.policy import default_model_path, load_policy

__all__ = ["DEFAULT_NAME", "SHIPPED_DIR", "cache_root", "check_model_source", "default_config",
           "default_model_path", "default_tokenizer", "load_policy", "shipped_recipe_hash"]
