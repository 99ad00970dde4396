"""Torch-free tests of gradlab's tensor printing, built from numpy arrays.

Expected strings come from the parity reference (torch-parity.md section 1),
which records what torch 2.13 prints.
"""

import math

import numpy as np
import pytest

from gradlab.display import format_tensor, get_printoptions, printoptions, set_printoptions

f32 = np.float32
nan, inf = float("nan"), float("inf")


@pytest.fixture(autouse=True)
def _restore_options():
    old = get_printoptions()
    yield
    set_printoptions(**old)


# Section 1.11, table rows 1-22 (float32 inputs) plus a few more scalar/int rows.
TABLE = [
    ([1.0, 2.0, 3.0], "tensor([1., 2., 3.])"),
    ([-1.0, 10.0, -100.0], "tensor([  -1.,   10., -100.])"),
    ([1.5, 2.25, -3.0], "tensor([ 1.5000,  2.2500, -3.0000])"),
    ([0.1, 0.2, 0.3], "tensor([0.1000, 0.2000, 0.3000])"),
    ([1.23456789], "tensor([1.2346])"),
    ([12345.678], "tensor([12345.6777])"),
    ([123.456, 0.5], "tensor([123.4560,   0.5000])"),
    ([99999999.0], "tensor([100000000.])"),
    ([1.0e9], "tensor([1.0000e+09])"),
    ([1e-5], "tensor([1.0000e-05])"),
    ([0.5, 1000.0], "tensor([5.0000e-01, 1.0000e+03])"),
    ([0.1, 100.5], "tensor([1.0000e-01, 1.0050e+02])"),
    ([100000.0, 1.5], "tensor([1.0000e+05, 1.5000e+00])"),
    ([-1.5e-5, 2.0], "tensor([-1.5000e-05,  2.0000e+00])"),
    ([0.0, 0.0, 0.0], "tensor([0., 0., 0.])"),
    ([-0.0], "tensor([-0.])"),
    ([-0.0, 1.5], "tensor([-0.0000, 1.5000])"),
    ([nan, 1.0, inf, -inf], "tensor([nan, 1., inf, -inf])"),
    ([100.0, nan], "tensor([100.,  nan])"),
    ([nan, 1.5], "tensor([   nan, 1.5000])"),
    ([1e-5, nan], "tensor([1.0000e-05,        nan])"),
    ([inf, -inf], "tensor([inf, -inf])"),
    # sci-notation decision table (section 1.4)
    ([1.0, 1000.0], "tensor([   1., 1000.])"),
    ([1.0, 1001.0], "tensor([1.0000e+00, 1.0010e+03])"),
    ([0.001, 1.0], "tensor([0.0010, 1.0000])"),
    ([1e8], "tensor([100000000.])"),
    ([1.5e8], "tensor([1.5000e+08])"),
    ([1e-4], "tensor([1.0000e-04])"),
    ([0.0, 1e-5], "tensor([0.0000e+00, 1.0000e-05])"),
    ([2.0**30], "tensor([1.0737e+09])"),
    ([1.00005], "tensor([1.0000])"),
    ([2.00005], "tensor([2.0001])"),
    ([0.0, -0.0, 1.0], "tensor([0., -0., 1.])"),
]


@pytest.mark.parametrize("values,expected", TABLE, ids=[e for _, e in TABLE])
def test_float32_table(values, expected):
    assert format_tensor(np.array(values, dtype=f32)) == expected


def test_float32_product_rounding():
    # torch.tensor([0.5, 0.25]) * 1e-3 computes in float32
    assert format_tensor(np.array([0.5, 0.25], f32) * f32(1e-3)) == "tensor([0.0005, 0.0003])"


@pytest.mark.parametrize(
    "array,expected",
    [
        (np.array(3.14159, f32), "tensor(3.1416)"),
        (np.array(3.0, f32), "tensor(3.)"),
        (np.array(-0.0, f32), "tensor(-0.)"),
        (np.array(1e-7, f32), "tensor(1.0000e-07)"),
        (np.array(5), "tensor(5)"),
        (np.array(True), "tensor(True)"),
        (np.array([1, 2, 3]), "tensor([1, 2, 3])"),
        (np.array([1, -20, 300]), "tensor([  1, -20, 300])"),
        (np.array([True, False, True]), "tensor([ True, False,  True])"),
        (np.array([1, 2], np.int32), "tensor([1, 2], dtype=torch.int32)"),
        (np.array([1, 2], np.uint8), "tensor([1, 2], dtype=torch.uint8)"),
        (np.array([1, 2], np.int8), "tensor([1, 2], dtype=torch.int8)"),
        (np.array([1, 2], np.int16), "tensor([1, 2], dtype=torch.int16)"),
        (np.array([1.0, 2.0]), "tensor([1., 2.], dtype=torch.float64)"),
        (np.array([1e-4]), "tensor([0.0001], dtype=torch.float64)"),
        (np.array([1.5, 2.0], np.float16), "tensor([1.5000, 2.0000], dtype=torch.float16)"),
        (np.array([1 + 2j, 3 - 4j], np.complex64), "tensor([1.+2.j, 3.-4.j])"),
        (np.array([1 + 2j, 3 - 4j]), "tensor([1.+2.j, 3.-4.j], dtype=torch.complex128)"),
        (np.array([-1.0, 0.0, 1.0], f32), "tensor([-1.,  0.,  1.])"),
    ],
)
def test_scalars_ints_and_dtypes(array, expected):
    assert format_tensor(array) == expected


