"""`dhcpless bench`: a batch of hosts through the chain, measured against its floor."""
