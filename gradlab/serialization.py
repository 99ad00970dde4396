"""torch.save / torch.load: tensors, state_dicts, nested containers and whole nn.Modules.

gradlab's own file format (PyTorch's zip archive is not needed to run its programs): a magic
line, then a pickle of the storages' bytes, then the object's pickle, in which each tensor is a
call to `_rebuild_tensor` (or `_rebuild_parameter`) naming its storage, offset, sizes and strides.
Tensors that share memory when saved share it when loaded (x and x[1] stay a view pair), as in
PyTorch. `torch.load` takes PyTorch 2.13's arguments: `weights_only` (True by default) accepts
tensors, containers, dtypes, devices and sizes only, and refuses anything else with PyTorch's
message; `map_location` may name the CPU only, as on a CPU-only build.
"""
import codecs
import contextlib
import io
import os
import pickle
import struct
import zipfile
from collections import Counter, OrderedDict

import numpy as np

from . import _device, _dtype
from ._size import Size
from ._tensor_core import Tensor
from . import _warnings

__all__ = ["save", "load", "add_safe_globals", "get_safe_globals", "clear_safe_globals", "safe_globals"]

_MAGIC = b"gradlab.save 1\n"
DEFAULT_PROTOCOL = 2


# --- save -------------------------------------------------------------------------------------------

class _StorageRef:
    __slots__ = ("key",)

    def __init__(self, key):
        self.key = key


