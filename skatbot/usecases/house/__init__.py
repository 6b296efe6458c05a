"""House rules played on a list (Bock, Ramsch, health before a Ramsch)."""
