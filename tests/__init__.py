"""The suite: engine tests (no Django), Django tests, browser and live-server tests."""
