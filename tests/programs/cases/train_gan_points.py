# A very small GAN: the generator learns to place 2-d points near a ring-shaped blob, the discriminator tells real from fake.
import torch
from torch import nn

torch.manual_seed(5)


def real_points(n):
    angle = torch.rand(n) * 2 * torch.pi
    radius = 2 + 0.1 * torch.randn(n)
    return torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)


generator = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
discriminator = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
print(generator)
print(discriminator)

opt_g = torch.optim.Adam(generator.parameters(), lr=1e-2, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(discriminator.parameters(), lr=1e-2, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
ones = torch.ones(32, 1)
zeros = torch.zeros(32, 1)

for step in range(40):
    real = real_points(32)
    noise = torch.randn(32, 3)
    fake = generator(noise)

    # Discriminator: detach() so that this step does not push gradients into the generator.
    d_loss = bce(discriminator(real), ones) + bce(discriminator(fake.detach()), zeros)
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    # Generator: wants the discriminator to call its points real.
    g_loss = bce(discriminator(fake), ones)
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    if step % 8 == 0:
        print(f"step {step:2d}  D {d_loss.item():.3f}  G {g_loss.item():.3f}")

print("fake grad_fn:", fake.grad_fn, " detached:", fake.detach().grad_fn)
print("discriminator weights got gradients from the G step too:", discriminator[0].weight.grad is not None)
with torch.no_grad():
    samples = generator(torch.randn(200, 3))
    radii = samples.norm(dim=1)
    verdict = torch.sigmoid(discriminator(samples))
print(f"mean radius of fake points {radii.mean():.2f} (real ones: 2.00)")
print(f"spread {radii.std():.2f}")
print(f"D says real for {(verdict > 0.5).float().mean().item():.0%} of them")
print(samples[:4].round(decimals=1))
