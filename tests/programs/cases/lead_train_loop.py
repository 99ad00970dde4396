# 优化模型参数: a train loop and a test loop over synthetic data, printed the way the tutorials print them.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(11)
X = torch.randn(256, 10)
w = torch.randn(10, 3)
y = (X @ w).argmax(1)
train = DataLoader(TensorDataset(X[:192], y[:192]), batch_size=32, shuffle=True)
test = DataLoader(TensorDataset(X[192:], y[192:]), batch_size=32)
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)


def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    model.train()
    for batch, (Xb, yb) in enumerate(dataloader):
        pred = model(Xb)
        loss = loss_fn(pred, yb)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if batch % 3 == 0:
            loss, current = loss.item(), batch * 32 + len(Xb)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0
    with torch.no_grad():
        for Xb, yb in dataloader:
            pred = model(Xb)
            test_loss += loss_fn(pred, yb).item()
            correct += (pred.argmax(1) == yb).type(torch.float).sum().item()
    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100 * correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


for t in range(3):
    print(f"Epoch {t + 1}\n-------------------------------")
    train_loop(train, model, loss_fn, optimizer)
    test_loop(test, model, loss_fn)
print("Done!")
torch.save(model.state_dict(), "/tmp/gradlab_program_weights.pth")
model2 = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
print(model2.load_state_dict(torch.load("/tmp/gradlab_program_weights.pth", weights_only=True)))
print(model2.eval())
print(torch.equal(model2[0].weight, model[0].weight))
