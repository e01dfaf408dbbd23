"""Tests of the Containerfile entry command, deploy/, eventing/ and the func.yaml files."""
