"""In-memory search structures rebuilt from the database: caches, never the source of truth."""
