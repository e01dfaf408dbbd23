"""Reading annotations from "related objects", the way CAPM3's getValueFromAnnotation does.

CAPM3 can read `fromAnnotation` / `fromPoolAnnotation` from the Machine, the
Metal3Machine or the BareMetalHost. Before provisioning only the BareMetalHost exists,
so the other two behave like CAPM3's nil objects.
"""

from __future__ import annotations

from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.netdata import FromAnnotation
from dhcpless.render.errors import RenderError

HOST_OBJECT = "baremetalhost"
ABSENT_OBJECTS = frozenset({"machine", "metal3machine"})


def annotation_value(ref: FromAnnotation, host: BareMetalHost) -> str:
    """The annotation's value on the host ("" when missing); other objects are errors."""
    kind = ref.object.lower()
    if kind == HOST_OBJECT:
        return host.annotations.get(ref.annotation, "")
    if kind in ABSENT_OBJECTS:
        raise RenderError(f"{ref.object} is nil but referenced in annotation {ref.annotation}")
    raise RenderError("unknown object type")
