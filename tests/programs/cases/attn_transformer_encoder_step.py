# One small Transformer encoder: look at the layer, run a batch, take a few training steps on a toy task.
import torch
from torch import nn

torch.manual_seed(13)
layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
print(layer)
print("parameters:", sum(p.numel() for p in layer.parameters()))
for name, p in layer.named_parameters():
    print(f"  {name}: {tuple(p.shape)}")

encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
print("layers:", len(encoder.layers), "same object as the template?", encoder.layers[0] is layer)

x = torch.randn(3, 5, 8)
out = encoder(x)
print("output:", out.shape, out.grad_fn)
print(f"mean {out.mean().item():.4f}  (LayerNorm output: each row mean ~0)")
print("row means:", out.mean(dim=-1).abs().max().item() < 1e-5)

# Toy task: predict, from each sequence, the sum sign of its first feature.
head = nn.Linear(8, 2)
model_params = list(encoder.parameters()) + list(head.parameters())
optimizer = torch.optim.Adam(model_params, lr=0.01)
X = torch.randn(16, 5, 8)
y = (X[:, :, 0].sum(dim=1) > 0).long()
print("labels:", y)
loss_fn = nn.CrossEntropyLoss()
for step in range(10):
    logits = head(encoder(X).mean(dim=1))
    loss = loss_fn(logits, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 3 == 0:
        print(f"step {step} loss {loss.item():.4f}")
grad = encoder.layers[0].self_attn.in_proj_weight.grad
print("in_proj grad:", grad.shape, f"norm {grad.norm().item():.4f}")

# A padding mask: True marks positions to ignore.
padding = torch.tensor([[False, False, False, True, True]] * 3)
masked_out = encoder(x, src_key_padding_mask=padding)
print("with padding mask:", masked_out.shape)
causal = nn.Transformer.generate_square_subsequent_mask(5)
print(causal)
print("causal:", encoder(x, mask=causal, is_causal=True).shape)

encoder.eval()
with torch.no_grad():
    print("eval output:", encoder(x).shape)
try:
    encoder(torch.randn(3, 5, 6))
except (RuntimeError, AssertionError) as e:
    print(type(e).__name__ + ":", e)
try:
    nn.TransformerEncoderLayer(d_model=10, nhead=3)
except AssertionError as e:
    print("AssertionError:", e)
