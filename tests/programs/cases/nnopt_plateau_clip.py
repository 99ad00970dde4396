# A noisy regression: clip gradients, lower the learning rate when the loss stops improving.
import torch
from torch import nn

torch.manual_seed(11)
X = torch.randn(100, 3)
w_true = torch.tensor([[1.5], [-2.0], [0.5]])
y = X @ w_true + 0.3 * torch.randn(100, 1)

model = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="min", factor=0.5, patience=2)
loss_fn = nn.MSELoss()
for epoch in range(15):
    perm = torch.arange(100).flip(0) if epoch % 2 else torch.arange(100)
    total = 0.0
    for i in range(0, 100, 25):
        idx = perm[i:i + 25]
        optimizer.zero_grad()
        loss = loss_fn(model(X[idx]), y[idx])
        loss.backward()
        norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        optimizer.step()
        total += loss.item()
    scheduler.step(total)
    print(f"epoch {epoch:2d} loss {total / 4:.4f} grad-norm {norm:.3f} lr {optimizer.param_groups[0]['lr']}")
print(scheduler.get_last_lr(), scheduler.num_bad_epochs)

vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, type(vec.grad_fn).__name__)
nn.utils.vector_to_parameters(torch.zeros_like(vec), model.parameters())
print(model[0].bias)
loss_fn(model(X), y).backward()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.1)
print(model[2].bias.grad)

# calling the scheduler before the optimizer: PyTorch warns
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
sched.step()
opt.step()
print(sched.get_last_lr())
