"""One log line per decision: what each action does, never Secret data."""

from __future__ import annotations

from dhcpless.chain.actions import (
    Action,
    CreateIPAddressClaim,
    CreateIPClaim,
    DeleteIPClaim,
    LendClaim,
    NudgeClaim,
    RecordEvent,
    ReleaseHost,
    WriteSecret,
)


def summary(action: Action) -> str:
    match action:
        case CreateIPClaim():
            return f"claim {action.namespace}/{action.name}"
        case WriteSecret() if action.replace is not None:
            return f"render again Secret {action.namespace}/{action.name}"
        case WriteSecret():
            return f"write Secret {action.namespace}/{action.name}"
        case ReleaseHost():
            return f"release with Secret {action.secret_name}"
        case RecordEvent():
            return f"{action.reason.severity} {action.reason}: {action.message}"
        case DeleteIPClaim():
            return f"delete claim {action.namespace}/{action.name}"
        case CreateIPAddressClaim():
            return f"claim {action.namespace}/{action.name} from {action.kind} {action.pool}"
        case LendClaim():
            return f"lend claim {action.namespace}/{action.name} to Metal3Data {action.data_name}"
        case NudgeClaim():
            return f"nudge claim {action.namespace}/{action.name} (its pool's Cluster exists now)"
