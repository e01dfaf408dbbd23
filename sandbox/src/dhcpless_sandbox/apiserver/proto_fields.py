"""Field names and numbers of the protobuf messages the sandbox decodes (facts, not code).

Taken from upstream's generated.proto files: k8s.io/apimachinery `pkg/runtime` and
`pkg/apis/meta/v1`; k8s.io/api `core/v1`, `events/v1`, `authorization/v1`, `authentication/v1`
and `rbac/v1`. Field spec:
`(name, number, type)`; a type is a scalar (`string`, `bool`, `int32`, `int64`, `bytes`), another
message of this table, `*T` for a repeated field or `{T}` for `map<string, T>`. Messages in one
table share one namespace, so events/v1 Event is `EventsV1Event`.
"""

from __future__ import annotations

Field = tuple[str, int, str]

_OBJECT_REFERENCE: tuple[Field, ...] = (
    ("kind", 1, "string"),
    ("namespace", 2, "string"),
    ("name", 3, "string"),
    ("uid", 4, "string"),
    ("apiVersion", 5, "string"),
    ("resourceVersion", 6, "string"),
    ("fieldPath", 7, "string"),
)
_TIME: tuple[Field, ...] = (("seconds", 1, "int64"), ("nanos", 2, "int32"))

MESSAGES: dict[str, tuple[Field, ...]] = {
    # k8s.io/apimachinery/pkg/runtime
    "TypeMeta": (("apiVersion", 1, "string"), ("kind", 2, "string")),
    "Unknown": (
        ("typeMeta", 1, "TypeMeta"),
        ("raw", 2, "bytes"),
        ("contentEncoding", 3, "string"),
        ("contentType", 4, "string"),
    ),
    # k8s.io/apimachinery/pkg/apis/meta/v1
    "Time": _TIME,
    "MicroTime": _TIME,
    "FieldsV1": (("Raw", 1, "bytes"),),
    "OwnerReference": (
        ("kind", 1, "string"),
        ("name", 3, "string"),
        ("uid", 4, "string"),
        ("apiVersion", 5, "string"),
        ("controller", 6, "bool"),
        ("blockOwnerDeletion", 7, "bool"),
    ),
    "ManagedFieldsEntry": (
        ("manager", 1, "string"),
        ("operation", 2, "string"),
        ("apiVersion", 3, "string"),
        ("time", 4, "Time"),
        ("fieldsType", 6, "string"),
        ("fieldsV1", 7, "FieldsV1"),
        ("subresource", 8, "string"),
    ),
    "ObjectMeta": (
        ("name", 1, "string"),
        ("generateName", 2, "string"),
        ("namespace", 3, "string"),
        ("selfLink", 4, "string"),
        ("uid", 5, "string"),
        ("resourceVersion", 6, "string"),
        ("generation", 7, "int64"),
        ("creationTimestamp", 8, "Time"),
        ("deletionTimestamp", 9, "Time"),
        ("deletionGracePeriodSeconds", 10, "int64"),
        ("labels", 11, "{string}"),
        ("annotations", 12, "{string}"),
        ("ownerReferences", 13, "*OwnerReference"),
        ("finalizers", 14, "*string"),
        ("managedFields", 17, "*ManagedFieldsEntry"),
    ),
    "Preconditions": (("uid", 1, "string"), ("resourceVersion", 2, "string")),
    "DeleteOptions": (
        ("gracePeriodSeconds", 1, "int64"),
        ("preconditions", 2, "Preconditions"),
        ("orphanDependents", 3, "bool"),
        ("propagationPolicy", 4, "string"),
        ("dryRun", 5, "*string"),
        ("ignoreStoreReadErrorWithClusterBreakingPotential", 6, "bool"),
    ),
    # k8s.io/api/core/v1
    "ObjectReference": _OBJECT_REFERENCE,
    "LocalObjectReference": (("name", 1, "string"),),
    "NamespaceSpec": (("finalizers", 1, "*string"),),
    "NamespaceCondition": (
        ("type", 1, "string"),
        ("status", 2, "string"),
        ("lastTransitionTime", 4, "Time"),
        ("reason", 5, "string"),
        ("message", 6, "string"),
    ),
    "NamespaceStatus": (("phase", 1, "string"), ("conditions", 2, "*NamespaceCondition")),
    "Namespace": (
        ("metadata", 1, "ObjectMeta"),
        ("spec", 2, "NamespaceSpec"),
        ("status", 3, "NamespaceStatus"),
    ),
    "Secret": (
        ("metadata", 1, "ObjectMeta"),
        ("data", 2, "{bytes}"),
        ("type", 3, "string"),
        ("stringData", 4, "{string}"),
        ("immutable", 5, "bool"),
    ),
    "ConfigMap": (
        ("metadata", 1, "ObjectMeta"),
        ("data", 2, "{string}"),
        ("binaryData", 3, "{bytes}"),
        ("immutable", 4, "bool"),
    ),
    "ServiceAccount": (
        ("metadata", 1, "ObjectMeta"),
        ("secrets", 2, "*ObjectReference"),
        ("imagePullSecrets", 3, "*LocalObjectReference"),
        ("automountServiceAccountToken", 4, "bool"),
    ),
    "EventSource": (("component", 1, "string"), ("host", 2, "string")),
    "EventSeries": (("count", 1, "int32"), ("lastObservedTime", 2, "MicroTime")),
    "Event": (
        ("metadata", 1, "ObjectMeta"),
        ("involvedObject", 2, "ObjectReference"),
        ("reason", 3, "string"),
        ("message", 4, "string"),
        ("source", 5, "EventSource"),
        ("firstTimestamp", 6, "Time"),
        ("lastTimestamp", 7, "Time"),
        ("count", 8, "int32"),
        ("type", 9, "string"),
        ("eventTime", 10, "MicroTime"),
        ("series", 11, "EventSeries"),
        ("action", 12, "string"),
        ("related", 13, "ObjectReference"),
        ("reportingComponent", 14, "string"),
        ("reportingInstance", 15, "string"),
    ),
    # k8s.io/api/events/v1 (its EventSeries has the same fields as core/v1's)
    "EventsV1Event": (
        ("metadata", 1, "ObjectMeta"),
        ("eventTime", 2, "MicroTime"),
        ("series", 3, "EventSeries"),
        ("reportingController", 4, "string"),
        ("reportingInstance", 5, "string"),
        ("action", 6, "string"),
        ("reason", 7, "string"),
        ("regarding", 8, "ObjectReference"),
        ("related", 9, "ObjectReference"),
        ("note", 10, "string"),
        ("type", 11, "string"),
        ("deprecatedSource", 12, "EventSource"),
        ("deprecatedFirstTimestamp", 13, "Time"),
        ("deprecatedLastTimestamp", 14, "Time"),
        ("deprecatedCount", 15, "int32"),
    ),
    # k8s.io/api/authorization/v1 (selector attributes are not decoded: raw selectors only)
    "ResourceAttributes": (
        ("namespace", 1, "string"),
        ("verb", 2, "string"),
        ("group", 3, "string"),
        ("version", 4, "string"),
        ("resource", 5, "string"),
        ("subresource", 6, "string"),
        ("name", 7, "string"),
    ),
    "NonResourceAttributes": (("path", 1, "string"), ("verb", 2, "string")),
    "SelfSubjectAccessReviewSpec": (
        ("resourceAttributes", 1, "ResourceAttributes"),
        ("nonResourceAttributes", 2, "NonResourceAttributes"),
    ),
    "SelfSubjectAccessReview": (
        ("metadata", 1, "ObjectMeta"),
        ("spec", 2, "SelfSubjectAccessReviewSpec"),
    ),
    "SelfSubjectRulesReviewSpec": (("namespace", 1, "string"),),
    "SelfSubjectRulesReview": (
        ("metadata", 1, "ObjectMeta"),
        ("spec", 2, "SelfSubjectRulesReviewSpec"),
    ),
    # k8s.io/api/authentication/v1 (what `kubectl create token` sends)
    "BoundObjectReference": (
        ("kind", 1, "string"),
        ("apiVersion", 2, "string"),
        ("name", 3, "string"),
        ("uid", 4, "string"),
    ),
    "TokenRequestSpec": (
        ("audiences", 1, "*string"),
        ("boundObjectRef", 3, "BoundObjectReference"),
        ("expirationSeconds", 4, "int64"),
    ),
    "TokenRequest": (("metadata", 1, "ObjectMeta"), ("spec", 2, "TokenRequestSpec")),
    # k8s.io/api/rbac/v1 (what `kubectl create role|rolebinding|...` sends)
    "PolicyRule": (
        ("verbs", 1, "*string"),
        ("apiGroups", 2, "*string"),
        ("resources", 3, "*string"),
        ("resourceNames", 4, "*string"),
        ("nonResourceURLs", 5, "*string"),
    ),
    "Subject": (
        ("kind", 1, "string"),
        ("apiGroup", 2, "string"),
        ("name", 3, "string"),
        ("namespace", 4, "string"),
    ),
    "RoleRef": (("apiGroup", 1, "string"), ("kind", 2, "string"), ("name", 3, "string")),
    "Role": (("metadata", 1, "ObjectMeta"), ("rules", 2, "*PolicyRule")),
    "ClusterRole": (("metadata", 1, "ObjectMeta"), ("rules", 2, "*PolicyRule")),
    "RoleBinding": (
        ("metadata", 1, "ObjectMeta"),
        ("subjects", 2, "*Subject"),
        ("roleRef", 3, "RoleRef"),
    ),
    "ClusterRoleBinding": (
        ("metadata", 1, "ObjectMeta"),
        ("subjects", 2, "*Subject"),
        ("roleRef", 3, "RoleRef"),
    ),
}
