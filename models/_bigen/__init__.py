"""BiGen's own code beside its model file (``models/bigen.py``): the knowledge bank, the text
encoders that embed it, and the ``pathreport bigen`` command that builds it.

The leading underscore keeps plug-in discovery from loading this folder as a model; ``bigen.py``
imports it relatively (``from ._bigen... import ...``), which works in any plug-in folder.
"""
