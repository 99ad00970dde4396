"""gradlab.utils.data against torch.utils.data: the same batches in the same order after the same seed,
the same random numbers afterwards, the same collated types, lengths and errors."""
import collections
import itertools

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import gradlab  # noqa: E402
from gradlab.utils import data as gdata  # noqa: E402
from torch.utils import data as tdata  # noqa: E402

pytestmark = pytest.mark.torch


@pytest.fixture(autouse=True)
def _restore_torch_rng():
    state = torch.get_rng_state()
    yield
    torch.set_rng_state(state)


def seed(s):
    torch.manual_seed(s)
    gradlab.manual_seed(s)


def plain(x):
    """A batch as plain Python data, tensors as (dtype name, nested lists)."""
    if isinstance(x, (torch.Tensor, gradlab.Tensor)):
        return (str(x.dtype).split(".")[-1], x.tolist())
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, [plain(v) for v in x])
    return x


def streams_agree():
    return torch.rand(4).tolist() == gradlab.rand(4).tolist()


def datasets(n):
    x = np.arange(n * 3, dtype=np.float32).reshape(n, 3)
    y = np.arange(n) % 4
    return (tdata.TensorDataset(torch.tensor(x), torch.tensor(y)),
            gdata.TensorDataset(gradlab.tensor(x), gradlab.tensor(y)))


@pytest.mark.parametrize("n, batch_size", [(1, 1), (10, 3), (10, 4), (10, 10), (10, 16), (64, 8), (100, 32)])
@pytest.mark.parametrize("shuffle, drop_last", list(itertools.product([False, True], [False, True])))
def test_loader_batches_and_stream(n, batch_size, shuffle, drop_last):
    tds, gds = datasets(n)
    for s in (0, 7):
        seed(s)
        tl = tdata.DataLoader(tds, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
        gl = gdata.DataLoader(gds, batch_size=batch_size, shuffle=shuffle, drop_last=drop_last)
        assert len(tl) == len(gl)
        for _ in range(2):                      # two epochs: each draws its own order
            assert [plain(b) for b in tl] == [plain(b) for b in gl]
        assert streams_agree()


@pytest.mark.parametrize("replacement, num_samples", [(False, None), (False, 25), (True, None), (True, 70)])
def test_random_sampler_and_generator(replacement, num_samples):
    tds, gds = datasets(20)
    for gen_seed in (None, 3):
        seed(1)
        tg = None if gen_seed is None else torch.Generator().manual_seed(gen_seed)
        gg = None if gen_seed is None else gradlab.Generator().manual_seed(gen_seed)
        ts = tdata.RandomSampler(tds, replacement=replacement, num_samples=num_samples, generator=tg)
        gs = gdata.RandomSampler(gds, replacement=replacement, num_samples=num_samples, generator=gg)
        assert len(ts) == len(gs)
        assert list(ts) == list(gs) and list(ts) == list(gs)
        tl = tdata.DataLoader(tds, batch_size=6, sampler=ts)
        gl = gdata.DataLoader(gds, batch_size=6, sampler=gs)
        assert [plain(b) for b in tl] == [plain(b) for b in gl]
        tl = tdata.DataLoader(tds, batch_size=6, shuffle=True, generator=tg)
        gl = gdata.DataLoader(gds, batch_size=6, shuffle=True, generator=gg)
        assert [plain(b) for b in tl] == [plain(b) for b in gl]
        assert streams_agree()


def test_other_samplers():
    seed(2)
    assert list(tdata.SequentialSampler(range(5))) == list(gdata.SequentialSampler(range(5)))
    indices = [10, 20, 30, 40, 50]
    assert list(tdata.SubsetRandomSampler(indices)) == list(gdata.SubsetRandomSampler(indices))
    w = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]
    for rep in (True, False):
        assert list(tdata.WeightedRandomSampler(w, 5, replacement=rep)) == \
            list(gdata.WeightedRandomSampler(w, 5, replacement=rep))
    for bs, dl in itertools.product([1, 3, 4], [False, True]):
        t = tdata.BatchSampler(tdata.SequentialSampler(range(10)), bs, dl)
        g = gdata.BatchSampler(gdata.SequentialSampler(range(10)), bs, dl)
        assert list(t) == list(g) and len(t) == len(g)
    tl = tdata.DataLoader(range(10), batch_sampler=tdata.BatchSampler(tdata.RandomSampler(range(10)), 3, False))
    gl = gdata.DataLoader(range(10), batch_sampler=gdata.BatchSampler(gdata.RandomSampler(range(10)), 3, False))
    assert [plain(b) for b in tl] == [plain(b) for b in gl]
    assert streams_agree()


