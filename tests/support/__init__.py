"""What tests and benchmarks share: a live gunicorn, an HTTP visitor, board diagrams."""
