"""An evening: the series linked by /weiter on one day (/abend)."""