@pytest.mark.parametrize("lengths", [[7, 3], [0.7, 0.3], [0.5, 0.5], [0.34, 0.33, 0.33], [10], [0.1] * 10, [5, 5, 0]])
@pytest.mark.parametrize("n", [10, 11])
def test_random_split(lengths, n):
    seed(4)
    results = []
    for data, gen in ((tdata, torch), (gdata, gradlab)):
        try:
            parts = data.random_split(range(n), lengths)
            results.append([list(p) for p in parts])
            results.append([list(p) for p in data.random_split(range(n), lengths,
                                                               generator=gen.Generator().manual_seed(42))])
        except ValueError as e:
            results.append(str(e))
    assert results[:len(results) // 2] == results[len(results) // 2:]
    assert streams_agree()


Point = collections.namedtuple("Point", "x y")

SAMPLES = [
    [(1, 2.0, "a"), (3, 4.5, "b"), (5, 6.0, "c")],
    [{"x": np.array([1.0, 2.0]), "y": np.int64(3)}, {"x": np.array([3.0, 4.0]), "y": np.int64(5)}],
    [[1, 2], [3, 4], [5, 6]],
    [Point(1.5, 2), Point(3.5, 4)],
    [np.float32(1.5), np.float32(2.5)],
    [True, False, True],
    [np.array([1, 2], dtype=np.int32), np.array([3, 4], dtype=np.int32)],
    [b"ab", b"cd"],
]


@pytest.mark.parametrize("samples", SAMPLES)
@pytest.mark.parametrize("batch_size", [1, 2, None])
def test_default_collate(samples, batch_size):
    t = [plain(b) for b in tdata.DataLoader(samples, batch_size=batch_size)]
    g = [plain(b) for b in gdata.DataLoader(samples, batch_size=batch_size)]
    assert t == g


def test_collate_tensors_and_errors():
    x = np.arange(6.0).reshape(3, 2)
    assert plain(tdata.default_collate([torch.tensor(r) for r in x])) == \
        plain(gdata.default_collate([gradlab.tensor(r) for r in x]))
    assert plain(tdata.default_convert([np.arange(3), (np.float64(2.0),)])) == \
        plain(gdata.default_convert([np.arange(3), (np.float64(2.0),)]))
    for batch in ([object()], [[1, 2], [3]], [np.array(["a"])]):
        errors = []
        for data in (tdata, gdata):
            try:
                data.default_collate(batch)
            except (TypeError, RuntimeError) as e:
                errors.append((type(e).__name__, str(e)))
        assert errors[0] == errors[1]


def test_custom_iterable_concat_and_subset_datasets():
    seed(5)
    for mod, data in ((torch, tdata), (gradlab, gdata)):
        class Squares(data.Dataset):
            def __len__(self):
                return 5

            def __getitem__(self, i):
                return mod.tensor([i, i * i]), i % 2

        class Stream(data.IterableDataset):
            def __iter__(self):
                return iter(range(7))
        out = [plain(b) for b in data.DataLoader(Squares(), batch_size=2, shuffle=True)]
        out += [plain(b) for b in data.DataLoader(Stream(), batch_size=3)]
        out += [plain(b) for b in data.DataLoader(Stream(), batch_size=3, drop_last=True)]
        out += [len(data.DataLoader(Squares(), batch_size=3)), len(data.ConcatDataset([Squares(), Squares()]))]
        out += [plain((Squares() + Squares())[7]), plain(data.Subset(Squares(), [4, 0])[0]),
                list(data.ChainDataset([Stream(), Stream()]))[5:9]]
        out += [plain(data.StackDataset(Squares(), Squares())[2]), plain(data.StackDataset(a=Squares())[1])]
        if mod is torch:
            expected = out
    assert out == expected


ERRORS = [
    lambda d, ds: d.DataLoader(ds, sampler=d.SequentialSampler(ds), shuffle=True),
    lambda d, ds: d.DataLoader(ds, batch_sampler=[[0]], batch_size=2),
    lambda d, ds: d.DataLoader(ds, batch_size=0),
    lambda d, ds: d.DataLoader(ds, batch_size=None, drop_last=True),
    lambda d, ds: d.DataLoader(ds, num_workers=-1),
    lambda d, ds: d.DataLoader(ds, prefetch_factor=2),
    lambda d, ds: d.DataLoader(ds, persistent_workers=True),
    lambda d, ds: d.DataLoader(ds, timeout=-1),
    lambda d, ds: d.RandomSampler(ds, replacement=1),
    lambda d, ds: d.RandomSampler(ds, num_samples=0),
    lambda d, ds: d.BatchSampler(range(3), 2, 1),
    lambda d, ds: d.WeightedRandomSampler([[1.0]], 2),
    lambda d, ds: d.random_split(ds, [3, 3]),
    lambda d, ds: d.random_split(ds, [1.2, -0.2]),
    lambda d, ds: d.ConcatDataset([]),
    lambda d, ds: d.StackDataset(),
    lambda d, ds: d.Dataset()[0],
    lambda d, ds: setattr(d.DataLoader(ds), "batch_size", 3),
    lambda d, ds: list(d.DataLoader(ds, batch_sampler=[[0, 10]])),
    lambda d, ds: list(d.DataLoader(ds, batch_sampler=[[-11]])),
    lambda d, ds: [plain(b) for b in d.DataLoader(ds, batch_sampler=[[-1, 2], [3]])],
]


@pytest.mark.parametrize("make", ERRORS)
def test_errors(make):
    tds, gds = datasets(10)
    got = []
    for data, ds in ((tdata, tds), (gdata, gds)):
        try:
            got.append(make(data, ds))
        except Exception as e:          # noqa: BLE001
            got.append((type(e).__name__, str(e)))
    assert got[0] == got[1]


def test_attributes():
    tds, gds = datasets(10)
    tl, gl = tdata.DataLoader(tds, batch_size=3, shuffle=True), gdata.DataLoader(gds, batch_size=3, shuffle=True)
    for name in ("batch_size", "drop_last", "num_workers", "generator", "timeout", "pin_memory"):
        assert getattr(tl, name) == getattr(gl, name)
    assert type(tl.sampler).__name__ == type(gl.sampler).__name__
    assert type(tl.batch_sampler).__name__ == type(gl.batch_sampler).__name__
    assert gl.dataset is gds and gl.collate_fn is gdata.default_collate
    assert gdata.get_worker_info() is None


@pytest.mark.parametrize("persistent", [False, True])
def test_workers_load_the_same_batches_in_process(persistent):
    """num_workers > 0 loads in this process here; the batches and the random numbers drawn around
    them are PyTorch's (a persistent iterator draws its base seed once)."""
    tds, gds = datasets(10)
    seed(6)
    tl = tdata.DataLoader(tds, batch_size=4, shuffle=True, num_workers=2, persistent_workers=persistent)
    gl = gdata.DataLoader(gds, batch_size=4, shuffle=True, num_workers=2, persistent_workers=persistent)
    for _ in range(2):
        assert [plain(b) for b in tl] == [plain(b) for b in gl]
        assert streams_agree()


def test_batches_of_tensors_that_require_grad():
    x = np.arange(12.0).reshape(6, 2)
    results = []
    for lib, data in ((torch, tdata), (gradlab, gdata)):
        ds = data.TensorDataset(lib.tensor(x, requires_grad=True), lib.arange(6))
        xb, yb = next(iter(data.DataLoader(ds, batch_size=4)))
        results.append((plain(xb), type(xb.grad_fn).__name__, xb.requires_grad, plain(yb), xb.is_contiguous()))
    assert results[0] == results[1]


@pytest.mark.parametrize("indices", [[3, 1, 4, 1, 5], [0], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]])
def test_subset_batches(indices):
    tds, gds = datasets(10)
    seed(7)
    for bs in (1, 2, 4):
        tl = tdata.DataLoader(tdata.Subset(tds, indices), batch_size=bs, shuffle=True)
        gl = gdata.DataLoader(gdata.Subset(gds, indices), batch_size=bs, shuffle=True)
        assert [plain(b) for b in tl] == [plain(b) for b in gl]
    bad = []
    for data, ds in ((tdata, tds), (gdata, gds)):
        try:
            list(data.DataLoader(data.Subset(ds, [0, 12]), batch_size=2))
        except IndexError as e:
            bad.append(str(e))
    assert bad[0] == bad[1]
    assert streams_agree()
