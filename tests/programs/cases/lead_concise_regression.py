# The same regression, concisely: TensorDataset, DataLoader, nn.Sequential, MSELoss, SGD.
import torch
from torch import nn
from torch.utils import data

torch.manual_seed(0)
true_w = torch.tensor([1.5, -2.0])
X = torch.normal(0, 1, (120, 2))
y = (X @ true_w + 0.7 + torch.normal(0, 0.01, (120,))).reshape(-1, 1)
loader = data.DataLoader(data.TensorDataset(X, y), batch_size=16, shuffle=True)
print(next(iter(loader)))
net = nn.Sequential(nn.Linear(2, 1))
net[0].weight.data.normal_(0, 0.01)
net[0].bias.data.fill_(0)
loss = nn.MSELoss()
trainer = torch.optim.SGD(net.parameters(), lr=0.03)
for epoch in range(3):
    for Xb, yb in loader:
        l = loss(net(Xb), yb)
        trainer.zero_grad()
        l.backward()
        trainer.step()
    l = loss(net(X), y)
    print(f'epoch {epoch + 1}, loss {l:f}')
w = net[0].weight.data
print('error in w:', true_w - w.reshape(true_w.shape))
print('error in b:', 0.7 - net[0].bias.data)
print(net.state_dict())
