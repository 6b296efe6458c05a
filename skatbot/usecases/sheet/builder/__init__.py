"""The game builder: a message with buttons that assembles one game step by step."""
