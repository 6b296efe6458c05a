"""The score sheet: /neu, /spiel and the other list commands, booking, the pinned standings, edits, buttons, the calculator, pictures; the game builder in builder/."""
