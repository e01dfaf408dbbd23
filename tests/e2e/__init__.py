"""End-to-end tests of the chain against the sandbox API server, and their reusable driver."""
