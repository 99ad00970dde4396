"""torch/nn/modules/rnn.py: RNN, LSTM, GRU and their cells.

The modules are torch's Python (checks, messages, parameter names and order, init uniform(-1/sqrt(hidden),
1/sqrt(hidden)) in that order). What torch computes in C++ (`_VF.rnn_tanh`, `lstm`, `gru`, the cells:
aten/src/ATen/native/RNN.cpp, its CPU path) is written below with the same ops, in the same order, so
the graph is PyTorch's: the input projected for all steps at once (linear, then unbind), each step
`linear_hh(h).add_(x_t)` and the gates (unsafe_chunk, sigmoid_, tanh_), outputs stacked, hidden states
stacked per layer, dropout between layers in training.

A PackedSequence (nn/utils/rnn.py) runs through the packed layers below: each step computes only the
sequences still running, so h_n holds each sequence's state at its own last step.

One difference: torch's CPU build runs nn.LSTM through oneDNN when it can (grad_fn
MkldnnRnnLayerBackward0 on the output; for a packed float32 batch, when all its sequences have one length);
here nn.LSTM records the native path's graph (the values agree).
"""
import math
import numbers

from ... import creation
from ..._argparse import checked
from ..._dtype import float32 as _float32
from ...ops.registry import OPS
from ...tensor import Tensor, cat, stack
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from .module import Module
from ... import _warnings

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_empty = checked("empty", creation.empty)


# --- torch's C++ cells (RNN.cpp) -------------------------------------------------------------------
class _Params:
    """One layer-direction's weights (torch's CellParams)."""

    def __init__(self, w_ih, w_hh, b_ih=None, b_hh=None, w_hr=None):
        self.w_ih, self.w_hh, self.b_ih, self.b_hh, self.w_hr = w_ih, w_hh, b_ih, b_hh, w_hr

    def linear_ih(self, x):
        return F.linear(x, self.w_ih, self.b_ih)

    def linear_hh(self, h):
        return F.linear(h, self.w_hh, self.b_hh)

    def matmul_hr(self, h):
        return h if self.w_hr is None else h.matmul(self.w_hr.t())


