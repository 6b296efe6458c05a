"""Use cases: ``Command -> Reply`` functions without Telegram types."""
