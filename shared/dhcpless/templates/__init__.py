"""Which template applies to a host (pure): the annotation, else CAPM3 hostSelectors."""
