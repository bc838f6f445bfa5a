"""Messages en français."""
