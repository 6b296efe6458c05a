"""skatbot: a Telegram score keeper for Skat (ISkO values, Seeger-Fabian lists, Preisskat)."""

__version__ = "0.1.0"
