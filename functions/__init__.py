"""The Knative functions: one package per function, each a thin parse -> decide -> act app."""
