"""hexlan: Settlers of Catan-style board games in the terminal, with no trusted server."""
