"""Screens and dialogs of the app."""
