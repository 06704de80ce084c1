"""The sub-protocols a :class:`~hexlan.net.session.Session` runs (docs/PROTOCOL.md): each owns
its messages' handlers and its state, and describes what every seat owes it as
:class:`~hexlan.net.subprotocols.base.Step` values, from which the session derives both its stall
report and this seat's next message."""
