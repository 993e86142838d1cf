"""``python -m minitorch._ops``: rewrite the generated index blocks from the registry (see minitorch._registry)."""
from minitorch import _registry

for path, names, indent in _registry.generated_files():
    print(("up to date: " if _registry.refresh(path, names, indent, write=True) else "rewrote: ") + path)
