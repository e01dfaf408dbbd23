"""A host whose BMC boots the ramdisk by PXE is never released (`chain.decide.bmc`).

Every scheme baremetal-operator registers (`pkg/hardwareutils/bmc/*.go` `RegisterFactory`,
with its `+http` / `+https` forms), the drivers it removed, and a few addresses it parses
its own way: each is served (virtual media) or refused with the reason, the driver, and the
virtual-media form of the address (or the words that BMO has none).
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.chain.actions import CreateIPClaim, RecordEvent, ReleaseHost
from dhcpless.chain.decide import decide
from dhcpless.chain.decide.bmc import refusal
from dhcpless.chain.facts import HostFacts
from dhcpless.chain.predicates.derived import pools_for
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.render.bmc_drivers import DRIVERS, BMCDriver, Boot, boot_of, scheme_of
from tests.support import objects
from tests.unit.test_functions_decide import OURS, found, secret

PXE, UNKNOWN = Reason.BMC_BOOTS_BY_PXE, Reason.UNKNOWN_BMC_DRIVER
NONE = "BMO has no virtual-media form"
SYS = "10.0.0.1/redfish/v1/Systems/1"


@pytest.mark.parametrize(
    ("address", "reason", "says"),
    [
        pytest.param(f"redfish-virtualmedia://{SYS}", None, "", id="redfish-virtualmedia"),
        pytest.param(f"redfish-virtualmedia+http://{SYS}", None, "", id="redfish-vm+http"),
        pytest.param(f"redfish-virtualmedia+https://{SYS}", None, "", id="redfish-vm+https"),
        pytest.param(f"idrac-virtualmedia://{SYS}", None, "", id="idrac-virtualmedia"),
        pytest.param(f"idrac-virtualmedia+https://{SYS}", None, "", id="idrac-vm+https"),
        pytest.param(f"ilo5-virtualmedia://{SYS}", None, "", id="ilo5-virtualmedia"),
        pytest.param(f"REDFISH-VirtualMedia://{SYS}", None, "", id="scheme-case"),
        pytest.param("", None, "", id="no-bmc-unmanaged"),
        pytest.param("ipmi://10.0.0.12", PXE, NONE, id="ipmi"),
        pytest.param("ipmi://10.0.0.12:6230", PXE, NONE, id="ipmi-port"),
        pytest.param("10.0.0.12", PXE, NONE, id="bare-host-is-ipmi"),
        pytest.param("10.0.0.12:623", PXE, NONE, id="host-port-is-ipmi"),
        pytest.param("[fd00::12]:623", PXE, NONE, id="ipv6-host-port-is-ipmi"),
        pytest.param("libvirt://192.168.122.1", PXE, NONE, id="libvirt"),
        pytest.param(f"redfish://{SYS}", PXE, f"redfish-virtualmedia://{SYS}", id="redfish"),
        pytest.param(
            f"redfish+http://{SYS}", PXE, f"redfish-virtualmedia+http://{SYS}", id="redfish+http"
        ),
        pytest.param(
            f"redfish+https://{SYS}", PXE, f"redfish-virtualmedia+https://{SYS}", id="redfish+https"
        ),
        pytest.param(
            f"ilo5-redfish://{SYS}", PXE, f"redfish-virtualmedia://{SYS}", id="ilo5-redfish"
        ),
        pytest.param(
            f"idrac-redfish://{SYS}", PXE, f"idrac-virtualmedia://{SYS}", id="idrac-redfish"
        ),
        pytest.param(
            f"idrac-redfish+http://{SYS}", PXE, f"idrac-virtualmedia+http://{SYS}", id="idrac+http"
        ),
        pytest.param(
            f"redfish-uefihttp://{SYS}", PXE, f"redfish-virtualmedia://{SYS}", id="uefihttp"
        ),
        pytest.param(
            "idrac://10.0.0.1",
            UNKNOWN,
            "idrac-virtualmedia://10.0.0.1 plus the Redfish",
            id="idrac",
        ),
        pytest.param("ilo4://10.0.0.1", UNKNOWN, NONE, id="ilo4"),
        pytest.param("ilo4-virtualmedia://10.0.0.1", UNKNOWN, NONE, id="ilo4-virtualmedia"),
        pytest.param("ilo5://10.0.0.1", UNKNOWN, "redfish-virtualmedia://10.0.0.1", id="ilo5"),
        pytest.param("irmc://10.0.0.1", UNKNOWN, NONE, id="irmc"),
        pytest.param("ibmc://10.0.0.1", UNKNOWN, NONE, id="ibmc"),
        pytest.param("ipmi+https://10.0.0.1", UNKNOWN, NONE, id="ipmi-has-no-carrier"),
        pytest.param("amt://10.0.0.1", UNKNOWN, NONE, id="unknown-scheme"),
        pytest.param("bmc.example:623", UNKNOWN, NONE, id="name-port-is-a-scheme-to-bmo"),
        pytest.param(
            f"redfish://admin@{SYS}", PXE, f"redfish-virtualmedia://{SYS}", id="no-user-info"
        ),
    ],
)
def test_every_bmo_scheme(address: str, reason: Reason | None, says: str) -> None:
    refused = refusal(address)
    if reason is None:
        assert refused is None
        return
    assert refused is not None
    got, message = refused
    assert got is reason
    assert f"BMC driver {scheme_of(address)}" in message and says in message
    assert "admin" not in message


@pytest.mark.parametrize("driver", [pytest.param(d, id=d.value) for d in BMCDriver])
def test_every_driver_has_a_row_and_virtual_media_only_is_served(driver: BMCDriver) -> None:
    row = DRIVERS[driver]
    served = refusal(f"{driver.value}://10.0.0.1") is None
    assert served is (row.boot is Boot.VIRTUAL_MEDIA)
    assert row.boot is not Boot.VIRTUAL_MEDIA or row.virtual_media is None
    assert row.virtual_media is None or DRIVERS[row.virtual_media].boot is Boot.VIRTUAL_MEDIA
    assert boot_of(f"{driver.value}://h")[1] is row.boot


def _host(address: str, **kwargs: Any) -> BareMetalHost:
    raw = objects.host(bmc=address, **kwargs)
    raw["metadata"] |= {"uid": "uid-1", "resourceVersion": "41"}
    return BareMetalHost.from_k8s(raw)


def _facts(host: BareMetalHost, existing: Any = None) -> HostFacts:
    template = found(objects.IPV4)
    return HostFacts(host, template=template, pools=pools_for(host, template), secret=existing)


@pytest.mark.parametrize(
    ("address", "claims"),
    [
        pytest.param("ipmi://10.0.0.12", False, id="ipmi-no-claims"),
        pytest.param(f"redfish-virtualmedia://{SYS}", True, id="virtual-media-claims"),
    ],
)
def test_a_pxe_host_gets_one_warning_and_no_claim(address: str, claims: bool) -> None:
    actions = decide(_facts(_host(address)))
    assert any(isinstance(a, CreateIPClaim) for a in actions) is claims
    if not claims:
        (only,) = actions
        assert isinstance(only, RecordEvent) and only.reason is PXE and "ipmi" in only.message


def test_a_pxe_host_naming_valid_data_is_not_released() -> None:
    text = objects.VALID_NETWORK_DATA
    named = _host("ipmi://10.0.0.12", data_name="mine")
    assert [type(a) for a in decide(_facts(named, secret("mine", text)))] == [RecordEvent]
    served = _host(f"redfish-virtualmedia://{SYS}", data_name=OURS)
    assert any(isinstance(a, ReleaseHost) for a in decide(_facts(served, secret(OURS, text))))
