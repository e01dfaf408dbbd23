"""resync: a PingSource tick re-drives every paused host, so lost events are harmless."""
