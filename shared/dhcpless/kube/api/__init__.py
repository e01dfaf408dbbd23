"""The typed surface the chain uses: `Kube` (generic operations over resource descriptors,
named calls on them) and the CAPI, CAPM3 and Namespace reads beside it."""
