"""The rules pages (one Markdown file per game), installed as ``hexlan.rules`` so the app can
show the current game's page (tui/screens/rules.py); this folder holds no code."""
