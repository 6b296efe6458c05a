"""Table stakes: /einsatz and the settlement of a list or an evening."""
