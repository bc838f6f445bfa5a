"""Terminal front ends for The Number: a human-vs-AI game and an AI-only arena (no Discord)."""
