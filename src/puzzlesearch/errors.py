"""User-facing errors: one line, non-zero exit, never a traceback."""


class PuzzleError(Exception):
    """A mistake in the user's input (file, config key, board, cube ...).

    The message is printed as one line by the CLI, which then exits with status 2.
    """


class ConfigError(PuzzleError):
    """A bad value in config.yaml; the message names the key."""
