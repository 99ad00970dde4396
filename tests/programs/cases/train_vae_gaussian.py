# A tiny variational autoencoder: the reparameterization trick, a KL term written by hand and with torch.distributions.
import torch
from torch import nn
import torch.nn.functional as F
from torch.distributions import Normal, kl_divergence

torch.manual_seed(41)
data = torch.cat([torch.randn(50, 4) * 0.3 + 1.0, torch.randn(50, 4) * 0.3 - 1.0])
print("data", data.shape, f"mean {data.mean():.4f}")


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(4, 8)
        self.mu = nn.Linear(8, 2)
        self.logvar = nn.Linear(8, 2)
        self.dec = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 4))

    def forward(self, x):
        h = F.relu(self.enc(x))
        mu, logvar = self.mu(h), self.logvar(h)
        std = torch.exp(0.5 * logvar)
        z = mu + std * torch.randn_like(std)      # the reparameterization trick: randomness outside the graph
        return self.dec(z), mu, logvar


model = VAE()
recon, mu, logvar = model(data[:3])
print("recon", recon.shape, recon.grad_fn)
print("mu", mu.grad_fn, "logvar", logvar.shape)

optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
for epoch in range(40):
    recon, mu, logvar = model(data)
    rec_loss = F.mse_loss(recon, data, reduction="sum") / len(data)
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / len(data)
    loss = rec_loss + kl
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 8 == 0:
        print(f"epoch {epoch:2d}  reconstruction {rec_loss.item():.4f}  KL {kl.item():.4f}")

# The same KL with torch.distributions.
with torch.no_grad():
    _, mu, logvar = model(data)
q = Normal(mu, torch.exp(0.5 * logvar))
p = Normal(torch.zeros_like(mu), torch.ones_like(mu))
print("q:", q)
print("batch_shape", q.batch_shape, "event_shape", q.event_shape)
by_hand = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / len(data)
library = kl_divergence(q, p).sum() / len(data)
print(f"KL by hand {by_hand.item():.4f}, by kl_divergence {library.item():.4f}")
print("close:", torch.allclose(by_hand, library, atol=1e-5))

# rsample keeps the graph, sample does not.
loc = torch.tensor([0.5], requires_grad=True)
dist = Normal(loc, torch.tensor([1.0]))
print("rsample grad_fn:", dist.rsample().grad_fn is not None, "sample requires_grad:", dist.sample().requires_grad)
print("log_prob(0):", dist.log_prob(torch.tensor([0.0])))
print("entropy:", dist.entropy())

with torch.no_grad():
    generated = model.dec(torch.randn(5, 2))
print("generated", generated.shape, f"mean {generated.mean().item():.2f}")
try:
    Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
except ValueError as e:
    print("ValueError:", e)
