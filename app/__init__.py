"""Spite and Malice: a pure rules engine, a room server and a thin browser client."""
