"""LLM-judge machinery shared by the judge evaluators: backends, versioned prompts, parsing, cache.

A judge evaluator (``wsi_precision``, ``wsi_relevance``, ``path_errors``) renders a versioned prompt
file, sends the conversations to a registered judge backend (``pathreport list judge_backends``),
parses the answers as JSON against the prompt file's schema (repairing and re-asking a bounded
number of times) and caches every accepted answer on disk. A call that still fails is counted as a
judge failure and the case is left unscored; it is never scored as zero.
"""
