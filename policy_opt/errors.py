"""The two errors every command of ``policy_opt`` turns into an exit code (policy_opt.cli):
``ConfigError`` (exit 2, a bad flag) and ``TrainingError`` (exit 1, the run cannot go on).
Below every other module, so that any of them can raise them."""


class ConfigError(ValueError):
    """A configuration value is invalid; the message names the flag."""


class TrainingError(RuntimeError):
    """Training cannot go on (NaN loss, empty dataset, ...); the message says what to do."""
