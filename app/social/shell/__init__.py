"""The social features' I/O: player channels on the bus, the quick-match loop, chat hidden by
blocks, invitation notices."""
