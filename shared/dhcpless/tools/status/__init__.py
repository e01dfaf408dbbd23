"""`dhcpless status`: read the hosts, work out each one's phase, print it."""
