"""PathLang's four task families. Each module plans the score-table columns its prompts need,
then turns the scored table into metrics for every aggregation setting."""
