"""One module per command-line command; each has ``run(args) -> int``."""
