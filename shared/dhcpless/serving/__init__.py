"""What a function pod runs around the chain: CloudEvent parsing, the Flask app and error map,
the in-process retry, the gunicorn entry points.
"""
