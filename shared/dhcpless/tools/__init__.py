"""What a person runs: the `dhcpless` command line and its tools (demo, bench, status, render,
kn-commands). No function imports this.
"""
