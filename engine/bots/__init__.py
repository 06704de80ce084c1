"""engine/bots."""
