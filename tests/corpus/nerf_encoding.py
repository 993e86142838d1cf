# Style: NeRF's positional encoding (nerf-pytorch's Embedder) and a tiny coordinate MLP fitting a 1-D signal.
import torch
import torch.nn as nn

torch.manual_seed(0)
print(f"pi {torch.pi:.6f} e {torch.e:.6f} inf {torch.inf} nan {torch.nan} newaxis {torch.newaxis}")


class Embedder:
    def __init__(self, num_freqs, include_input=True, log_sampling=True):
        max_freq = num_freqs - 1
        if log_sampling:
            self.freq_bands = 2.0 ** torch.linspace(0.0, max_freq, steps=num_freqs)
        else:
            self.freq_bands = torch.linspace(2.0 ** 0.0, 2.0 ** max_freq, steps=num_freqs)
        self.include_input = include_input
        self.out_dim = (1 + 2 * num_freqs) if include_input else 2 * num_freqs

    def embed(self, x):
        scaled = torch.pi * x[..., torch.newaxis] * self.freq_bands  # (N, 1) -> (N, 1, F)
        parts = [torch.sin(scaled), torch.cos(scaled)]
        if self.include_input:
            parts.insert(0, x[..., None])
        return torch.cat(parts, dim=-1).flatten(1)


embedder = Embedder(num_freqs=4)
x = torch.linspace(-1, 1, 64)[:, None]
target = torch.sin(3 * torch.pi * x) * torch.exp(-x ** 2 / torch.e)
features = embedder.embed(x)
print("embedding", features.shape, embedder.out_dim, features[1, :5])

model = nn.Sequential(nn.Linear(features.shape[1], 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(60):
    loss = ((model(features) - target) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        psnr = -10.0 * torch.log10(loss.detach())
        print(f"step {step:2d} loss {loss.item():.5f} psnr {psnr.item():.2f}")

# masks and guards with the module constants
scores = torch.randn(4, 4)
causal = torch.triu(torch.full((4, 4), -torch.inf), diagonal=1)
probs = torch.softmax(scores + causal, dim=-1)
print(probs[1], torch.isinf(causal).sum().item())
ratios = torch.tensor([1.0, 0.0, -1.0]) / torch.tensor([0.0, 0.0, 0.0])
print(ratios, torch.nan_to_num(ratios, nan=0.0, posinf=torch.pi, neginf=-torch.pi))
best = torch.inf
for value in [3.5, 2.25, 2.75]:
    best = min(best, value)
angles = torch.atan2(torch.tensor([1.0, -1.0]), torch.tensor([0.0, 0.0])) / torch.pi
print(best, angles, torch.tensor(torch.e).log().item(), torch.full((2,), torch.nan).isnan().all().item())
