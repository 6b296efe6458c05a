"""What every use case shares: the Command and Reply types, German texts, keyboards, name matching, the display setting, rich text and the checks of a place (who owns what, table lists)."""
