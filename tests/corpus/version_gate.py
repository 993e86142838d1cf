# Style: the version checks of Hugging Face's import_utils and timm: read torch's version, pick a code path.
import importlib.metadata
import importlib.util

import torch
import torch.nn.functional as F
from packaging import version

_torch_available = importlib.util.find_spec("torch") is not None
_torch_version = importlib.metadata.version("torch") if _torch_available else "N/A"
print("torch available:", _torch_available, "version:", version.parse(_torch_version).base_version)
print("same as torch.__version__:", _torch_version == torch.__version__, str(torch.__version__) == _torch_version)


def is_torch_greater_or_equal(library_version: str) -> bool:
    return version.parse(version.parse(_torch_version).base_version) >= version.parse(library_version)


is_torch_greater_or_equal_than_2_0 = is_torch_greater_or_equal("2.0")
print("parsed >= 2.0:", is_torch_greater_or_equal_than_2_0, "| >= 3.0:", is_torch_greater_or_equal("3.0"))
print("TorchVersion compares with strings and tuples:", torch.__version__ >= "2.0", torch.__version__ < "2.10",
      torch.__version__ >= (2, 1), torch.__version__ > (1, 13, 1))
major, minor = (int(part) for part in torch.__version__.split(".")[:2])
print("major.minor:", major, minor, tuple(int(x) for x in torch.__version__.split("+")[0].split(".")) >= (2, 0, 0))
has_compile = hasattr(torch, "compile") and torch.__version__ >= "2.0"
has_sdpa = hasattr(F, "scaled_dot_product_attention")
print("compile:", has_compile, "sdpa:", has_sdpa)

torch.manual_seed(0)
q, k, v = (torch.randn(1, 2, 4, 8) for _ in range(3))
if has_sdpa:
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
else:
    mask = torch.ones(4, 4).tril() == 0
    att = (q @ k.transpose(-2, -1) / 8 ** 0.5).masked_fill(mask, float("-inf")).softmax(-1)
    out = att @ v
print(out.shape, out[0, 0, -1, :4])
use_fused = "fused" in torch.optim.AdamW.__init__.__code__.co_varnames
print("AdamW fused available:", use_fused)
