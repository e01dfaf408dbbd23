"""The network-data formats, one table row each (`render.formats.registry`).

Each row says what a format is: the Secret keys it writes, whether it can work without and
with a PreprovisioningImage builder, and whether a Secret in it is judged by the pre-unpause
rules or accepted only from us. The table must name every registered format (a new format
adds its row), and each format's shape check accepts what it writes.
"""

from __future__ import annotations

import pytest

from dhcpless import keys
from dhcpless.keys import NetworkDataFormat
from dhcpless.render.formats import registry
from dhcpless.render.formats.base import load
from tests.support import objects

ROWS = [
    pytest.param(
        NetworkDataFormat.OPENSTACK, {"networkData"}, (True, False), False, id="openstack"
    ),
    pytest.param(
        NetworkDataFormat.NMSTATE, {"networkData", "nmstate"}, (True, True), False, id="nmstate"
    ),
    pytest.param(
        NetworkDataFormat.NMSTATE_IN_NETWORK_DATA, {"networkData"}, (False, True), True, id="in-nd"
    ),
]


def test_the_table_has_a_row_per_registered_format() -> None:
    assert [row.values[0] for row in ROWS] == list(registry.FORMATS)
    assert list(registry.FORMATS) == [f.value for f in NetworkDataFormat]


@pytest.mark.parametrize(("name", "secret_keys", "works", "foreign"), ROWS)
def test_a_format(
    name: str, secret_keys: set[str], works: tuple[bool, bool], foreign: bool
) -> None:
    fmt = registry.lookup(name)
    assert fmt is not None and fmt.name == name
    texts = fmt.texts(load(objects.VALID_NETWORK_DATA))
    assert set(texts) == secret_keys
    assert (fmt.unworkable(False) is None, fmt.unworkable(True) is None) == works
    assert (fmt.foreign is not None) == foreign
    trouble, document = fmt.shape(texts[keys.NETWORK_DATA_KEY])
    assert trouble is None
    assert (document is None) == foreign  # the rules read what is not foreign-only


@pytest.mark.parametrize("name", [pytest.param(n, id=n) for n in registry.FORMATS])
def test_a_format_refuses_data_of_no_shape(name: str) -> None:
    fmt = registry.lookup(name)
    assert fmt is not None
    trouble, document = fmt.shape("[1, 2]")
    assert trouble and document is None


def test_an_unregistered_name_has_no_format() -> None:
    assert registry.lookup("yaml") is None
    assert registry.DEFAULT is registry.lookup(NetworkDataFormat.OPENSTACK)