def _chunks(t, n):
    """t.unsafe_chunk(n, 1): pieces of ceil(size / n) (the last one shorter when n does not divide size)."""
    size = t._data.shape[1]
    if size % n == 0:
        return OPS["unsafe_split"](t, dim=1, sections=n)
    step = -(-size // n)
    return OPS["unsafe_split"](t, dim=1, sections=list(range(step, size, step)))


def _tanh_cell(x, h, p, pre=False):
    return p.linear_hh(h).add_(x if pre else p.linear_ih(x)).tanh()


def _relu_cell(x, h, p, pre=False):
    return p.linear_hh(h).add_(x if pre else p.linear_ih(x)).relu()


def _lstm_cell(x, hidden, p, pre=False):
    hx, cx = hidden
    gates = p.linear_hh(hx).add_(x if pre else p.linear_ih(x))
    ingate, forgetgate, cellgate, outgate = _chunks(gates, 4)
    ingate = ingate.sigmoid_()
    forgetgate = forgetgate.sigmoid_()
    cellgate = cellgate.tanh_()
    outgate = outgate.sigmoid_()
    cy = (forgetgate * cx).add_(ingate * cellgate)
    hy = outgate * cy.tanh()
    return p.matmul_hr(hy), cy


def _gru_cell(x, h, p, pre=False):
    igates = _chunks(x if pre else p.linear_ih(x), 3)
    hgates = _chunks(p.linear_hh(h), 3)
    reset_gate = hgates[0].add_(igates[0]).sigmoid_()
    input_gate = hgates[1].add_(igates[1]).sigmoid_()
    new_gate = igates[2].add(hgates[2].mul_(reset_gate)).tanh_()
    return (h - new_gate).mul_(input_gate).add_(new_gate)


def _output(hidden):
    return hidden[0] if isinstance(hidden, tuple) else hidden


def _steps(cell, steps, hidden, p):
    outputs = []
    for x in steps:
        hidden = cell(x, hidden, p, True)
        outputs.append(_output(hidden))
    if not outputs:
        raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
    return outputs, hidden


def _full_layer(cell, input, hidden, p):
    outputs, hidden = _steps(cell, p.linear_ih(input).unbind(0), hidden, p)
    return stack(outputs, 0), hidden


def _bidirectional_layer(cell, input, hidden, params):
    fw_outputs, fw_hidden = _steps(cell, params[0].linear_ih(input).unbind(0), hidden[0], params[0])
    fw_output = stack(fw_outputs, 0)
    rev_outputs, rev_hidden = _steps(cell, params[1].linear_ih(input).unbind(0)[::-1], hidden[1], params[1])
    rev_output = stack(rev_outputs[::-1], 0)
    return cat([fw_output, rev_output], fw_output.dim() - 1), (fw_hidden, rev_hidden)


# packed sequences (torch.lstm(data, batch_sizes, ...)): the steps' batches shrink; a sequence's final
# hidden state is set aside when it ends (PackedLayer), and the reverse direction starts with the
# shortest batch and takes in each longer one's initial state as it reaches it (ReversedPackedLayer)
def _slice(hidden, start, end):
    if isinstance(hidden, tuple):
        return tuple(h.narrow(0, start, end - start) for h in hidden)
    return hidden.narrow(0, start, end - start)


def _concat(hiddens):
    if isinstance(hiddens[0], tuple):
        return tuple(cat([h[i] for h in hiddens], 0) for i in range(len(hiddens[0])))
    return cat(hiddens, 0)


def _packed_layer(cell, data, batch_sizes, hidden, p):
    x = p.linear_ih(data)
    outputs, finished, offset, last = [], [], 0, batch_sizes[0]
    for b in batch_sizes:
        step = x.narrow(0, offset, b)
        offset += b
        if last - b > 0:
            finished.append(_slice(hidden, b, last))
            hidden = _slice(hidden, 0, b)
        last = b
        hidden = cell(step, hidden, p, True)
        outputs.append(_output(hidden))
    finished.append(hidden)
    return cat(outputs, 0), _concat(finished[::-1])


def _reversed_packed_layer(cell, data, batch_sizes, input_hidden, p):
    x = p.linear_ih(data)
    offset, last = data.size(0), batch_sizes[-1]
    hidden = _slice(input_hidden, 0, last)
    outputs = []
    for b in reversed(batch_sizes):
        if b - last > 0:
            hidden = _concat([hidden, _slice(input_hidden, last, b)])
        step = x.narrow(0, offset - b, b)
        offset -= b
        last = b
        hidden = cell(step, hidden, p, True)
        outputs.append(_output(hidden))
    return cat(outputs[::-1], 0), hidden


def _rnn_impl(cell, input, hiddens, params, num_layers, dropout_p, train, bidirectional, batch_sizes=None):
    """apply_layer_stack: the layers in turn (dropout between them in training); the final hidden
    state of every layer and direction, in torch's order."""
    directions = 2 if bidirectional else 1
    if bidirectional and (len(hiddens) % 2 or len(params) % 2):
        raise RuntimeError("Odd number of params or hiddens given to a bidirectional RNN")
    if num_layers != len(hiddens) // directions:
        raise RuntimeError("Expected more hidden states in stacked_rnn")
    if num_layers != len(params) // directions:
        raise RuntimeError("Expected more weights in stacked_rnn")
    finals = []
    directions = 2 if bidirectional else 1
    for layer in range(num_layers):
        ps = params[layer * directions:(layer + 1) * directions]
        hs = hiddens[layer * directions:(layer + 1) * directions]
        if batch_sizes is not None:
            output, h = _packed_layer(cell, input, batch_sizes, hs[0], ps[0])
            finals.append(h)
            if bidirectional:
                rev_output, rev = _reversed_packed_layer(cell, input, batch_sizes, hs[1], ps[1])
                output = cat([output, rev_output], -1)
                finals.append(rev)
            input = output
        elif bidirectional:
            input, (fw, rev) = _bidirectional_layer(cell, input, hs, ps)
            finals += [fw, rev]
        else:
            input, h = _full_layer(cell, input, hs[0], ps[0])
            finals.append(h)
        if dropout_p != 0 and train and layer < num_layers - 1:
            input = F.dropout(input, dropout_p, True)
    return input, finals


def _gather_params(weights, has_biases, has_proj):
    per = (4 if has_biases else 2) + (1 if has_proj else 0)
    if len(weights) % per:
        raise RuntimeError("got an incorrect number of RNN parameters")
    groups = []
    for i in range(0, len(weights), per):
        w = weights[i:i + per]
        if has_biases:
            groups.append(_Params(w[0], w[1], w[2], w[3], w[4] if has_proj else None))
        else:
            groups.append(_Params(w[0], w[1], None, None, w[2] if has_proj else None))
    return groups


def _vf_rnn(cell, input, hx, weights, has_biases, num_layers, dropout, train, bidirectional, batch_first,
            has_proj=False, batch_sizes=None):
    """_VF.rnn_tanh / rnn_relu / gru / lstm (hx a pair for the LSTM; batch_sizes for packed data)."""
    if batch_first:
        input = input.transpose(0, 1)
    params = _gather_params(weights, has_biases, has_proj)
    if isinstance(hx, tuple):
        hiddens = list(zip(hx[0].unbind(0), hx[1].unbind(0)))
    else:
        hiddens = list(hx.unbind(0))
    output, finals = _rnn_impl(cell, input, hiddens, params, num_layers, dropout, train, bidirectional,
                               batch_sizes)
    if batch_first:      # (PyTorch's lstm transposes out of place, the others in place)
        output = output.transpose(0, 1) if isinstance(hx, tuple) else output.transpose_(0, 1)
    if isinstance(hx, tuple):
        return output, stack([h for h, _ in finals], 0), stack([c for _, c in finals], 0)
    return output, stack(finals, 0)


# --- the modules -------------------------------------------------------------------------------------
_CELLS = {"RNN_TANH": _tanh_cell, "RNN_RELU": _relu_cell, "LSTM": _lstm_cell, "GRU": _gru_cell}


class RNNBase(Module):
    """Base class for RNN modules (RNN, LSTM, GRU): torch's checks, parameters and repr."""

    def __init__(self, mode, input_size, hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0,
                 bidirectional=False, proj_size=0, device=None, dtype=None):
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if (not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool)):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            _warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                           f"expects num_layers greater than 1, but got dropout={dropout} and "
                           f"num_layers={num_layers}")
        if not isinstance(bias, bool):
            raise TypeError(f"bias should be of type bool, got: {type(bias).__name__}")
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first should be of type bool, got: {type(batch_first).__name__}")
        if not isinstance(input_size, int):
            raise TypeError(f"input_size should be of type int, got: {type(input_size).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        gate_size = {"LSTM": 4 * hidden_size, "GRU": 3 * hidden_size, "RNN_TANH": hidden_size,
                     "RNN_RELU": hidden_size}.get(mode)
        if gate_size is None:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                real_hidden_size = proj_size if proj_size > 0 else hidden_size
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                w_ih = Parameter(_empty((gate_size, layer_input_size), device=device, dtype=dtype))
                w_hh = Parameter(_empty((gate_size, real_hidden_size), device=device, dtype=dtype))
                b_ih = Parameter(_empty(gate_size, device=device, dtype=dtype))
                b_hh = Parameter(_empty(gate_size, device=device, dtype=dtype))
                if self.proj_size == 0:
                    layer_params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                else:
                    w_hr = Parameter(_empty((proj_size, hidden_size), device=device, dtype=dtype))
                    layer_params = (w_ih, w_hh, b_ih, b_hh, w_hr) if bias else (w_ih, w_hh, w_hr)
                suffix = "_reverse" if direction == 1 else ""
                param_names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    param_names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if self.proj_size > 0:
                    param_names += ["weight_hr_l{}{}"]
                param_names = [x.format(layer, suffix) for x in param_names]
                for name, param in zip(param_names, layer_params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(param_names)
                self._all_weights.append(param_names)
        self.reset_parameters()

    @property
    def _flat_weights(self):
        return [getattr(self, name, None) for name in self._flat_weights_names]

    def flatten_parameters(self):
        """A no-op on CPU (torch packs the weights for cuDNN only)."""

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input, batch_sizes):
        weight_dtype = self._flat_weights[0].dtype
        if input.dtype != weight_dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({weight_dtype}). Convert "
                             f"input: input.to({weight_dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.dim() != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, "
                               f"got {input.size(-1)}")

    def get_expected_hidden_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        size = self.proj_size if self.proj_size > 0 else self.hidden_size
        return (self.num_layers * num_directions, mini_batch, size)

    def check_hidden_size(self, hx, expected_hidden_size, msg="Expected hidden size {}, got {}"):
        if hx.size() != expected_hidden_size:
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.size())))

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        return hx if permutation is None else hx.index_select(1, permutation)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    @property
    def all_weights(self):
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def _prepare(self, input, hx, name, hidden_size):
        """The unbatched/batched handling of torch's forward; returns (input, hx, is_batched, batch_dim)."""
        if input.dim() not in (2, 3):
            tail = " tensor" if name == "RNN" else ""
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tail} instead")
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
            if hx is not None:
                if hx.dim() != 2:
                    raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.dim()}-D tensor")
                hx = hx.unsqueeze(1)
        elif hx is not None and hx.dim() != 3:
            raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.dim()}-D tensor")
        max_batch_size = input.size(0) if self.batch_first else input.size(1)
        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            hx = creation.zeros(self.num_layers * num_directions, max_batch_size, hidden_size, dtype=input.dtype,
                                device=input.device)
        return input, hx, is_batched, batch_dim


    def _forward_packed(self, input, hx, cell):
        """RNN and GRU on a PackedSequence: hx given in the caller's order is put in the packed (sorted) order,
        and the final hidden states back in the caller's."""
        data, batch_sizes, sorted_indices, unsorted_indices = input
        if hx is None:
            num_directions = 2 if self.bidirectional else 1
            hx = creation.zeros(self.num_layers * num_directions, int(batch_sizes[0]), self.hidden_size,
                                dtype=data.dtype, device=data.device)
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        self.check_forward_args(data, hx, batch_sizes)
        output, hidden = _vf_rnn(cell, data, hx, self._flat_weights, self.bias, self.num_layers, self.dropout,
                                 self.training, self.bidirectional, False, batch_sizes=_sizes(batch_sizes))
        return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                self.permute_hidden(hidden, unsorted_indices))


