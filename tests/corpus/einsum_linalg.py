"""Einsum and torch.linalg by hand: scaled dot-product attention, a least-squares fit, norms and a solve."""
import math

import numpy as np
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=4, sci_mode=False)
rng = np.random.default_rng(0)


def tensor(*shape, requires_grad=False):
    return torch.tensor(rng.standard_normal(shape), dtype=torch.float32, requires_grad=requires_grad)


# Attention with einsum: batch 2, 3 heads, 4 positions, head size 5
q, k, v = tensor(2, 3, 4, 5, requires_grad=True), tensor(2, 3, 4, 5), tensor(2, 3, 4, 5)
scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.size(-1))
mask = torch.triu(torch.ones(4, 4, dtype=torch.bool), diagonal=1)
scores = scores.masked_fill(mask, float("-inf"))
attn = F.softmax(scores, dim=-1)
out = torch.einsum("bhqk,bhkd->bhqd", attn, v)
print("attention:", tuple(out.shape), attn[0, 0])
merged = out.transpose(1, 2).reshape(2, 4, 15)
print("merged:", merged.shape, f"{merged.pow(2).mean().item():.4f}")
out.sum().backward()
print("q.grad norm:", f"{q.grad.norm().item():.4f}", "causal rows sum to one:", torch.allclose(attn.sum(-1), torch.ones(2, 3, 4)))
print("matmul agrees:", torch.allclose(out, attn @ v, atol=1e-6))

# einsum idioms
a, b = tensor(3, 4), tensor(4, 2)
print("trace:", f"{torch.einsum('ii', a[:, :3]).item():.4f}", f"{torch.trace(a[:, :3]).item():.4f}")
print("outer:", torch.einsum("i,j->ij", torch.arange(3.0), torch.arange(2.0)))
print("bilinear:", torch.einsum("bn,anm,bm->ba", tensor(2, 4), tensor(3, 4, 2), tensor(2, 2)))
print("ellipsis:", torch.einsum("...ij,...jk->...ik", a, b).shape, torch.einsum("ij->j", a))

# Least squares: fit y = X w with the normal equations
X = torch.cat([torch.ones(20, 1), tensor(20, 2)], dim=1)
w_true = torch.tensor([[0.5], [-1.0], [2.0]])
y = X @ w_true + 0.01 * tensor(20, 1)
w_normal = torch.linalg.solve(X.T @ X, X.T @ y)
print("normal equations:", w_normal.squeeze(1))
residual = y - X @ w_normal
print("residual orthogonal to X:", torch.allclose(X.T @ residual, torch.zeros(3, 1), atol=1e-4))
print("residual norm:", f"{torch.linalg.norm(residual).item():.4f}")

# Norms, determinants and an inverse
M = torch.tensor([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
print("norms:", torch.linalg.norm(M), torch.linalg.norm(M, dim=0), torch.linalg.vector_norm(M, ord=float("inf")))
print("det:", torch.linalg.det(M), "inv @ M == I:", torch.allclose(torch.linalg.inv(M) @ M, torch.eye(3), atol=1e-6))
sign, logabsdet = torch.linalg.slogdet(M)
print("slogdet:", sign, logabsdet, f"{math.log(18):.4f}")
L = torch.linalg.cholesky(M)
print("cholesky:", L, torch.allclose(L @ L.T, M))
rhs = torch.tensor([1.0, 2.0, 3.0])
print("solve:", torch.linalg.solve(M, rhs), torch.linalg.solve(M, rhs.unsqueeze(1), left=True).squeeze(1))
Mg = M.clone().requires_grad_()
torch.linalg.det(Mg).backward()
print("d det / dM:", Mg.grad)
