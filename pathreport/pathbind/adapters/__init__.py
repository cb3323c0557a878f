"""Model-family adapters for PathBind, one file per family.

Plug-in discovery imports every module in this folder whose name does not start with ``_``; each
registers its named models in ``pathreport.registry.GENERATIVE_VLMS``: adding a family is adding one
file. Adapters import transformers and Pillow only when a model is built, so discovery stays cheap.
Third-party adapters can also come from installed packages through the
``pathreport.generative_vlms`` entry-point group.
"""
