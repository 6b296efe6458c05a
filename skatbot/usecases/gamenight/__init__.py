"""Game nights planned in the chat: ``/spielabend Di 19:00`` (a poll), the votes, and the
closing that seats the yes-votes and starts their lists (docs/game-night.md)."""
