"""Allow `python -m puzzlesearch` (used by the Snakemake rules)."""

from puzzlesearch.cli import main

raise SystemExit(main())
