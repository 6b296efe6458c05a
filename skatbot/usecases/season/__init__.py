"""The season table across evenings, and the statistics."""
