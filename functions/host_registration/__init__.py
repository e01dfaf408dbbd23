"""host-registration: a paused BareMetalHost gets its IPClaims (or its Secret at once)."""
