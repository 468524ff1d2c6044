"""Hand-written source material for the bundled curated dataset (see ../build_curated.py)."""