def test_requires_grad_and_grad_fn_suffixes():
    one = np.array([1.0], f32)
    assert format_tensor(one, requires_grad=True) == "tensor([1.], requires_grad=True)"
    assert format_tensor(one, requires_grad=True, grad_fn_name="MulBackward0") == (
        "tensor([1.], grad_fn=<MulBackward0>)"
    )
    assert format_tensor(np.array([2.0, 3.0]), grad_fn_name="AddBackward0") == (
        "tensor([2., 3.], dtype=torch.float64, grad_fn=<AddBackward0>)"
    )
    assert format_tensor(np.array(27.0, f32), grad_fn_name="MeanBackward0") == (
        "tensor(27., grad_fn=<MeanBackward0>)"
    )
    assert format_tensor(np.ones((2, 2), f32), requires_grad=True) == (
        "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)"
    )


# Section 1.9
@pytest.mark.parametrize(
    "array,kwargs,expected",
    [
        (np.zeros(0, f32), {}, "tensor([])"),
        (np.zeros(0, np.int64), {}, "tensor([], dtype=torch.int64)"),
        (np.zeros(0, bool), {}, "tensor([], dtype=torch.bool)"),
        (np.zeros(0, np.float64), {}, "tensor([], dtype=torch.float64)"),
        (np.zeros((0, 3), f32), {}, "tensor([], size=(0, 3))"),
        (np.zeros((2, 0), np.int64), {}, "tensor([], size=(2, 0), dtype=torch.int64)"),
        (np.zeros(0, f32), {"requires_grad": True}, "tensor([], requires_grad=True)"),
        (
            np.zeros((0, 2), f32),
            {"grad_fn_name": "MulBackward0"},
            "tensor([], size=(0, 2), grad_fn=<MulBackward0>)",
        ),
    ],
)
def test_empty_tensors(array, kwargs, expected):
    assert format_tensor(array, **kwargs) == expected


# Section 1.10: suffix placement
def test_suffix_wraps_when_last_line_is_long():
    x = np.arange(9, dtype=f32) * f32(1.123)
    assert format_tensor(x, grad_fn_name="MulBackward0") == (
        "tensor([0.0000, 1.1230, 2.2460, 3.3690, 4.4920, 5.6150, 6.7380, 7.8610, 8.9840],\n"
        "       grad_fn=<MulBackward0>)"
    )


def test_suffix_fits_after_wrapped_body():
    x = np.arange(10, dtype=f32) * f32(1.123)
    assert format_tensor(x, grad_fn_name="MulBackward0") == (
        "tensor([ 0.0000,  1.1230,  2.2460,  3.3690,  4.4920,  5.6150,  6.7380,  7.8610,\n"
        "         8.9840, 10.1070], grad_fn=<MulBackward0>)"
    )


def test_dtype_and_grad_fn_both_wrap():
    x = np.arange(9, dtype=np.float64) * 1.123
    assert format_tensor(x, grad_fn_name="MulBackward0") == (
        "tensor([0.0000, 1.1230, 2.2460, 3.3690, 4.4920, 5.6150, 6.7380, 7.8610, 8.9840],\n"
        "       dtype=torch.float64, grad_fn=<MulBackward0>)"
    )


def test_dtype_fits_grad_fn_wraps():
    x = np.arange(6, dtype=np.float64) * 1.123
    assert format_tensor(x, grad_fn_name="MulBackward0") == (
        "tensor([0.0000, 1.1230, 2.2460, 3.3690, 4.4920, 5.6150], dtype=torch.float64,\n"
        "       grad_fn=<MulBackward0>)"
    )


def test_suffix_on_last_line_of_matrix():
    x = np.arange(20, dtype=f32).reshape(4, 5) * f32(1.5)
    assert format_tensor(x, grad_fn_name="MulBackward0") == (
        "tensor([[ 0.0000,  1.5000,  3.0000,  4.5000,  6.0000],\n"
        "        [ 7.5000,  9.0000, 10.5000, 12.0000, 13.5000],\n"
        "        [15.0000, 16.5000, 18.0000, 19.5000, 21.0000],\n"
        "        [22.5000, 24.0000, 25.5000, 27.0000, 28.5000]], grad_fn=<MulBackward0>)"
    )


# Sections 1.5-1.7: layout and summarization
def test_one_dim_wrapping():
    assert format_tensor(np.arange(30, dtype=f32)) == (
        "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
        "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
        "        28., 29.])"
    )


