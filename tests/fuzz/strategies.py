"""Hypothesis strategies for what may reach a function's HTTP endpoint.

Three layers, from noise to near-misses: raw bytes under any content type; structured-mode
JSON whose attributes have the wrong types or values; and well-formed binary-mode CloudEvents
whose type, extensions and data are drawn from the real ones, mutated (a field dropped, a value
of the wrong type, an object swapped for another's). Objects come from the settled fuzz world,
so near-misses reach the functions' API reads, not only the edge's checks.
"""

from __future__ import annotations

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


@st.composite
def raw_bytes(draw: st.DrawFn) -> Request:
    """Any bytes, with a content type and maybe some binary-mode `ce-` headers."""
    headers = {"content-type": draw(st.sampled_from(CONTENT_TYPES))}
    names = ["ce-specversion", "ce-id", "ce-type", "ce-source", "ce-kind", "ce-name"]
    for name in draw(st.lists(st.sampled_from(names), max_size=6, unique=True)):
        headers[name] = draw(header_text)
    return Request(headers, draw(st.binary(max_size=512)))


def _attributes() -> st.SearchStrategy[Obj]:
    base = {
        "specversion": st.one_of(st.just("1.0"), json_values),
        "id": st.one_of(st.text(min_size=1, max_size=10), json_values),
        "source": st.one_of(st.just("https://10.96.0.1:443"), json_values),
        "type": st.one_of(st.sampled_from(TYPES), json_values),
        **{ext: st.one_of(st.text(max_size=12), json_values) for ext in EXTENSIONS},
        "data": json_values,
    }
    return st.fixed_dictionaries({}, optional=base)


@st.composite
def structured(draw: st.DrawFn) -> Request:
    """Structured mode: a JSON document of attributes with any types, or not an object."""
    doc = draw(st.one_of(_attributes(), json_values))
    body = json.dumps(doc).encode()
    return Request({"content-type": "application/cloudevents+json"}, body)


def _mutate(draw: st.DrawFn, obj: Obj) -> Any:
    """The object, or one top-level or metadata field dropped or replaced by junk."""
    choice = draw(st.sampled_from(["keep", "drop", "junk", "meta-junk", "other"]))
    copy = json.loads(json.dumps(obj))
    if choice == "drop" and copy:
        copy.pop(draw(st.sampled_from(sorted(copy))))
    elif choice == "junk" and copy:
        copy[draw(st.sampled_from(sorted(copy)))] = draw(json_values)
    elif choice == "meta-junk":
        meta = copy.setdefault("metadata", {})
        key = draw(st.sampled_from(["annotations", "labels", "name", "uid", "namespace"]))
        meta[key] = draw(json_values)
    elif choice == "other":
        return draw(json_values)
    return copy


@st.composite
def near_miss(draw: st.DrawFn, world: Sequence[Obj]) -> Request:
    """A binary-mode CloudEvent about a real object, with one thing (or more) wrong."""
    obj = draw(st.sampled_from(world))
    meta = obj["metadata"]
    true_ext = {
        "kind": obj["kind"],
        "apiversion": obj["apiVersion"],
        "name": meta["name"],
        "namespace": meta["namespace"],
    }
    attributes: Obj = {
        "type": draw(st.sampled_from(TYPES[:-2] + TYPES[-1:])),
        "source": "https://10.96.0.1:443",
    }
    for ext, value in true_ext.items():
        attributes[ext] = draw(st.one_of(st.just(value), header_text.filter(bool)))
    reference = {**{k: true_ext[k] for k in ("kind", "name", "namespace")}}
    reference["apiVersion"] = true_ext["apiversion"]
    data = draw(st.sampled_from([obj, reference]))
    event = CloudEvent(attributes=attributes, data=_mutate(draw, data))
    message = to_binary_event(event)
    return Request(dict(message.headers), message.body)


def inputs(world: Sequence[Obj]) -> st.SearchStrategy[Request]:
    return st.one_of(raw_bytes(), structured(), near_miss(world))
