# Policy gradient (REINFORCE) on a 4-armed bandit: a Categorical policy, log_prob times reward, a moving baseline.
import torch
from torch import nn
from torch.distributions import Categorical

torch.manual_seed(53)
true_means = torch.tensor([0.1, 0.5, 0.9, 0.3])
logits = nn.Parameter(torch.zeros(4))
optimizer = torch.optim.Adam([logits], lr=0.1)
baseline = 0.0

policy = Categorical(logits=logits)
print(policy)
print("probs:", policy.probs, "entropy:", f"{policy.entropy().item():.4f}")

for step in range(60):
    policy = Categorical(logits=logits)
    arms = policy.sample((16,))
    rewards = torch.bernoulli(true_means[arms])
    advantage = rewards - baseline
    loss = -(policy.log_prob(arms) * advantage).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    baseline = 0.9 * baseline + 0.1 * rewards.mean().item()
    if step % 10 == 0:
        print(f"step {step:2d}: mean reward {rewards.mean().item():.3f}, baseline {baseline:.3f}, "
              f"arm counts {torch.bincount(arms, minlength=4).tolist()}")

with torch.no_grad():
    probs = torch.softmax(logits, dim=0)
print("final probs:", probs.round(decimals=3))
print("best arm:", probs.argmax().item())
print("log_prob grad_fn:", Categorical(logits=logits).log_prob(torch.tensor(2)).grad_fn)

d = Categorical(probs=torch.tensor([0.2, 0.3, 0.5]))
print("sample shape:", d.sample((2, 3)).shape, "support:", d.support)
print("log_prob:", d.log_prob(torch.tensor([0, 2])))
print("enumerate_support:", d.enumerate_support())
print("logits:", d.logits)
try:
    Categorical(probs=torch.tensor([0.5, -0.1, 0.6]))
except ValueError as e:
    print("ValueError:", e)
try:
    d.log_prob(torch.tensor([3]))
except ValueError as e:
    print("ValueError:", e)
