"""Network-data formats: what a Secret holds for each `keys.NETWORK_DATA_FORMAT_ANNOTATION`.

One module per format, one `NetworkFormat` (`base`) each, listed once in `registry`: every
place that branches on the format (render, shape checks, the release checks, status) asks the
registry, so a new format is its module plus one registry line.
"""
