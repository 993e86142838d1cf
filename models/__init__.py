"""Model architectures with torchvision's structure (filled in by the models issue)."""
