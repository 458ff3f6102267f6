import tasks.verifiers_check  # noqa: F401 - first: one-line error if 'verifiers' is PyPI's
