"""A small GAN: generator and discriminator MLPs learn a 2-d Gaussian ring with BCEWithLogits and two Adams."""
import math

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

device = "cuda" if torch.cuda.is_available() else "cpu"
rng = np.random.default_rng(0)
nz, batch_size = 4, 64


def real_batch(n):
    angle = rng.uniform(0, 2 * math.pi, n)
    points = np.stack([np.cos(angle), np.sin(angle)], 1) * 2 + 0.05 * rng.standard_normal((n, 2))
    return torch.tensor(points, dtype=torch.float32, device=device)


def noise(n):
    return torch.from_numpy(rng.standard_normal((n, nz)).astype(np.float32)).to(device)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(nz, 32), nn.LeakyReLU(0.2), nn.Linear(32, 32), nn.LeakyReLU(0.2),
                                  nn.Linear(32, 2))

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 32), nn.LeakyReLU(0.2),
                                  nn.Linear(32, 1))

    def forward(self, input):
        return self.main(input).view(-1)


def weights_init(m):
    if isinstance(m, nn.Linear):
        with torch.no_grad():
            m.weight.copy_(torch.from_numpy(rng.normal(0.0, 0.2, tuple(m.weight.shape)).astype(np.float32)))
            nn.init.zeros_(m.bias)


netG, netD = Generator().to(device), Discriminator().to(device)
netG.apply(weights_init)
netD.apply(weights_init)
print(netG)
criterion = nn.BCEWithLogitsLoss()
fixed_noise = noise(4)
real_label, fake_label = 1.0, 0.0
optimizerD = optim.Adam(netD.parameters(), lr=2e-3, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))

G_losses, D_losses = [], []
for iteration in range(40):
    # (1) Update D: maximize log(D(x)) + log(1 - D(G(z)))
    netD.zero_grad()
    real = real_batch(batch_size)
    label = torch.full((batch_size,), real_label, dtype=torch.float, device=device)
    errD_real = criterion(netD(real), label)
    errD_real.backward()
    D_x = torch.sigmoid(netD(real)).mean().item()
    fake = netG(noise(batch_size))
    label.fill_(fake_label)
    output = netD(fake.detach())
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = torch.sigmoid(output).mean().item()
    errD = errD_real + errD_fake
    optimizerD.step()
    # (2) Update G: maximize log(D(G(z)))
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = torch.sigmoid(output).mean().item()
    optimizerG.step()
    G_losses.append(errG.item())
    D_losses.append(errD.item())
    if iteration % 10 == 9:
        print(f"[{iteration + 1}/40] Loss_D: {errD.item():.4f} Loss_G: {errG.item():.4f} "
              f"D(x): {D_x:.4f} D(G(z)): {D_G_z1:.4f} / {D_G_z2:.4f}")

with torch.no_grad():
    samples = netG(fixed_noise)
print("radius of generated points:", [round(r, 3) for r in samples.norm(dim=1).tolist()])
print("mean losses:", round(sum(G_losses) / len(G_losses), 3), round(sum(D_losses) / len(D_losses), 3))
netG.zero_grad()
print("G grads cleared:", all(p.grad is None for p in netG.parameters()), "detached fake requires grad:",
      fake.detach().requires_grad, fake.requires_grad)
