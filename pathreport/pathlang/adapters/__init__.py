"""Built-in VLM adapters, one file per model. Plug-in discovery imports every module in this folder
(names starting with ``_`` are helpers), so a new adapter is one new file here (or, outside the
repository, a package exposing the ``pathreport.vlms`` entry point)."""
