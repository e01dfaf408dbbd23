"""Stand-ins that run the product's own logic rather than a model of the upstream's: the CAPM3
renderer (the product's renderer is CAPM3-identical, tested against CAPM3's tables), the
Ironic rules (the product's `validate_ironic`) and BMO's BMC driver table. They are the only
stand-ins that import more of the product than its models, keys and CRDs (an import contract
in `pyproject.toml`): what the world around the functions does there is, by construction, what
the product assumes it does, so a test through them checks the chain, not the upstream."""