def _sizes(batch_sizes):
    """A PackedSequence's batch_sizes as Python ints (the steps' batches, read by the packed layers)."""
    return [int(b) for b in batch_sizes._data.reshape(-1)]


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_(t-1) W_hh^T + b_hh) (or relu)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx, _CELLS[self.mode])
        input, hx, is_batched, batch_dim = self._prepare(input, hx, "RNN", self.hidden_size)
        self.check_forward_args(input, hx, None)
        output, hidden = _vf_rnn(_CELLS[self.mode], input, hx, self._flat_weights, self.bias, self.num_layers,
                                 self.dropout, self.training, self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden


class LSTM(RNNBase):
    """Long short-term memory: returns (output, (h_n, c_n))."""

    def __init__(self, *args, **kwargs):
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes):
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes):
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx, permutation):
        if permutation is None:
            return hx
        return hx[0].index_select(1, permutation), hx[1].index_select(1, permutation)

    def forward(self, input, hx=None):
        num_directions = 2 if self.bidirectional else 1
        real_hidden_size = self.proj_size if self.proj_size > 0 else self.hidden_size
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx, num_directions, real_hidden_size)
        if input.dim() not in (2, 3):
            raise ValueError(f"LSTM: Expected input to be 2D or 3D, got {input.dim()}D instead")
        is_batched = input.dim() == 3
        batch_dim = 0 if self.batch_first else 1
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        max_batch_size = input.size(0) if self.batch_first else input.size(1)
        if hx is None:
            h_zeros = creation.zeros(self.num_layers * num_directions, max_batch_size, real_hidden_size,
                                     dtype=input.dtype, device=input.device)
            c_zeros = creation.zeros(self.num_layers * num_directions, max_batch_size, self.hidden_size,
                                     dtype=input.dtype, device=input.device)
            hx = (h_zeros, c_zeros)
        else:
            if is_batched:
                if hx[0].dim() != 3 or hx[1].dim() != 3:
                    raise RuntimeError("For batched 3-D input, hx and cx should also be 3-D but got "
                                       f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
            else:
                if hx[0].dim() != 2 or hx[1].dim() != 2:
                    raise RuntimeError("For unbatched 2-D input, hx and cx should also be 2-D but got "
                                       f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1))
        self.check_forward_args(input, hx, None)
        self._warn_projections(input)
        output, h, c = _vf_rnn(_lstm_cell, input, tuple(hx), self._flat_weights, self.bias, self.num_layers,
                               self.dropout, self.training, self.bidirectional, self.batch_first,
                               has_proj=self.proj_size > 0)
        if not is_batched:
            output = output.squeeze(batch_dim)
            h, c = h.squeeze(1), c.squeeze(1)
        return output, (h, c)


    def _forward_packed(self, input, hx, num_directions, real_hidden_size):
        """The LSTM on a PackedSequence. (PyTorch checks neither the input nor hx here: a wrong one fails
        inside the computation, with the error of the op it breaks.)"""
        data, batch_sizes, sorted_indices, unsorted_indices = input
        max_batch_size = int(batch_sizes[0])
        if hx is None:
            shape = (self.num_layers * num_directions, max_batch_size)
            hx = (creation.zeros(*shape, real_hidden_size, dtype=data.dtype, device=data.device),
                  creation.zeros(*shape, self.hidden_size, dtype=data.dtype, device=data.device))
        else:
            hx = self.permute_hidden(hx, sorted_indices)
        # (no oneDNN warning for projections: PyTorch's packed LSTM never tries oneDNN)
        # (through torch.lstm's argument parser: PyTorch's TypeError for an hx that is not a pair)
        output, h, c = _lstm_checked(data, batch_sizes, hx, self._flat_weights, self.bias, self.num_layers,
                                     self.dropout, self.training, self.bidirectional)
        return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                self.permute_hidden((h, c), unsorted_indices))

    def _warn_projections(self, input):
        if self.proj_size > 0 and input.dtype == _float32:
            # (torch's oneDNN LSTM refuses projections, once per process)
            _warnings.warn_once("LSTM with projections is not supported with oneDNN. Using default implementation. "
                                "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1512.)")


