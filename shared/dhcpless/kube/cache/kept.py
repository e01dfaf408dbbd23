"""What the watch cache keeps of each object: the fields the chain reads, no more (issue 28).

A cached object is held for as long as it exists, so every byte of it is paid once per object
of the fleet: at 5,000 hosts ipclaim-fulfilment's cache held 5,000 whole IPAddresses (their
`managedFields` alone larger than the rest) and each function an IPPool whose `status.indexes`
and `managedFields` name every claim. What the chain reads of a cached object:

* every kind: `metadata` but its `managedFields` and kubectl's last-applied copy, `spec`;
* IPPools: no `status` (the one read of a pool's status, `chain.hints.Rooms`, is on the event's
  own object, and `get_pool` reads directly), no `spec.preAllocations` (nothing reads them);
* IPAddresses: `spec` and the metadata the watch cache's checks need (name, namespace, UID,
  resourceVersion, ownerReferences: `chain.gather.lookup.made_for`), and only the most recent
  `ADDRESS_LIMIT` of them: the copy the chain wants is the one IPAM made for a claim it just
  answered, and a name the cache does not hold is read directly (`kube.api.cached.cached_find`),
  so an older address costs one read, never a wrong answer. They are held packed (`Packer`):
  compact JSON, deflated against the first address the cache packed, unpacked on read. A dict
  of dicts costs five times the compact JSON's bytes, and that JSON six times the deflated
  bytes: the addresses of one pool share every string but their names, UIDs and IP.
"""

from __future__ import annotations

import json
import sys
import zlib
from collections.abc import Callable
from typing import Any, Final

from dhcpless import keys
from dhcpless.kube.api import resources as r
from dhcpless.kube.api.resources import Raw, Resource

Keep = Callable[[Raw], Raw]
ADDRESS_LIMIT: Final = 4096
"""IPAddresses held, the most recently added or changed: more than the claims a batch has in
flight between IPAM's answer and its event's delivery (a 2,000-host batch under the
synchronous broker had more than 1,024), packed (`Packer`: about 100 bytes each)."""
ADDRESS_META: Final = ("name", "namespace", "uid", "resourceVersion", "ownerReferences")
INTERNED: Final = ("namespace", "apiVersion", "kind")
"""Strings every object repeats: one copy each (`sys.intern`)."""


def _meta(obj: Raw, only: tuple[str, ...] | None = None) -> dict[str, Any]:
    meta = dict(obj.get("metadata") or {})
    meta.pop("managedFields", None)
    if only is not None:
        meta = {k: v for k, v in meta.items() if k in only}
    annotations = meta.get("annotations")
    if isinstance(annotations, dict) and keys.LAST_APPLIED_ANNOTATION in annotations:
        meta["annotations"] = {
            k: v for k, v in annotations.items() if k != keys.LAST_APPLIED_ANNOTATION
        }
    for key in INTERNED:
        if isinstance(meta.get(key), str):
            meta[key] = sys.intern(meta[key])
    return meta


def _head(obj: Raw) -> dict[str, Any]:
    return {k: sys.intern(obj[k]) for k in ("apiVersion", "kind") if isinstance(obj.get(k), str)}


def slim(obj: Raw) -> Raw:
    """Metadata without field owners or kubectl's copy, and the spec: any cached kind."""
    return {**_head(obj), "metadata": _meta(obj), "spec": obj.get("spec") or {}}


def pool(obj: Raw) -> Raw:
    spec = {k: v for k, v in (obj.get("spec") or {}).items() if k != "preAllocations"}
    return {**_head(obj), "metadata": _meta(obj), "spec": spec}


def address(obj: Raw) -> Raw:
    return {**_head(obj), "metadata": _meta(obj, ADDRESS_META), "spec": obj.get("spec") or {}}


_BY_PLURAL: Final[dict[tuple[str, str], Keep]] = {
    (r.IPPOOLS.group, r.IPPOOLS.plural): pool,
    (r.IPADDRESSES.group, r.IPADDRESSES.plural): address,
}
_LIMITS: Final[dict[tuple[str, str], int]] = {
    (r.IPADDRESSES.group, r.IPADDRESSES.plural): ADDRESS_LIMIT
}


def pack(obj: Raw) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


class Packer:
    """One informer's packing: compact JSON deflated (raw deflate, zlib) against a preset
    dictionary, the first object it packed, kept for the informer's life. About 100 bytes an
    IPAddress instead of 670, for some 10 µs a pack and an unpack."""

    def __init__(self) -> None:
        self.dictionary = b""

    def pack(self, obj: Raw) -> bytes:
        """Call under the informer's lock (the first call sets the dictionary)."""
        text = pack(obj)
        self.dictionary = self.dictionary or text
        deflate = zlib.compressobj(6, zlib.DEFLATED, -15, zdict=self.dictionary)
        return deflate.compress(text) + deflate.flush()

    def unpack(self, held: Raw | bytes) -> Raw:
        """A held object as the reader wants it (a packed one decoded afresh: never shared)."""
        if isinstance(held, bytes):
            inflate = zlib.decompressobj(-15, zdict=self.dictionary)
            loaded: Raw = json.loads(inflate.decompress(held) + inflate.flush())
            return loaded
        return held


def keep_for(res: Resource[Any]) -> Keep:
    """What the cache keeps of each object of `res`."""
    return _BY_PLURAL.get((res.group, res.plural), slim)


def limit_for(res: Resource[Any]) -> int | None:
    """How many objects of `res` the cache holds (None: all; then absence means absence)."""
    return _LIMITS.get((res.group, res.plural))
