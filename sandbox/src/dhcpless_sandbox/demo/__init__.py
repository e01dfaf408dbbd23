"""`dhcpless demo` and `dhcpless sandbox`: the whole chain on one machine, no cluster."""
