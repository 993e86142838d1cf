"""A variational autoencoder on synthetic data: the reparameterisation by hand, then with torch.distributions."""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim
from torch.distributions import Normal, kl_divergence
from torch.utils.data import DataLoader, TensorDataset

torch.set_printoptions(precision=4)
rng = np.random.default_rng(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# 12-dimensional points in [0, 1] near a 2-dimensional curve
t = rng.uniform(0, 1, (256, 2))
data = 1 / (1 + np.exp(-(t @ rng.standard_normal((2, 12)) * 2))) + 0.02 * rng.standard_normal((256, 12))
data = torch.tensor(np.clip(data, 0, 1), dtype=torch.float32)
loader = DataLoader(TensorDataset(data), batch_size=64, shuffle=False)


class VAE(nn.Module):
    def __init__(self, d=12, hidden=16, latent=2):
        super().__init__()
        self.fc1 = nn.Linear(d, hidden)
        self.fc21 = nn.Linear(hidden, latent)
        self.fc22 = nn.Linear(hidden, latent)
        self.fc3 = nn.Linear(latent, hidden)
        self.fc4 = nn.Linear(hidden, d)

    def encode(self, x):
        h1 = F.relu(self.fc1(x))
        return self.fc21(h1), self.fc22(h1)

    def reparameterize(self, mu, logvar, eps):
        std = torch.exp(0.5 * logvar)
        return mu + eps * std

    def decode(self, z):
        return torch.sigmoid(self.fc4(F.relu(self.fc3(z))))

    def forward(self, x, eps):
        mu, logvar = self.encode(x)
        return self.decode(self.reparameterize(mu, logvar, eps)), mu, logvar


def loss_function(recon_x, x, mu, logvar):
    bce = F.binary_cross_entropy(recon_x, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


def loss_with_distributions(model, x, eps):
    mu, logvar = model.encode(x)
    q = Normal(mu, torch.exp(0.5 * logvar))
    z = q.loc + q.scale * eps  # rsample with numpy's noise
    prior = Normal(torch.zeros_like(mu), torch.ones_like(mu))
    recon = model.decode(z)
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    return bce + kl_divergence(q, prior).sum()


def make_model():
    model = VAE().to(device)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.from_numpy(rng.uniform(-0.4, 0.4, p.shape).astype(np.float32)))
    return model


def train(model, optimizer, epoch, use_distributions):
    model.train()
    train_loss = 0
    for batch_idx, (x,) in enumerate(loader):
        eps = torch.from_numpy(rng.standard_normal((len(x), 2)).astype(np.float32))
        optimizer.zero_grad()
        if use_distributions:
            loss = loss_with_distributions(model, x, eps)
        else:
            recon_batch, mu, logvar = model(x, eps)
            loss = loss_function(recon_batch, x, mu, logvar)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    print(f"====> Epoch: {epoch} Average loss: {train_loss / len(loader.dataset):.4f}")


for use_distributions in (False, True):
    print("torch.distributions:", use_distributions)
    model = make_model()
    optimizer = optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(1, 4):
        train(model, optimizer, epoch, use_distributions)

with torch.no_grad():
    mu, logvar = model.encode(data[:3])
    q = Normal(mu, (0.5 * logvar).exp())
    print(q)
    print("log_prob:", q.log_prob(torch.zeros_like(mu)).sum(-1))
    print("entropy:", q.entropy().sum(-1))
    print("kl:", kl_divergence(q, Normal(0.0, 1.0)).sum(-1))
    z = torch.tensor([[0.0, 0.0], [1.0, -1.0]])
    print("samples:", model.decode(z)[:, :4])
