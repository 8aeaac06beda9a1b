"""Simulated players: seeded, making legal choices, for the demo, the bench and tests."""
