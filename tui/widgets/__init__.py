"""Panels and small controls of the game screen."""
