"""What the guides say about upstream behaviour users meet, kept where users read it.

BMO's built-in PreprovisioningImage provider ignores network data (baremetal-operator
`pkg/imageprovider/default.go`, `envImageProvider.BuildImage` takes its `NetworkData` as `_`),
so `--build-preprov-image` without an external builder boots the ramdisk with no static network.
"""

from __future__ import annotations

import pytest

from .support import ROOT


@pytest.mark.parametrize("doc", [pytest.param("README.md", id="readme"),
                                 pytest.param("docs/deploy.md", id="deploy-guide")])  # fmt: skip
def test_the_built_in_image_provider_ignoring_network_data_is_said(doc: str) -> None:
    text = " ".join((ROOT / doc).read_text().split())
    assert "built-in PreprovisioningImage provider ignores network data" in text
    assert "pkg/imageprovider/default.go" in text and "--build-preprov-image" in text
