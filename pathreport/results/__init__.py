"""Benchmark results across runs: one tidy table, the paper's views, paired comparisons, figures.

* :mod:`~pathreport.results.store`: the results table (tidy rows, default ``results/results.csv``);
* :mod:`~pathreport.results.collect` and :mod:`~pathreport.results.wandb_runs`: gather run summaries
  from run folders, ``pathreport evaluate`` outputs, local W&B runs and W&B projects;
* :mod:`~pathreport.results.views` and :mod:`~pathreport.results.render`: method-wise and
  encoder-wise tables (mean ± std over seeds) in Markdown, LaTeX and CSV;
* :mod:`~pathreport.results.compare` and :mod:`~pathreport.results.stats`: paired bootstrap
  comparisons of two systems on the same slides;
* :mod:`~pathreport.results.figures`: METEOR vs CRQS scatter, CRQS bars by encoder, field recall.

Everything here imports pandas, matplotlib and wandb inside the functions that need them, so
``import pathreport.results`` stays cheap.
"""
