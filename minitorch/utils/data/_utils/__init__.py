"""Helpers of the DataLoader: collation, fetching and what runs in the worker processes."""
