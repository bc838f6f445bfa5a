"""English messages."""
