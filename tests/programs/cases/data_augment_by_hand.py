# Image augmentation written with tensor operations: flips, rolls, 90-degree turns, random crops with padding,
# resizing with interpolate, and an affine warp with affine_grid + grid_sample.
import math
import torch
import torch.nn.functional as F

torch.manual_seed(67)
image = torch.arange(16.0).reshape(1, 1, 4, 4)
print(image[0, 0])
print("horizontal flip:\n", image.flip(-1)[0, 0])
print("vertical flip:\n", torch.flip(image, dims=[2])[0, 0])
print("roll right by 1:\n", image.roll(1, dims=-1)[0, 0])
print("rot90:\n", torch.rot90(image, 1, dims=(2, 3))[0, 0])
print("transpose:\n", image.transpose(-1, -2)[0, 0])

padded = F.pad(image, (1, 1, 1, 1), mode="reflect")
print("reflect pad:\n", padded[0, 0])
print("replicate pad row 0:", F.pad(image, (2, 0, 0, 0), mode="replicate")[0, 0, 0])
print("circular pad row 0:", F.pad(image, (1, 1, 0, 0), mode="circular")[0, 0, 0])
top, left = torch.randint(0, 3, (2,)).tolist()
crop = padded[..., top:top + 4, left:left + 4]
print(f"crop at ({top}, {left}):\n", crop[0, 0])

print("nearest x2:\n", F.interpolate(image, scale_factor=2, mode="nearest")[0, 0, :2])
print("bilinear to 3x3:\n", F.interpolate(image, size=(3, 3), mode="bilinear", align_corners=False)[0, 0])
print("bilinear corners:\n", F.interpolate(image, size=(3, 3), mode="bilinear", align_corners=True)[0, 0])
print("area 2x2:\n", F.interpolate(image, size=(2, 2), mode="area")[0, 0])
print("avg_pool same:", torch.equal(F.avg_pool2d(image, 2), F.interpolate(image, size=(2, 2), mode="area")))

# A rotation by 90 degrees as an affine warp.
angle = math.pi / 2
theta = torch.tensor([[[math.cos(angle), -math.sin(angle), 0.0], [math.sin(angle), math.cos(angle), 0.0]]])
grid = F.affine_grid(theta, size=(1, 1, 4, 4), align_corners=False)
print("grid", grid.shape)
warped = F.grid_sample(image, grid, mode="nearest", align_corners=False)
print("warped:\n", warped[0, 0])
shift = torch.tensor([[[1.0, 0.0, 0.5], [0.0, 1.0, 0.0]]])
shifted = F.grid_sample(image, F.affine_grid(shift, (1, 1, 4, 4), align_corners=False), align_corners=False,
                        padding_mode="zeros")
print("shifted (bilinear, zeros outside):\n", shifted[0, 0])

# Augmentations keep gradients flowing to the input.
x = image.clone().requires_grad_(True)
out = F.interpolate(x.flip(-1), scale_factor=2, mode="bilinear", align_corners=False).sum()
out.backward()
print("grad of flip+upsample:\n", x.grad[0, 0])
batch = torch.rand(8, 3, 4, 4)
flip_mask = torch.rand(8) < 0.5
augmented = torch.where(flip_mask[:, None, None, None], batch.flip(-1), batch)
print("flipped:", flip_mask.tolist(), "changed:", (augmented != batch).flatten(1).any(1).tolist())
noise = batch + 0.1 * torch.randn_like(batch)
print("clamped to [0, 1]:", noise.clamp(0, 1).min().item() >= 0, noise.clamp(0, 1).max().item() <= 1)
try:
    F.pad(image[0, 0], (1, 1, 1, 1), mode="reflect")
    print("2-d reflect pad ok")
except (RuntimeError, NotImplementedError) as e:
    print(type(e).__name__ + ":", e)
try:
    F.pad(image, (3, 3), mode="reflect")
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    F.interpolate(image, scale_factor=2, mode="bilinear", align_corners=None, size=3)
except ValueError as e:
    print("ValueError:", e)
