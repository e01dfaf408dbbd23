"""Knative Eventing stand-ins: ApiServerSource, Broker, Triggers, delivery, dead letters."""