class _Pickler(pickle.Pickler):
    """A pickler that writes each tensor as its storage (kept aside, once) and its view of it."""

    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.storages = {}         # key -> (numpy dtype string, bytes)
        self._owners = {}          # id(owner array) -> key (the arrays are kept alive in _keep)
        self._keep = []

    def persistent_id(self, obj):
        if type(obj) is _StorageRef:
            return ("storage", obj.key)
        return None

    def reducer_override(self, obj):
        if not isinstance(obj, Tensor):
            return NotImplemented
        storage, offset, strides = self._storage_of(obj._data)
        args = (storage, offset, tuple(obj._data.shape), strides, obj.requires_grad)
        if (type(obj).__module__, type(obj).__name__) == _PARAMETER:     # nn.Parameter (the class is stored)
            return _rebuild_parameter, (type(obj),) + args
        return _rebuild_tensor, args

    def _storage_of(self, data):
        """(the storage's reference, offset, strides in elements): the numpy array that owns the
        memory when the tensor lies inside it, else a contiguous copy of its own."""
        owner = data
        while isinstance(owner.base, np.ndarray):
            owner = owner.base
        item = data.itemsize
        usable = (owner.dtype == data.dtype and owner.flags.c_contiguous and all(s >= 0 and s % item == 0
                                                                                  for s in data.strides))
        if usable:
            offset = (data.__array_interface__["data"][0] - owner.__array_interface__["data"][0]) // item
            last = offset + sum((n - 1) * s // item for n, s in zip(data.shape, data.strides)) if data.size else offset
            usable = 0 <= offset and last < max(owner.size, 1)
        if not usable:
            owner, offset = np.ascontiguousarray(data), 0
        strides = tuple(s // item for s in (data if usable else owner).strides)
        key = self._owners.get(id(owner))
        if key is None:
            key = str(len(self.storages))
            self._owners[id(owner)] = key
            self._keep.append(owner)
            self.storages[key] = (owner.dtype.str, owner.tobytes())
        return _StorageRef(key), int(offset), strides


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Write obj (tensors, dicts, lists, state_dicts, modules, ...) to a path or a binary file."""
    if not isinstance(f, (str, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be string, path, or a file-like object with a 'write' attribute")
    if isinstance(f, (str, os.PathLike)):
        parent = os.path.dirname(os.fspath(f))
        if parent and not os.path.isdir(parent):
            raise RuntimeError(f"Parent directory {parent} does not exist.")
    body = io.BytesIO()
    pickler = _Pickler(body, max(int(pickle_protocol), 2))
    pickler.dump(obj)
    with _opened(f, "wb") as out:
        out.write(_MAGIC)
        pickle.dump(pickler.storages, out, protocol=4)
        out.write(body.getvalue())


@contextlib.contextmanager
def _opened(f, mode):
    if isinstance(f, (str, os.PathLike)):
        with open(f, mode) as file:
            yield file
    else:
        yield f


# --- load -------------------------------------------------------------------------------------------

def _rebuild_tensor(storage, offset, size, stride, requires_grad):
    item = storage.itemsize
    data = np.ndarray(tuple(size), storage.dtype, buffer=storage, offset=offset * item,
                      strides=tuple(s * item for s in stride))
    t = Tensor._make(data)
    if requires_grad:
        t._requires_grad = True
    return t


def _rebuild_parameter(cls, storage, offset, size, stride, requires_grad):
    return cls(_rebuild_tensor(storage, offset, size, stride, False), requires_grad)


_rebuild_tensor.__module__ = _rebuild_parameter.__module__ = "gradlab.serialization"

_ALLOWED = {("collections", "OrderedDict"): OrderedDict, ("collections", "Counter"): Counter,
            ("builtins", "set"): set, ("builtins", "frozenset"): frozenset, ("builtins", "bytearray"): bytearray,
            ("builtins", "complex"): complex, ("_codecs", "encode"): codecs.encode, ("gradlab", "Size"): Size, ("gradlab", "device"): _device.device,
            ("gradlab.serialization", "_rebuild_tensor"): _rebuild_tensor,
            ("gradlab.serialization", "_rebuild_parameter"): _rebuild_parameter}
_ALLOWED.update({("gradlab", d.name): d for d in _dtype.ALL})
_ALLOWED[("gradlab", "bool")] = _dtype.bool_
_PY2_MODULES = {"__builtin__": "builtins", "copy_reg": "copyreg"}
_PARAMETER = ("gradlab.nn.parameter", "Parameter")
# what PyTorch allows under other names: Parameter, and the hooks' dict a pickled Module holds
_INTERNAL = {_PARAMETER, ("gradlab.autograd.node", "_HookDict")}
_SAFE_GLOBALS = []            # add_safe_globals'


def _torch_name(module, name):
    """How PyTorch's message names a global: gradlab's modules are torch's."""
    if module == "gradlab" or module.startswith("gradlab."):
        module = "torch" + module[len("gradlab"):]
    return f"{module}.{name}"


def _weights_only_error(message):
    return pickle.UnpicklingError(
        "Weights only load failed. This file can still be loaded, to do so you have two options, \x1b[1mdo those "
        "steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, we changed the "
        "default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running "
        "`torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code "
        "execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, to load with "
        "`weights_only=True` please check the recommended steps in the following error message.\n\t"
        f"WeightsUnpickler error: {message}\n\nCheck the documentation of torch.load to learn more about types "
        "accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.")


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, storages, weights_only, **kwargs):
        super().__init__(file, **kwargs)
        self.storages = storages
        self.weights_only = weights_only

    def persistent_load(self, pid):
        return self.storages[pid[1]]

    def find_class(self, module, name):
        if not self.weights_only:
            return super().find_class(module, name)
        module = _PY2_MODULES.get(module, module)         # (protocol 2 names builtins as Python 2 did)
        found = _ALLOWED.get((module, name))
        if found is not None:
            return found
        if (module, name) in _INTERNAL:
            return super().find_class(module, name)
        for g in _SAFE_GLOBALS:
            if (getattr(g, "__module__", None), getattr(g, "__qualname__", getattr(g, "__name__", None))) == (module,
                                                                                                           name):
                return g
        full = _torch_name(module, name)
        raise _weights_only_error(
            f"Unsupported global: GLOBAL {full} was not an allowed global by default. Please use "
            f"`torch.serialization.add_safe_globals([{full}])` or the `torch.serialization.safe_globals([{full}])` "
            "context manager to allowlist this global if you trust this class/function.")


class _StorageTable(pickle.Unpickler):
    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"gradlab.load: unexpected global {module}.{name} in the storage table")


_NO_CUDA = ("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are "
            "running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your "
            "storages to the CPU.")


def _check_location(location):
    """Where map_location sends a storage saved on the CPU: it must be the CPU here."""
    if location is None:
        return
    d = location if isinstance(location, _device.device) else _device.device(location)
    if d.type == "cuda":
        raise RuntimeError(_NO_CUDA)
    _device.require_cpu(d)