def test_four_dims_separators():
    assert format_tensor(np.arange(16, dtype=f32).reshape(2, 2, 2, 2)) == (
        "tensor([[[[ 0.,  1.],\n"
        "          [ 2.,  3.]],\n"
        "\n"
        "         [[ 4.,  5.],\n"
        "          [ 6.,  7.]]],\n"
        "\n"
        "\n"
        "        [[[ 8.,  9.],\n"
        "          [10., 11.]],\n"
        "\n"
        "         [[12., 13.],\n"
        "          [14., 15.]]]])"
    )


def test_summarize_threshold_is_strict():
    assert "..." not in format_tensor(np.arange(1000))
    assert format_tensor(np.arange(1001)) == "tensor([   0,    1,    2,  ...,  998,  999, 1000])"


def test_summarized_rows():
    assert format_tensor(np.arange(1001, dtype=f32).reshape(1001, 1)) == (
        "tensor([[   0.],\n        [   1.],\n        [   2.],\n        ...,\n"
        "        [ 998.],\n        [ 999.],\n        [1000.]])"
    )


def test_hidden_values_do_not_affect_formatter():
    x = np.ones(2000, f32)
    x[1000] = 1e-10
    assert format_tensor(x) == "tensor([1., 1., 1.,  ..., 1., 1., 1.])"


# Section 1.2: print options
def test_default_options():
    set_printoptions(profile="default")
    assert get_printoptions() == {
        "precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80, "sci_mode": None,
    }


def test_profiles_then_overrides():
    set_printoptions(profile="short")
    assert get_printoptions() == {
        "precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80, "sci_mode": None,
    }
    set_printoptions(profile="full", precision=6)
    opts = get_printoptions()
    assert opts["precision"] == 6 and math.isinf(opts["threshold"]) and opts["edgeitems"] == 3
    set_printoptions(profile="default")


def test_none_keeps_value_but_sci_mode_always_assigned():
    set_printoptions(precision=2, sci_mode=True)
    set_printoptions(linewidth=100)
    opts = get_printoptions()
    assert opts["precision"] == 2 and opts["linewidth"] == 100 and opts["sci_mode"] is None


def test_printoptions_context_restores():
    set_printoptions(precision=3, sci_mode=False)
    before = get_printoptions()
    with printoptions(precision=2):
        assert get_printoptions()["precision"] == 2
        assert get_printoptions()["sci_mode"] is None
        assert format_tensor(np.array([1.12345, 2.5], f32)) == "tensor([1.12, 2.50])"
    assert get_printoptions() == before


@pytest.mark.parametrize(
    "array,opts,expected",
    [
        (np.array([1e-5, 1.0], f32), {"sci_mode": False}, "tensor([0.0000, 1.0000])"),
        (np.array([1e10], f32), {"sci_mode": False}, "tensor([10000000000.])"),
        (np.array([1.5, 2.0], f32), {"sci_mode": True}, "tensor([1.5000e+00, 2.0000e+00])"),
        (np.array([-1.5, 2.0], f32), {"sci_mode": True}, "tensor([-1.5000e+00,  2.0000e+00])"),
        (np.array([0.0, 0.0], f32), {"sci_mode": True}, "tensor([0., 0.])"),
        (np.array([0.0, nan], f32), {"sci_mode": True}, "tensor([0., nan])"),
        (np.arange(10), {"threshold": 5}, "tensor([0, 1, 2,  ..., 7, 8, 9])"),
        (np.arange(10), {"threshold": 5, "edgeitems": 1}, "tensor([0,  ..., 9])"),
        (np.arange(10), {"threshold": 5, "edgeitems": 0}, "tensor([...], size=(10,))"),
        (
            np.arange(10, dtype=f32).reshape(2, 5),
            {"threshold": 5},
            "tensor([[0., 1., 2., 3., 4.],\n        [5., 6., 7., 8., 9.]])",
        ),
        (
            np.arange(20, dtype=f32),
            {"linewidth": 40},
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,\n         6.,  7.,  8.,  9., 10., 11.,\n"
            "        12., 13., 14., 15., 16., 17.,\n        18., 19.])",
        ),
        # torch adds size= whenever edgeitems is 0, even without summarizing
        (np.arange(4), {"edgeitems": 0}, "tensor([0, 1, 2, 3], size=(4,))"),
    ],
)
def test_options_affect_output(array, opts, expected):
    with printoptions(**opts):
        assert format_tensor(array) == expected


def test_custom_prefix_sets_indent():
    assert format_tensor(np.ones((2, 2), f32), prefix="MyTensor(") == (
        "MyTensor([[1., 1.],\n          [1., 1.]])"
    )


def test_default_float64():
    assert format_tensor(np.array([1.0, 2.0]), default_float="float64") == "tensor([1., 2.])"
    assert format_tensor(np.array([1.0], f32), default_float="float64") == (
        "tensor([1.], dtype=torch.float32)"
    )


def test_thousand_elements_is_fast():
    import time

    x = np.random.default_rng(0).standard_normal(1000).astype(f32)
    start = time.perf_counter()
    for _ in range(10):
        format_tensor(x)
    assert (time.perf_counter() - start) / 10 < 0.02
