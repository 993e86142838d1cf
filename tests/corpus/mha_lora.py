# Style: loralib/open_clip-style code that subclasses nn.MultiheadAttention and swaps its projections.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.activation import MultiheadAttention
from torch.nn.modules.linear import NonDynamicallyQuantizableLinear

torch.manual_seed(7)


class LoRALinear(NonDynamicallyQuantizableLinear):
    """out_proj with a low-rank update B @ A, the base weight frozen."""

    def __init__(self, in_features, out_features, r=2, lora_alpha=4, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.lora_A = nn.Parameter(self.weight.new_zeros((r, in_features)))
        self.lora_B = nn.Parameter(self.weight.new_zeros((out_features, r)))
        self.scaling = lora_alpha / r
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        self.weight.requires_grad = False

    def merged_weight(self):
        return self.weight + self.lora_B @ self.lora_A * self.scaling

    def forward(self, x):
        return nn.functional.linear(x, self.merged_weight(), self.bias)


class LoRAMultiheadAttention(MultiheadAttention):
    def __init__(self, embed_dim, num_heads, r=2, **kwargs):
        super().__init__(embed_dim, num_heads, **kwargs)
        self.out_proj = LoRALinear(embed_dim, embed_dim, r=r)
        self.in_proj_weight.requires_grad = False

    def forward(self, query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None):
        # MultiheadAttention reads out_proj.weight directly, so the merged weight is passed in by hand
        query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        out, weights = F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            self.bias_k, self.bias_v, self.add_zero_attn, self.dropout, self.out_proj.merged_weight(),
            self.out_proj.bias, training=self.training, key_padding_mask=key_padding_mask,
            need_weights=need_weights, attn_mask=attn_mask)
        return out.transpose(0, 1), weights


embed_dim, num_heads = 8, 2
attn = LoRAMultiheadAttention(embed_dim, num_heads, batch_first=True)
print(attn)
print(isinstance(attn.out_proj, nn.Linear), type(attn.out_proj).__mro__[1].__module__)
trainable = [n for n, p in attn.named_parameters() if p.requires_grad]
print("trainable:", trainable)
print("state_dict keys:", list(attn.state_dict().keys()))

x = torch.randn(3, 5, embed_dim)
target = torch.randn(3, 5, embed_dim)
key_padding_mask = torch.tensor([[False] * 5, [False] * 4 + [True], [False] * 3 + [True] * 2])
optimizer = torch.optim.AdamW([p for p in attn.parameters() if p.requires_grad], lr=0.05)
for step in range(5):
    out, weights = attn(x, x, x, key_padding_mask=key_padding_mask)
    loss = F.mse_loss(out, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f} lora_B norm {attn.out_proj.lora_B.norm().item():.4f}")
print(weights.shape, weights[2, 0], attn.in_proj_weight.grad)
with torch.no_grad():
    out, _ = attn(x, x, x, need_weights=False)
    merged = attn.out_proj.merged_weight()
    plain = nn.MultiheadAttention(embed_dim, num_heads, batch_first=True)
    plain.load_state_dict({k: v for k, v in attn.state_dict().items() if "lora" not in k})
    plain.out_proj.weight.copy_(merged)
    print("merged matches:", torch.allclose(plain(x, x, x, need_weights=False)[0], out, atol=1e-5))
