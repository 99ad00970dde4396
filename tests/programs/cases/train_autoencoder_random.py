# An autoencoder squeezes 8 numbers through a 2-number bottleneck and learns to rebuild them.
import torch
from torch import nn

torch.manual_seed(11)
# Data that really lives on a 2-d plane inside 8-d space (plus a little noise), so 2 numbers can be enough.
codes = torch.randn(64, 2)
mixing = torch.randn(2, 8)
data = codes @ mixing + 0.05 * torch.randn(64, 8)
print("data", data.shape, data.dtype)


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(8, 4), nn.Tanh(), nn.Linear(4, 2))
        self.decoder = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 8))

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), z


model = AutoEncoder()
print(model)
rebuilt, z = model(data[:3])
print("z:", z.shape, z.grad_fn)
print("rebuilt:", rebuilt.shape, rebuilt.grad_fn)

optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
loss_fn = nn.MSELoss()
for epoch in range(60):
    rebuilt, _ = model(data)
    loss = loss_fn(rebuilt, data)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0 or epoch == 59:
        print(f"epoch {epoch:2d}  reconstruction loss {loss.item():.4f}")

with torch.no_grad():
    rebuilt, z = model(data)
    per_sample = ((rebuilt - data) ** 2).mean(dim=1)
print("worst sample:", per_sample.argmax().item(), f"{per_sample.max().item():.4f}")
print("best sample:", per_sample.argmin().item(), f"{per_sample.min().item():.4f}")
print("codes of the first 3:", z[:3].round(decimals=2))
print("requires_grad inside no_grad:", z.requires_grad)

# Each decoder output is a function of the 2 codes only: its Jacobian with respect to z is 8x2.
z0 = z[0].clone().requires_grad_(True)
jac = torch.autograd.functional.jacobian(model.decoder, z0)
print("decoder Jacobian shape:", jac.shape)
print("first column sums to", f"{jac[:, 0].sum().item():.3f}")
