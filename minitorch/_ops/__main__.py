"""``python -m minitorch._ops``: rewrite the generated index blocks from the registry (see minitorch._core.registry)."""
from minitorch._core import registry as _registry

for path, names, indent in _registry.generated_files():
    print(("up to date: " if _registry.refresh(path, names, indent, write=True) else "rewrote: ") + path)
