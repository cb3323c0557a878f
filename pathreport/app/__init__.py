"""The application: Hydra entry points (``train.py``, ``eval.py``), run folders and the
``pathreport``
command."""
