# Train a small convolutional classifier on random "images", as the classic CIFAR walkthrough does with
# real ones; the loop, the loss bookkeeping and the accuracy count follow the same pattern.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(1)
classes = ("plane", "car", "bird", "cat")
images = torch.randn(40, 3, 12, 12)
labels = torch.randint(0, 4, (40,))
trainloader = DataLoader(TensorDataset(images, labels), batch_size=8, shuffle=True)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 8, 3, padding=1)
        self.fc1 = nn.Linear(8 * 2 * 2, 16)
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
print(net)
params = list(net.parameters())
print(len(params), params[0].size())
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
for epoch in range(3):
    running_loss = 0.0
    for i, data in enumerate(trainloader, 0):
        inputs, lbls = data
        optimizer.zero_grad()
        outputs = net(inputs)
        loss = criterion(outputs, lbls)
        loss.backward()
        optimizer.step()
        running_loss += loss.item()
        if i % 5 == 4:
            print(f"[{epoch + 1}, {i + 1:5d}] loss: {running_loss / 5:.3f}")
            running_loss = 0.0
print("Finished Training")
PATH = "./_tmp_cnn_net.pth"
torch.save(net.state_dict(), PATH)
net2 = Net()
print(net2.load_state_dict(torch.load(PATH, weights_only=True)))
import os
os.remove(PATH)
dataiter = iter(trainloader)
imgs, lbls = next(dataiter)
print("GroundTruth: ", " ".join(f"{classes[lbls[j]]:5s}" for j in range(4)))
outputs = net2(imgs)
_, predicted = torch.max(outputs, 1)
print("Predicted: ", " ".join(f"{classes[predicted[j]]:5s}" for j in range(4)))
correct = total = 0
correct_pred = {c: 0 for c in classes}
total_pred = {c: 0 for c in classes}
with torch.no_grad():
    for imgs, lbls in trainloader:
        outputs = net2(imgs)
        _, predicted = torch.max(outputs.data, 1)
        total += lbls.size(0)
        correct += (predicted == lbls).sum().item()
        for label, prediction in zip(lbls, predicted):
            if label == prediction:
                correct_pred[classes[label]] += 1
            total_pred[classes[label]] += 1
print(f"Accuracy of the network on the {total} images: {100 * correct // total} %")
for classname, correct_count in correct_pred.items():
    accuracy = 100 * float(correct_count) / total_pred[classname]
    print(f"Accuracy for class: {classname:5s} is {accuracy:.1f} %")