class GRU(RNNBase):
    """Gated recurrent unit: returns (output, h_n)."""

    def __init__(self, *args, **kwargs):
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx, _gru_cell)
        input, hx, is_batched, batch_dim = self._prepare(input, hx, "GRU", self.hidden_size)
        self.check_forward_args(input, hx, None)
        output, hidden = _vf_rnn(_gru_cell, input, hx, self._flat_weights, self.bias, self.num_layers,
                                 self.dropout, self.training, self.bidirectional, self.batch_first)
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = hidden.squeeze(1)
        return output, hidden


# --- cells -------------------------------------------------------------------------------------------
def _check_cell(input, hx, w_ih, w_hh, labels):
    """torch's check_rnn_cell_forward_input / _hidden."""
    if input.size(1) != w_ih.size(1):
        raise RuntimeError(f"input has inconsistent input_size: got {input.size(1)} expected {w_ih.size(1)}")
    for h, label in zip(hx, labels):
        if input.size(0) != h.size(0):
            raise RuntimeError(f"Input batch size {input.size(0)} doesn't match hidden{label} batch size "
                               f"{h.size(0)}")
        if h.size(1) != w_hh.size(1):
            raise RuntimeError(f"hidden{label} has inconsistent hidden_size: got {h.size(1)}, expected "
                               f"{w_hh.size(1)}")


