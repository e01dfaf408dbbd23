"""Hypothesis strategies for what may reach a function's HTTP endpoint.

Three layers, from noise to near-misses: raw bytes under any content type; structured-mode
JSON whose attributes have the wrong types or values; and well-formed binary-mode CloudEvents
whose type, extensions and data are drawn from the real ones, mutated (a field dropped, a value
of the wrong type, an object swapped for another's). Objects come from the settled fuzz world,
so near-misses reach the functions' API reads, not only the edge's checks.

Drawing is most of the fuzz's cost, so every strategy is built once, at import or once per
world, never inside a draw: a strategy built per draw is validated again each time (for the
recursive JSON values, a walk of the whole strategy tree), which cost more than the draw.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from hypothesis import strategies as st

from dhcpless.keys import EventType

Obj = dict[str, Any]

TYPES = [t.value for t in EventType] + ["dev.knative.sources.ping", "", "com.example.other"]
CONTENT_TYPES = [
    "application/cloudevents+json",
    "application/cloudevents-batch+json",
    "application/json",
    "text/plain",
    "",
]
EXTENSIONS = ("kind", "apiversion", "name", "namespace")
SOURCE = "https://10.96.0.1:443"
CE_HEADERS = ("ce-specversion", "ce-id", "ce-type", "ce-source", "ce-kind", "ce-name")


@dataclass(frozen=True)
class Request:
    """One POST: headers and body."""

    headers: dict[str, str]
    body: bytes


json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30)
some_header_text = st.text(
    st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=30
)
"""Non-empty: drawn so rather than filtered, so no draw is thrown away."""


def _raw(content_type: str, ce_headers: dict[str, str], body: bytes) -> Request:
    return Request({"content-type": content_type, **ce_headers}, body)


raw_bytes = st.builds(
    _raw,
    st.sampled_from(CONTENT_TYPES),
    st.dictionaries(st.sampled_from(CE_HEADERS), header_text, max_size=len(CE_HEADERS)),
    st.binary(max_size=512),
)
"""Any bytes, with a content type and maybe some binary-mode `ce-` headers."""

_ATTRIBUTES = st.fixed_dictionaries(
    {},
    optional={
        "specversion": st.one_of(st.just("1.0"), json_values),
        "id": st.one_of(st.text(min_size=1, max_size=10), json_values),
        "source": st.one_of(st.just(SOURCE), json_values),
        "type": st.one_of(st.sampled_from(TYPES), json_values),
        **{ext: st.one_of(st.text(max_size=12), json_values) for ext in EXTENSIONS},
        "data": json_values,
    },
)


def _structured(doc: Any) -> Request:
    return Request({"content-type": "application/cloudevents+json"}, json.dumps(doc).encode())


structured = st.builds(_structured, st.one_of(_ATTRIBUTES, json_values))
"""Structured mode: a JSON document of attributes with any types, or not an object."""

_NEAR_TYPES = st.sampled_from(TYPES[:-2] + TYPES[-1:])
_MUTATIONS = st.sampled_from(["keep", "drop", "junk", "meta-junk", "other"])
_META_KEYS = st.sampled_from(["annotations", "labels", "name", "uid", "namespace"])


@functools.cache
def _one_of(keys: tuple[str, ...]) -> st.SearchStrategy[str]:
    """One strategy per key set (the world has a few), built on first use."""
    return st.sampled_from(keys)


def _mutate(draw: st.DrawFn, obj: Obj) -> Any:
    """The object, or one top-level or metadata field dropped or replaced by junk."""
    choice = draw(_MUTATIONS)
    copy = json.loads(json.dumps(obj))
    if choice == "drop" and copy:
        copy.pop(draw(_one_of(tuple(sorted(copy)))))
    elif choice == "junk" and copy:
        copy[draw(_one_of(tuple(sorted(copy))))] = draw(json_values)
    elif choice == "meta-junk":
        copy.setdefault("metadata", {})[draw(_META_KEYS)] = draw(json_values)
    elif choice == "other":
        return draw(json_values)
    return copy


def _extensions(obj: Obj) -> dict[str, str]:
    meta = obj["metadata"]
    kind, version = obj["kind"], obj["apiVersion"]
    return {
        "kind": kind,
        "apiversion": version,
        "name": meta["name"],
        "namespace": meta["namespace"],
    }


@st.composite
def near_miss(draw: st.DrawFn, world: st.SearchStrategy[Obj]) -> Request:
    """A binary-mode CloudEvent about a real object, with one thing (or more) wrong."""
    obj = draw(world)
    true_ext = _extensions(obj)
    attributes: Obj = {"type": draw(_NEAR_TYPES), "source": SOURCE}
    for ext, value in true_ext.items():  # the true value, or any other non-empty text
        attributes[ext] = value if draw(st.booleans()) else draw(some_header_text)
    reference = {k: true_ext[k] for k in ("kind", "name", "namespace")}
    reference["apiVersion"] = true_ext["apiversion"]
    data = obj if draw(st.booleans()) else reference
    message = to_binary_event(CloudEvent(attributes=attributes, data=_mutate(draw, data)))
    return Request(dict(message.headers), message.body)


def inputs(world: Sequence[Obj]) -> st.SearchStrategy[Request]:
    return st.one_of(raw_bytes, structured, near_miss(st.sampled_from(world)))
