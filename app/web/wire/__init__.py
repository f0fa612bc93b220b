"""Wire schemas: each socket message and REST body as one pydantic model (from which
`static/types.js` is generated, by scripts/gen_types.py)."""
