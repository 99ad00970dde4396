# Early stopping: keep a deep copy of the best weights, stop when validation loss stops improving, restore the best.
import copy
import torch
from torch import nn

torch.manual_seed(23)
X = torch.linspace(-2, 2, 60).unsqueeze(1)
y = torch.sin(2 * X) + 0.3 * torch.randn_like(X)
perm = torch.randperm(60)
train_idx, val_idx = perm[:40], perm[40:]
print("train", train_idx.shape, "val", val_idx.shape)

model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.03)
loss_fn = nn.MSELoss()

best_loss, best_state, best_epoch = float("inf"), None, -1
patience, bad_epochs = 5, 0
for epoch in range(200):
    model.train()
    loss = loss_fn(model(X[train_idx]), y[train_idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        val_loss = loss_fn(model(X[val_idx]), y[val_idx]).item()
    if val_loss < best_loss - 1e-4:
        best_loss, best_epoch, bad_epochs = val_loss, epoch, 0
        best_state = copy.deepcopy(model.state_dict())
    else:
        bad_epochs += 1
    if epoch % 10 == 0:
        print(f"epoch {epoch:3d} train {loss.item():.4f} val {val_loss:.4f} bad {bad_epochs}")
    if bad_epochs >= patience:
        print(f"stopping at epoch {epoch}; best epoch {best_epoch} with val {best_loss:.4f}")
        break

print("saved keys:", list(best_state.keys()))
print("a copy, not the same tensor:", best_state["0.weight"] is model.state_dict()["0.weight"])
print("copy requires grad?", best_state["0.weight"].requires_grad)
# state_dict() without deepcopy would share storage with the live weights and change with them.
shallow = model.state_dict()
before = shallow["4.bias"].clone()
with torch.no_grad():
    model[4].bias += 1
print("shallow changed with the model:", not torch.equal(before, shallow["4.bias"]))
result = model.load_state_dict(best_state)
print(result)
with torch.no_grad():
    print(f"restored val loss {loss_fn(model(X[val_idx]), y[val_idx]).item():.4f}")
print("restored equals best:", all(torch.equal(v, best_state[k]) for k, v in model.state_dict().items()))

clone = copy.deepcopy(model)
print("deepcopy of the module:", clone[0].weight is model[0].weight, torch.equal(clone[0].weight, model[0].weight))
print(clone[0].weight.requires_grad, clone[0].weight.grad is None, model[0].weight.grad is None)
try:
    model.load_state_dict({"0.weight": best_state["0.weight"]})
except RuntimeError as e:
    print("RuntimeError:", e)
bad = dict(best_state)
bad["0.weight"] = torch.zeros(3, 1)
try:
    model.load_state_dict(bad)
except RuntimeError as e:
    print("RuntimeError:", e)
