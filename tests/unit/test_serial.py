"""`chain.serial.PerKey`: runs of one key wait for each other, other keys never wait, and
nothing is kept once every run is done."""

from __future__ import annotations

import threading

from dhcpless.chain.serial import PerKey
from tests.support.waits import event_set, seconds


def test_one_key_waits_other_keys_do_not_and_nothing_is_kept() -> None:
    locks = PerKey()
    inside, release, second_in, other_in = (threading.Event() for _ in range(4))

    def hold() -> None:
        with locks.one(("ns", "a")):
            inside.set()
            release.wait(seconds(30))

    def enter(key: tuple[str, str], entered: threading.Event) -> None:
        with locks.one(key):
            entered.set()

    first = threading.Thread(target=hold)
    first.start()
    event_set(inside, 10, "the first run")
    same = threading.Thread(target=enter, args=(("ns", "a"), second_in))
    other = threading.Thread(target=enter, args=(("ns", "b"), other_in))
    same.start()
    other.start()
    event_set(other_in, 10, "another key's run")  # another host never waits
    assert not second_in.is_set()  # the same host waits while the first runs
    release.set()
    event_set(second_in, 10, "the second run of the key")
    for thread in (first, same, other):
        thread.join(seconds(10))
    assert len(locks) == 0
