"""``compsem inspect-tasks`` (``tasks``): every config of an export as Inspect AI tasks, which
``runtime`` builds from the export's Parquet with compsem's prompts and answer parsers."""
