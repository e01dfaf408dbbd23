"""The embedded world: wiring every part together, functions as scale-to-zero processes, chaos."""
