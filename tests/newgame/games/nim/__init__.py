"""Nim: players take turns taking 1 to 3 counters from one pile; whoever takes the last counter wins."""
