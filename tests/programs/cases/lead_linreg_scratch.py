# Linear regression by hand on a made-up taxi-fare table: three standardised inputs per ride, the shuffled
# rides dealt into minibatches like cards, and a gradient step we write ourselves.
import random

import torch

random.seed(7)
torch.manual_seed(7)

# fare = base + per-unit prices of (distance, minutes waiting, bags), plus a few cents of noise
true_prices = torch.tensor([1.8, 0.6, -0.9])
true_base = 3.5


def make_rides(prices, base, count):
    inputs = torch.normal(0, 1, (count, len(prices)))
    fares = torch.matmul(inputs, prices) + base
    fares += torch.normal(0, 0.05, fares.shape)
    return inputs, fares.reshape((-1, 1))


inputs, fares = make_rides(true_prices, true_base, 120)
print('first ride:', inputs[0], 'fare:', fares[0])


def deal(count, piles):
    """Shuffle the row numbers, then deal them out: pile k gets places k, k + piles, k + 2 * piles, ..."""
    order = list(range(count))
    random.shuffle(order)
    return [torch.tensor(order[k::piles]) for k in range(piles)]


prices = torch.normal(0, 0.01, size=(3, 1), requires_grad=True)
base = torch.zeros(1, requires_grad=True)


def half_square(predicted, actual):
    return (predicted - actual) ** 2 / 2


def descend(params, lr, pile_size):
    with torch.no_grad():                   # an update is not part of the model
        for param in params:
            param -= lr * param.grad / pile_size
            param.grad.zero_()              # backward adds to .grad, so empty it for the next pile


for round_no in range(1, 5):
    for pile in deal(len(inputs), 7):       # 120 rides in 7 piles: one of 18, six of 17
        X, y = inputs[pile], fares[pile]
        half_square(torch.mm(X, prices) + base, y).sum().backward()
        descend([prices, base], 0.05, len(pile))
    with torch.no_grad():
        loss = half_square(torch.mm(inputs, prices) + base, fares)
        print(f'round {round_no}, mean loss {float(loss.mean()):f}')
print(f'prices off by: {true_prices - prices.reshape(true_prices.shape)}')
print(f'base off by: {true_base - base}')
print(prices.grad, base.is_leaf, (prices * 2).requires_grad)