class RNNCellBase(Module):
    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(_empty((num_chunks * hidden_size, input_size), device=device, dtype=dtype))
        self.weight_hh = Parameter(_empty((num_chunks * hidden_size, hidden_size), device=device, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(_empty(num_chunks * hidden_size, device=device, dtype=dtype))
            self.bias_hh = Parameter(_empty(num_chunks * hidden_size, device=device, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += f", bias={self.bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _params(self):
        return _Params(self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)

    def _batched(self, name, input, hx, what="hidden"):
        if input.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None and hx.dim() not in (1, 2):
            raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {hx.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            hx = creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
        else:
            hx = hx.unsqueeze(0) if not is_batched else hx
        return input, hx, is_batched


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, hx, is_batched = self._batched("RNNCell", input, hx)
        if self.nonlinearity == "tanh":
            cell = _tanh_cell
        elif self.nonlinearity == "relu":
            cell = _relu_cell
        else:
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        _check_cell(input, (hx,), self.weight_ih, self.weight_hh, ("0",))
        ret = cell(input, hx, self._params())
        return ret if is_batched else ret.squeeze(0)


class LSTMCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        if input.dim() not in (1, 2):
            raise ValueError(f"LSTMCell: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            for idx, value in enumerate(hx):
                if value.dim() not in (1, 2):
                    raise ValueError(f"LSTMCell: Expected hx[{idx}] to be 1D or 2D, got {value.dim()}D instead")
        is_batched = input.dim() == 2
        if not is_batched:
            input = input.unsqueeze(0)
        if hx is None:
            zeros = creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            hx = (zeros, zeros)
        else:
            hx = (hx[0].unsqueeze(0), hx[1].unsqueeze(0)) if not is_batched else tuple(hx)
        _check_cell(input, hx, self.weight_ih, self.weight_hh, ("0", "1"))
        hy, cy = _lstm_cell(input, hx, self._params())
        if not is_batched:
            return hy.squeeze(0), cy.squeeze(0)
        return hy, cy


class GRUCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, device=None, dtype=None):
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, hx, is_batched = self._batched("GRUCell", input, hx)
        _check_cell(input, (hx,), self.weight_ih, self.weight_hh, ("0",))
        ret = _gru_cell(input, hx, self._params())
        return ret if is_batched else ret.squeeze(0)



# --- torch.lstm, torch.gru, torch.rnn_tanh, torch.rnn_relu and their cells ------------------------------
# The C functions the modules above call (torch._VF), as PyTorch also exports them: the same code, with
# the checks PyTorch's C++ makes where a module would have checked before.
def _vf_function(name, cell):
    def unpacked(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
        return call(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first, None)

    def packed(data, batch_sizes, hx, params, has_biases, num_layers, dropout, train, bidirectional):
        return call(data, hx, params, has_biases, num_layers, dropout, train, bidirectional, False,
                    [int(b) for b in batch_sizes._data.reshape(-1)])

    def call(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first, batch_sizes):
        has_proj = False
        if cell is _lstm_cell:
            if len(hx) != 2:
                raise RuntimeError("lstm expects two hidden states")
            cell_size = hx[1].size(2)       # (PyTorch's C++ reads hx[1]'s size first)
            has_proj = hx[0].size(2) != cell_size
            hx = tuple(hx)
        return _vf_rnn(cell, input, hx, list(params), has_biases, num_layers, dropout, train, bidirectional,
                       batch_first, has_proj=has_proj, batch_sizes=batch_sizes)

    def rnn(*args, **kwargs):
        # PyTorch's two overloads: (input, hx, params, ..., batch_first) and (data, batch_sizes, hx, params,
        # ...): the second has a tensor where the first has hx (the LSTM's: a pair) or params (the others')
        where = 1 if cell is _lstm_cell else 2
        is_packed = "batch_sizes" in kwargs or (len(args) > where and isinstance(args[where], Tensor))
        return (packed if is_packed else unpacked)(*args, **kwargs)
    rnn.__name__ = rnn.__qualname__ = name
    return rnn


lstm = _vf_function("lstm", _lstm_cell)
_lstm_checked = checked("lstm", lstm)
gru = _vf_function("gru", _gru_cell)
rnn_tanh = _vf_function("rnn_tanh", _tanh_cell)
rnn_relu = _vf_function("rnn_relu", _relu_cell)


def _check_weights(w_ih, w_hh, chunks):
    """The weights' first dims: chunks gates of hidden_size (w_hh's second dim) each."""
    hidden_size = w_hh.size(1)
    for name, w in (("weight_ih", w_ih), ("weight_hh", w_hh)):
        if w.size(0) != chunks * hidden_size:
            raise RuntimeError(f"{name} first dim must be {chunks} * hidden_size = {chunks * hidden_size}, but got "
                               f"{w.size(0)}")


def lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
    if len(hx) != 2:
        raise RuntimeError("lstm_cell expects two hidden states")
    _check_weights(w_ih, w_hh, 4)
    _check_cell(input, hx, w_ih, w_hh, ("0", "1"))
    return _lstm_cell(input, tuple(hx), _Params(w_ih, w_hh, b_ih, b_hh))


def _vf_cell(name, cell, chunks):
    def rnn_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None):
        _check_weights(w_ih, w_hh, chunks)
        _check_cell(input, (hx,), w_ih, w_hh, ("0",))
        return cell(input, hx, _Params(w_ih, w_hh, b_ih, b_hh))
    rnn_cell.__name__ = rnn_cell.__qualname__ = name
    return rnn_cell


gru_cell = _vf_cell("gru_cell", _gru_cell, 3)
rnn_tanh_cell = _vf_cell("rnn_tanh_cell", _tanh_cell, 1)
rnn_relu_cell = _vf_cell("rnn_relu_cell", _relu_cell, 1)
