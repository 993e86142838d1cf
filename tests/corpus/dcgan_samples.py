# Style: PyTorch's DCGAN tutorial (weights_init, a ConvTranspose2d generator, vutils.make_grid/save_image of fakes).
import numpy as np
import torch
import torch.nn as nn
import torchvision.utils as vutils
from PIL import Image

torch.manual_seed(999)
nz, ngf, nc = 8, 4, 3


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 2, 4, 1, 0, bias=False),  # 1x1 -> 4x4
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False),  # 4x4 -> 8x8
            nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


netG = Generator()
netG.apply(weights_init)
print(netG)
fixed_noise = torch.randn(6, nz, 1, 1)
fake = netG(fixed_noise)  # still attached to the graph, as in a training loop
print(fake.shape, fake.requires_grad, f"{fake.mean().item():.5f}")

grid = vutils.make_grid(fake, padding=2, normalize=True)
print(grid.shape, grid.requires_grad, f"min {grid.min().item():.4f} max {grid.max().item():.4f}")
print(vutils.make_grid(fake, nrow=3, padding=1, pad_value=1.0).shape)
vutils.save_image(fake, "fake_samples.png", normalize=True, nrow=3)
image = np.asarray(Image.open("fake_samples.png"))
channel_means = image.reshape(-1, 3).mean(0)
print(image.shape, image.dtype, " ".join(f"{m:.2f}" for m in channel_means), f"{image[2:10, 2:10].mean():.2f}")

img_list = [vutils.make_grid(fake.detach(), padding=2, normalize=True)]
print(len(img_list), np.transpose(img_list[-1].numpy(), (1, 2, 0)).shape)
loss = fake.pow(2).mean()
loss.backward()
print(f"loss {loss.item():.6f}", f"{netG.main[0].weight.grad.abs().sum().item():.6f}")
