"""Package layout: models/ and datasets/ install as minitorch.models and minitorch.datasets, and weights/ (the
pretrained weights and their manifest.json, no Python code) as the data folder minitorch/weights/."""
from setuptools import find_packages, setup

SUBPACKAGES = {"models": "minitorch.models", "datasets": "minitorch.datasets"}

packages = find_packages(include=["minitorch", "minitorch.*"])
package_dir = {"minitorch": "minitorch", "minitorch.weights": "weights"}
for folder, name in SUBPACKAGES.items():
    package_dir[name] = folder
    packages += [name] + [f"{name}.{sub}" for sub in find_packages(folder)]
packages.append("minitorch.weights")

setup(packages=packages, package_dir=package_dir, include_package_data=True,
      package_data={"minitorch.weights": ["*.json", "*.safetensors", "*.md"]})
