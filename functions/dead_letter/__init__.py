"""dead-letter: the sink every Trigger's delivery falls back to (see app.py)."""