def _map(storage, map_location):
    if map_location is None:
        return storage
    if callable(map_location):
        result = map_location(storage, "cpu")
        return result if isinstance(result, np.ndarray) else storage
    if isinstance(map_location, dict):
        _check_location(map_location.get("cpu"))
    else:
        _check_location(map_location)
    return storage


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read back what save wrote. weights_only (True unless a pickle_module is given) refuses
    anything but tensors, containers, dtypes, devices and sizes."""
    if weights_only is None:
        weights_only = pickle_module is None
    if weights_only and pickle_module is not None:
        raise RuntimeError("Can not safely load weights when explicit pickle_module is specified")
    if pickle_load_args and weights_only:
        _warnings.warn("pickle_load_args only works if `weights_only=False`.")
    if pickle_module is not None:
        pickle_module.__name__          # (PyTorch reads it to check for dill: its AttributeError)
    if not isinstance(f, (str, os.PathLike)):
        _check_seekable(f)
    with _opened(f, "rb") as file:
        content = file.read()
    if not content.startswith(_MAGIC):
        _foreign_file(content, weights_only, pickle_load_args)
    stream = io.BytesIO(content)
    stream.seek(len(_MAGIC))
    table = _StorageTable(stream).load()
    storages = {k: _map(np.frombuffer(bytearray(b), dtype=np.dtype(d)), map_location)
                for k, (d, b) in table.items()}
    kwargs = {k: v for k, v in pickle_load_args.items() if k in ("encoding", "errors", "fix_imports")}
    return _Unpickler(stream, storages, weights_only, **kwargs).load()


_UNSAFE_MESSAGE = ("In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from "
                   "`False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
                   "but it can result in arbitrary code execution. Do it only if you got the file from a trusted "
                   "source.")


def _foreign_file(content, weights_only, pickle_load_args):
    """A file save did not write (a text file, a truncated download): PyTorch, finding no zip archive, reads it as
    its legacy format, whose first pickle is a magic number and second a protocol version; what those reads say is
    its error."""
    if content.startswith(b"PK\x03\x04"):
        if not zipfile.is_zipfile(io.BytesIO(content)):
            raise RuntimeError(
                "PytorchStreamReader failed reading zip archive: not a ZIP archive. This is an internal miniz error. "
                "If you are seeing this error, there is a high likelihood that your checkpoint file is corrupted. "
                "This can happen if the checkpoint was not saved properly, was transferred incorrectly, or the file "
                "was modified after saving.")
        raise pickle.UnpicklingError("gradlab.load reads files written by gradlab.save (this one is not)")
    stream = io.BytesIO(content)
    kwargs = {"encoding": "utf-8", **{k: v for k, v in pickle_load_args.items()
                                      if k in ("encoding", "errors", "fix_imports")}}
    if weights_only:
        try:
            first = _WeightsOnlyFirstPickle(stream, kwargs["encoding"]).load()
        except pickle.UnpicklingError as e:
            raise pickle.UnpicklingError(
                f"Weights only load failed. {_UNSAFE_MESSAGE}\nPlease file an issue with the following so that we "
                f"can make `weights_only=True` compatible with your use case: WeightsUnpickler error: \n\n{e}\n\n"
                "Check the documentation of torch.load to learn more about types accepted by default with "
                "weights_only https://pytorch.org/docs/stable/generated/torch.load.html.") from None
    else:
        # (weights_only=False trusts the file, as PyTorch does: plain pickle reads it)
        first = pickle.Unpickler(stream, **kwargs).load()
    if first is _PAST or (first == _LEGACY_MAGIC_NUMBER and stream.tell() < len(content)):
        raise pickle.UnpicklingError("gradlab.load reads files written by gradlab.save (this one is not)")
    if first != _LEGACY_MAGIC_NUMBER:
        raise RuntimeError("Invalid magic number; corrupt file?")
    raise EOFError if weights_only else EOFError("Ran out of input")     # (no protocol version after it)


_PAST = object()    # a pickle that goes on to globals or storages: past what _WeightsOnlyFirstPickle follows


class _WeightsOnlyFirstPickle:
    """PyTorch's weights-only unpickler (torch/_weights_only_unpickler.py) on plain values, opcode by opcode, so that
    a foreign file stops where and how it stops there: the same Python operations give the same IndexError,
    KeyError, struct.error or EOFError."""

    def __init__(self, stream, encoding):
        self.read, self.encoding = stream.read, encoding

    def pop_mark(self):
        items = self.stack
        self.stack = self.metastack.pop()
        return items

    def check_set_item_target(self, opcode):
        if type(self.stack[-1]) not in (dict, OrderedDict, Counter):
            raise pickle.UnpicklingError(f"Can only {opcode} for dict, collections.OrderedDict, collections.Counter, "
                                         f"but got {type(self.stack[-1])}")

    def load(self):
        read, memo = self.read, {}
        self.stack, self.metastack = [], []
        while True:
            key = read(1)
            if not key:
                raise EOFError
            op = chr(key[0])
            if op in "c\x81RbQ":                    # GLOBAL, NEWOBJ, REDUCE, BUILD, BINPERSID
                return _PAST
            if op == "a":
                item = self.stack.pop()
                if type(self.stack[-1]) is not list:
                    raise pickle.UnpicklingError(f"Can only append to lists, but got {type(self.stack[-1])}")
                self.stack[-1].append(item)
            elif op == "e":
                items = self.pop_mark()
                if type(self.stack[-1]) is not list:
                    raise pickle.UnpicklingError(f"Can only extend lists, but got {type(self.stack[-1])}")
                self.stack[-1].extend(items)
            elif op == "s":
                v, k = self.stack.pop(), self.stack.pop()
                self.check_set_item_target("SETITEM")
                self.stack[-1][k] = v
            elif op == "u":
                items = self.pop_mark()
                self.check_set_item_target("SETITEMS")
                for i in range(0, len(items), 2):
                    self.stack[-1][items[i]] = items[i + 1]
            elif op == "(":
                self.metastack.append(self.stack)
                self.stack = []
            elif op == "t":
                self.stack.append(tuple(self.pop_mark()))
            elif op == "\x85":
                self.stack[-1] = (self.stack[-1],)
            elif op == "\x86":
                self.stack[-2:] = [(self.stack[-2], self.stack[-1])]
            elif op == "\x87":
                self.stack[-3:] = [(self.stack[-3], self.stack[-2], self.stack[-1])]
            elif op in _CONSTANTS:
                self.stack.append(_CONSTANTS[op]())
            elif op == "J":
                self.stack.append(struct.unpack("<i", read(4))[0])
            elif op == "K":
                self.stack.append(read(1)[0])
            elif op == "M":
                self.stack.append(struct.unpack("<H", read(2))[0])
            elif op == "G":
                self.stack.append(struct.unpack(">d", read(8))[0])
            elif op == "X":
                self.stack.append(str(read(struct.unpack("<I", read(4))[0]), "utf-8", "surrogatepass"))
            elif op == "U":
                data = read(read(1)[0])
                self.stack.append(data.decode(self.encoding, "strict") if self.encoding != "bytes" else data)
            elif op in "hj":
                self.stack.append(memo[(read(1) if op == "h" else struct.unpack("<I", read(4)))[0]])
            elif op in "qr":
                memo[(read(1) if op == "q" else struct.unpack("<I", read(4)))[0]] = self.stack[-1]
            elif op == "\x8a":
                self.stack.append(pickle.decode_long(read(read(1)[0])))
            elif op == "\x80":
                proto = read(1)[0]
                if proto != 2:
                    _warnings.warn(f"Detected pickle protocol {proto} in the checkpoint, which was not the default "
                                   "pickle protocol used by `torch.load` (2). The weights_only Unpickler might not "
                                   "support all instructions implemented by this protocol, please file an issue for "
                                   "adding support if you encounter this.")
            elif op == ".":
                return self.stack.pop()
            else:
                raise pickle.UnpicklingError(f"Unsupported operand {key[0]}")


_CONSTANTS = {"N": lambda: None, "\x89": lambda: False, "\x88": lambda: True, ")": tuple, "]": list, "}": dict,
              "\x8f": set}
_LEGACY_MAGIC_NUMBER = 0x1950a86a20f9469cfc6c


# --- the allowlist of weights_only --------------------------------------------------------------------

def _check_seekable(f):
    try:
        f.seek(f.tell())
    except (io.UnsupportedOperation, AttributeError) as e:
        if "seek" in str(e) or "tell" in str(e):
            raise type(e)(f"{e}. You can only torch.load from a file that is seekable. Please pre-load the data into "
                          "a buffer like io.BytesIO and try to load from it instead.") from None
        raise


def add_safe_globals(safe_globals):
    _SAFE_GLOBALS.extend(safe_globals)


def get_safe_globals():
    return list(_SAFE_GLOBALS)


def clear_safe_globals():
    _SAFE_GLOBALS.clear()


class safe_globals:
    """Context manager: these globals are allowed by weights_only loads inside the block."""

    def __init__(self, safe_globals):
        self.safe_globals = list(safe_globals)

    def __enter__(self):
        self._before = list(_SAFE_GLOBALS)
        _SAFE_GLOBALS.extend(self.safe_globals)

    def __exit__(self, *exc):
        _SAFE_GLOBALS[:] = self._before
