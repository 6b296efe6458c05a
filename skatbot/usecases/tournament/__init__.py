"""Preisskat tournaments: the desk, the tables' lists, teams, the cash (fees, prizes), access and the tournaments of a place."""
