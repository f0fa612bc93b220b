"""The social features' pure decisions: who quick match seats together, and the daily deal's rules."""
