"""core/v1 Events: the recorder (what an Event says, its name) and the poster (off the
handler's path)."""
