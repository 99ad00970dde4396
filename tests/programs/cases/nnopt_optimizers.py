# The same small classifier trained with RMSprop, Adagrad and Adadelta; inspect the optimizers.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(64, 4)
labels = (X[:, 0] + X[:, 1] > 0).long() + (X[:, 2] > 1).long()

def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))

for name, make_opt in [
    ("RMSprop", lambda p: torch.optim.RMSprop(p, lr=0.01)),
    ("RMSprop centered", lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.9, centered=True)),
    ("Adagrad", lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01)),
    ("Adadelta", lambda p: torch.optim.Adadelta(p, weight_decay=1e-4)),
]:
    model = make_model()
    optimizer = make_opt(model.parameters())
    for step in range(30):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(X), labels)
        loss.backward()
        optimizer.step()
        if step % 10 == 9:
            print(f"{name} step {step + 1}: loss {loss.item():.4f}")
    accuracy = (model(X).argmax(dim=1) == labels).float().mean()
    print(f"{name} accuracy {accuracy.item():.3f}")
    state = optimizer.state_dict()
    print(list(state["state"][0].keys()), state["param_groups"][0]["params"])
    print(optimizer)

# parameter groups: a smaller learning rate for the first layer
model = make_model()
optimizer = torch.optim.RMSprop([
    {"params": model[0].parameters(), "lr": 1e-3},
    {"params": model[2].parameters()},
], lr=1e-2, alpha=0.9)
print(optimizer)
for group in optimizer.param_groups:
    print(group["lr"], len(group["params"]))
optimizer.add_param_group({"params": [nn.Parameter(torch.zeros(2))], "lr": 0.5})
print(len(optimizer.param_groups), optimizer.param_groups[-1]["alpha"])
optimizer.zero_grad(set_to_none=False)
print(model[0].bias.grad)
