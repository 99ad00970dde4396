# Regression and distribution losses, distances and one-hot labels.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)
pred = torch.randn(5, requires_grad=True)
target = torch.tensor([0.5, -1.0, 2.0, 0.0, 3.0])
for loss_fn in [nn.L1Loss(), nn.MSELoss(), nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0),
                nn.HuberLoss(reduction="sum")]:
    loss = loss_fn(pred, target)
    pred.grad = None
    loss.backward()
    print(loss_fn, loss, pred.grad)
print(F.smooth_l1_loss(pred, target, reduction="none"))
print(F.huber_loss(pred, target, reduction="none", delta=0.5))

logits = torch.randn(3, 4, requires_grad=True)
teacher = torch.softmax(torch.randn(3, 4), dim=1)
kl = nn.KLDivLoss(reduction="batchmean")
loss = kl(F.log_softmax(logits, dim=1), teacher)
loss.backward()
print("kl", loss, logits.grad)
print(F.kl_div(F.log_softmax(logits, dim=1), teacher.log(), reduction="sum", log_target=True))
print(nn.KLDivLoss()(F.log_softmax(logits, dim=1), teacher))

a, b = torch.randn(4, 8), torch.randn(4, 8)
cos = nn.CosineSimilarity(dim=1)
print(cos(a, b), F.cosine_similarity(a, a)[0])
print(nn.PairwiseDistance()(a, b), F.pairwise_distance(a, b, p=1))
print(nn.CosineEmbeddingLoss(margin=0.2)(a, b, torch.tensor([1, -1, 1, -1])))
print(nn.MarginRankingLoss()(a[:, 0], b[:, 0], torch.ones(4)))

labels = torch.tensor([2, 0, 1, 2])
one_hot = F.one_hot(labels)
print(one_hot, one_hot.dtype, one_hot.shape)
print(F.one_hot(labels, num_classes=5).float())
print(F.one_hot(torch.tensor([[0, 1], [1, 1]]), 3))
print(F.one_hot(labels.float()))
