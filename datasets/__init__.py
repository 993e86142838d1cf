"""Datasets and transforms in torchvision's form (filled in by the datasets issue)."""
