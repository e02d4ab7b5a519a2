"""Figures and summaries of the pipeline's results (`puzzlesearch report ...`, `snakemake --report`).

data.py holds the numbers a figure shows (pure functions of the result files, tested
against independent facts); plots.py draws them with matplotlib (Agg, offline);
targets.py names the report files the workflow builds; summary.py is the short text
printed at the end of a successful `snakemake` run.
"""
