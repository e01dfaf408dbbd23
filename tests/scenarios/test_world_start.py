"""The world's event source is watching before `start` returns (issue 12: in about 1 of 5
runs of `dhcpless demo --hosts 20`, objects created right after start were in the source's
initial LIST, which an ApiServerSource does not replay, so ipclaim-fulfilment got no event
and every host waited for resync)."""

from __future__ import annotations

from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings


def test_source_is_synced_when_start_returns() -> None:
    world = World(WorldSettings())
    world.start()
    try:
        assert world.source.wait_synced(0)
        world.restart_event_source()
        assert world.source.wait_synced(0)
    finally:
        world.stop()
