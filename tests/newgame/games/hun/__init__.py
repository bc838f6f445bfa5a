"""Highest unique number: each round every player secretly picks a number; the highest one nobody else picked
scores its value."""
