"""The one exception type zsim shows to users as a single line (exit code 2)."""


class ZsimError(ValueError):
    """Bad input: the message names the problem and is shown as one line."""
