"""Stand-ins for the Metal3 world: BMO (with Ironic and the ramdisk), IPAM, CAPI IPAM, CAPM3."""
