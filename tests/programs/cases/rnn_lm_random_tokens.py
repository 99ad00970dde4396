# A character-level language model's training steps on random token ids: one-hot inputs of shape
# (steps, batch, vocab), an nn.RNN with a Linear head, gradient clipping by the global norm and perplexity.
import math

import torch
from torch import nn
from torch.nn import functional as F

vocab_size, num_hiddens, num_steps, batch_size = 12, 16, 5, 3
print(F.one_hot(torch.tensor([0, 2]), vocab_size))
X = torch.arange(10).reshape((2, 5))
print(F.one_hot(X.T, 28).shape)

corpus = torch.randint(0, vocab_size, (200,))


def seq_data_iter_sequential(corpus, batch_size, num_steps):
    num_tokens = ((len(corpus) - 1) // batch_size) * batch_size
    Xs = corpus[0: num_tokens].reshape(batch_size, -1)
    Ys = corpus[1: num_tokens + 1].reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        yield Xs[:, i: i + num_steps], Ys[:, i: i + num_steps]


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size):
        super(RNNModel, self).__init__()
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        self.linear = nn.Linear(self.num_hiddens, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size)
        X = X.to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, device, batch_size=1):
        return torch.zeros((self.rnn.num_layers, batch_size, self.num_hiddens), device=device)


def grad_clipping(net, theta):
    params = [p for p in net.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


device = torch.device('cpu')
rnn_layer = nn.RNN(vocab_size, num_hiddens)
net = RNNModel(rnn_layer, vocab_size=vocab_size)
state = net.begin_state(device, batch_size)
print(state.shape)
Y, new_state = rnn_layer(torch.rand(num_steps, batch_size, vocab_size), state)
print(Y.shape, new_state.shape)
loss = nn.CrossEntropyLoss()
updater = torch.optim.SGD(net.parameters(), lr=1)
for epoch in range(2):
    state = None
    total, count = 0.0, 0
    for X, Y in seq_data_iter_sequential(corpus, batch_size, num_steps):
        if state is None:
            state = net.begin_state(batch_size=X.shape[0], device=device)
        else:
            state.detach_()
        y = Y.T.reshape(-1)
        y_hat, state = net(X, state)
        l = loss(y_hat, y.long()).mean()
        updater.zero_grad()
        l.backward()
        norm = grad_clipping(net, 1)
        updater.step()
        total += l.item() * y.numel()
        count += y.numel()
    print(f'epoch {epoch}: perplexity {math.exp(total / count):.4f}, last norm {float(norm):.4f}')


def predict(prefix, num_preds, net):
    state = net.begin_state(batch_size=1, device=device)
    outputs = [prefix[0]]
    get_input = lambda: torch.tensor([outputs[-1]], device=device).reshape((1, 1))
    for y in prefix[1:]:
        _, state = net(get_input(), state)
        outputs.append(y)
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return outputs


print(predict([3, 1, 4], 6, net))
print(net.rnn.weight_hh_l0.grad.norm(), net.linear.bias.grad)
