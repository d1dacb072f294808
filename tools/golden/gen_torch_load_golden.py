#!/usr/bin/env python3
# File: tools/golden/gen_torch_load_golden.py
# Writes small PyTorch checkpoints byte for byte as torch.save does, with the standard library
# only (no PyTorch), and the tensors each holds, for //tinygrad/nn:torch_load_test. With
# --check, loads every file the reference supports with the reference's torch_load (flattened
# by its get_state_dict) and asserts it gives exactly the names, dtypes, shapes and values
# written to the golden file.
#
# Produced by:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=PYTHON python3 \
#     <repo>/tools/golden/gen_torch_load_golden.py --out <repo>/tinygrad/nn/testdata --check
# DEV=PYTHON (the reference's emulator), not CPU: the reference's CPU backend compiles bfloat16
# with clang flags this machine's clang refuses.
#
# How torch.save's files are made here: the pickle (protocol 2) is written by pickle.Pickler
# with fake modules `torch` and `torch._utils` registered in sys.modules, so the GLOBALs are
# torch's (`torch FloatStorage`, `torch._utils _rebuild_tensor_v2`); storages are persistent
# ids ('storage', <storage class>, key, 'cpu', numel) as torch's persistent_id gives. Tensors
# reduce to _rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict()), and a
# state dict is an OrderedDict with a `_metadata` attribute (a BUILD after its items), as
# Module.state_dict() returns.
#
# Files (testdata/):
#   torch_state_dict.pt   zip (torch >= 1.6): stored members, data 64-byte aligned as torch's
#                         writer pads them, `byteorder` and `.data/serialization_id` as torch 2
#                         writes; every dtype the reference knows, views with a storage offset,
#                         two tensors on one storage, a transposed and a permuted tensor, a
#                         scalar, a size-1 dim with an odd stride, an empty tensor.
#   torch_nested.pt       zip: a training checkpoint: {'model': state dict, 'optimizer': {...},
#                         'epoch': 7, 'loss': 0.25, 'tag': 'run', 'tensors': [t0, t1], ...};
#                         one tensor memoized twice (two names, one object).
#   torch_deflated.pt     zip with every member deflated and no alignment. The reference reads
#                         only data.pkl through zipfile; it takes storages straight from the file
#                         (wrong for deflated ones), so this one is not --check'ed.
#   torch_extra_dtypes.pt zip with the storages the reference has no entry for (Char, Byte,
#                         Short, Double): it refuses the file (KeyError), we load it.
#   torch_legacy.pt       the legacy (torch < 1.6, _use_new_zipfile_serialization=False) format:
#                         magic number, protocol version and sys info pickles, the object
#                         pickle, the storage keys, then each storage as int64 numel + bytes.
#   torch_load_golden.txt '#' comment lines, then per tensor: file|name|dtype|shape|values
#                         (name as get_state_dict flattens it; values in row-major order, Python
#                         repr of each element, exactly representable in the dtype).
import argparse, collections, io, os, pickle, struct, sys, types, zipfile

# ---- fake torch -------------------------------------------------------------------------------
torch_mod = types.ModuleType("torch")
utils_mod = types.ModuleType("torch._utils")
torch_mod._utils = utils_mod
# storage class -> (struct format, dtype name in the golden file)
STORAGES = {
  "FloatStorage": ("f", "float"), "HalfStorage": ("e", "half"), "BFloat16Storage": (None, "bfloat16"),
  "LongStorage": ("q", "long"), "IntStorage": ("i", "int"), "BoolStorage": ("?", "bool"),
  "ByteStorage": ("B", "uchar"), "CharStorage": ("b", "char"), "ShortStorage": ("h", "short"),
  "DoubleStorage": ("d", "double"),
}
for _n in STORAGES:
  _c = type(_n, (), {"__module__": "torch"})
  setattr(torch_mod, _n, _c)
def _rebuild_tensor_v2(*args): raise RuntimeError("only pickled, never called")
_rebuild_tensor_v2.__module__ = "torch._utils"
utils_mod._rebuild_tensor_v2 = _rebuild_tensor_v2
sys.modules["torch"], sys.modules["torch._utils"] = torch_mod, utils_mod

def bf16_bytes(v):  # values are exactly representable: the top half of the float32
  return struct.pack("<f", v)[2:]

class Storage:
  def __init__(self, cls, values):
    self.cls, self.values = cls, list(values)
  def raw(self):
    fmt = STORAGES[self.cls][0]
    if fmt is None: return b"".join(bf16_bytes(v) for v in self.values)
    return struct.pack("<%d%s" % (len(self.values), fmt), *self.values)

class FakeTensor:
  def __init__(self, storage, offset, size, stride):
    self.storage, self.offset, self.size, self.stride = storage, offset, tuple(size), tuple(stride)
  def __reduce_ex__(self, proto):
    return (_rebuild_tensor_v2, (self.storage, self.offset, self.size, self.stride, False, collections.OrderedDict()))
  def elements(self):  # row-major values of the view
    out, idx = [], [0] * len(self.size)
    n = 1
    for s in self.size: n *= s
    for flat in range(n):
      rem = flat
      for d in reversed(range(len(self.size))):
        idx[d] = rem % self.size[d]; rem //= self.size[d]
      out.append(self.storage.values[self.offset + sum(i * st for i, st in zip(idx, self.stride))])
    return out

def contiguous(cls, values, shape):
  strides, acc = [], 1
  for s in reversed(shape): strides.insert(0, acc); acc *= s
  return FakeTensor(Storage(cls, values), 0, shape, strides)

class TorchPickler(pickle.Pickler):
  def __init__(self, f, legacy):
    super().__init__(f, protocol=2)
    self.keys, self.legacy = {}, legacy  # id(storage) -> (key, storage)
  def persistent_id(self, obj):
    if not isinstance(obj, Storage): return None
    if id(obj) not in self.keys: self.keys[id(obj)] = (str(len(self.keys)), obj)
    key = self.keys[id(obj)][0]
    pid = ("storage", getattr(torch_mod, obj.cls), key, "cpu", len(obj.values))
    return pid + (None,) if self.legacy else pid

def state_dict(items):
  sd = collections.OrderedDict(items)
  sd._metadata = collections.OrderedDict([("", {"version": 1})])
  return sd

# ---- writers ----------------------------------------------------------------------------------
def write_zip(path, obj, deflate=False, name="archive"):
  buf = io.BytesIO()
  p = TorchPickler(buf, legacy=False)
  p.dump(obj)
  members = [(f"{name}/data.pkl", buf.getvalue()), (f"{name}/byteorder", b"little")]
  members += [(f"{name}/data/{k}", s.raw()) for k, s in p.keys.values()]
  members += [(f"{name}/version", b"3\n"), (f"{name}/.data/serialization_id", b"0123456789")]
  with open(path, "wb") as f, zipfile.ZipFile(f, "w") as z:
    for mname, data in members:
      zi = zipfile.ZipInfo(mname, date_time=(1980, 1, 1, 0, 0, 0))
      zi.compress_type = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
      if not deflate:  # torch's writer pads the local header's extra field ("FB") to align data
        here = f.tell() + 30 + len(mname.encode())
        pad = (-(here + 4)) % 64
        zi.extra = b"FB" + struct.pack("<H", pad) + b"Z" * pad
      z.writestr(zi, data)

def write_legacy(path, obj):
  with open(path, "wb") as f:
    for v in (0x1950a86a20f9469cfc6c, 1001,
              {"protocol_version": 1001, "little_endian": True, "type_sizes": {"short": 2, "int": 4, "long": 4}}):
      pickle.dump(v, f, protocol=2)
    p = TorchPickler(f, legacy=True)
    p.dump(obj)
    keys = sorted(k for k, _ in p.keys.values())
    pickle.dump(keys, f, protocol=2)
    by_key = {k: s for k, s in p.keys.values()}
    for k in keys:
      f.write(struct.pack("<q", len(by_key[k].values)))
      f.write(by_key[k].raw())

# ---- contents ---------------------------------------------------------------------------------
def basic_state_dict():
  shared = Storage("FloatStorage", [0.5 * i - 2 for i in range(10)])
  base_t = Storage("FloatStorage", [float(i) for i in range(6)])       # (2,3) seen as (3,2).T
  base_p = Storage("FloatStorage", [float(i) - 11.5 for i in range(24)])  # (4,2,3) permuted (1,2,0)
  return state_dict([
    ("f32", contiguous("FloatStorage", [1.5, -2.25, 3.0, 0.125, -0.0, 3.4028234663852886e38], [2, 3])),
    ("f16", contiguous("HalfStorage", [0.5, -1.25, 65504.0, 6.103515625e-05], [4])),
    ("bf16", contiguous("BFloat16Storage", [1.0, -2.5, 2.0 ** 100], [3])),
    ("i64", contiguous("LongStorage", [-9223372036854775808, -1, 1 << 40, 9223372036854775807], [2, 2])),
    ("i32", contiguous("IntStorage", [-2147483648, 7, 2147483647], [3])),
    ("bool", contiguous("BoolStorage", [True, False, True, True, False], [5])),
    ("shared_a", FakeTensor(shared, 0, [2, 3], [3, 1])),
    ("shared_b", FakeTensor(shared, 6, [4], [1])),
    ("transposed", FakeTensor(base_t, 0, [3, 2], [1, 3])),
    ("permuted", FakeTensor(base_p, 0, [2, 3, 4], [3, 1, 6])),
    ("unit_dim", FakeTensor(Storage("FloatStorage", [9.0, 8.0, 7.0, 6.0]), 1, [1, 3], [99, 1])),
    ("scalar", FakeTensor(Storage("FloatStorage", [42.0, -7.5]), 1, [], [])),
    ("empty", FakeTensor(Storage("FloatStorage", []), 0, [0, 4], [4, 1])),
  ])

def nested_checkpoint():
  w = contiguous("FloatStorage", [0.25 * i for i in range(6)], [3, 2])
  model = state_dict([("layer.weight", w), ("layer.bias", contiguous("FloatStorage", [1.0, 2.0, 3.0], [3])),
                      ("bn.num_batches_tracked", contiguous("LongStorage", [12], []))])
  return {
    "model": model,
    "optimizer": {"state": {0: {"step": 3, "momentum_buffer": contiguous("FloatStorage", [-1.0, 0.5], [2])}},
                  "param_groups": [{"lr": 0.1, "momentum": 0.9, "params": [0, 1], "nesterov": False}]},
    "epoch": 7, "loss": 0.25, "tag": "run", "best": None, "flag": True,
    "tensors": [contiguous("HalfStorage", [1.0, 2.0], [2]), w],
    "ema": {"layer.weight": w},
  }

def extra_dtypes_state_dict():
  return state_dict([
    ("i8", contiguous("CharStorage", [-128, -1, 0, 127], [4])),
    ("u8", contiguous("ByteStorage", [0, 1, 200, 255], [2, 2])),
    ("i16", contiguous("ShortStorage", [-32768, 5, 32767], [3])),
    ("f64", contiguous("DoubleStorage", [3.141592653589793, -1e300, 5e-324], [3])),
  ])

def legacy_state_dict():
  shared = Storage("FloatStorage", [float(i) for i in range(8)])
  return state_dict([
    ("a", FakeTensor(shared, 0, [2, 2], [2, 1])),
    ("b", FakeTensor(shared, 4, [2, 2], [1, 2])),
    ("c", contiguous("LongStorage", [5, -6, 7], [3])),
    ("d", contiguous("HalfStorage", [0.5, 1.5], [2, 1])),
  ])

FILES = [  # file, object, writer, checked against the reference
  ("torch_state_dict.pt", basic_state_dict, write_zip, True),
  ("torch_nested.pt", nested_checkpoint, write_zip, True),
  ("torch_deflated.pt", basic_state_dict, lambda p, o: write_zip(p, o, deflate=True, name="deflated"), False),
  ("torch_extra_dtypes.pt", extra_dtypes_state_dict, write_zip, False),
  ("torch_legacy.pt", legacy_state_dict, write_legacy, True),
]

def flatten(obj, prefix=""):  # the reference's get_state_dict on what torch_load returns
  if isinstance(obj, FakeTensor): return {prefix.strip("."): obj}
  out = {}
  if isinstance(obj, (list, tuple)):
    for i, x in enumerate(obj): out.update(flatten(x, f"{prefix}{i}."))
  elif isinstance(obj, dict):
    for k, v in obj.items(): out.update(flatten(v, f"{prefix}{k}."))
  return out

def golden_lines(fname, obj):
  lines = []
  for name, t in sorted(flatten(obj).items()):
    dt = STORAGES[t.storage.cls][1]
    lines.append("|".join([fname, name, dt, ",".join(str(s) for s in t.size), ", ".join(repr(v) for v in t.elements())]))
  return lines

def values_of(t):
  from tinygrad import dtypes
  # off DISK first; half through CPU (the emulator fails on it), 16-bit floats as their bits
  half = t.dtype in (dtypes.float16, dtypes.bfloat16)
  u = t.to("CPU" if t.dtype == dtypes.float16 else None).contiguous().realize()
  u = (u.bitcast(dtypes.uint16) if half else u).reshape(-1)
  flat = u.tolist()
  if t.dtype == dtypes.float16: return [struct.unpack("<e", struct.pack("<H", v))[0] for v in flat]
  if t.dtype == dtypes.bfloat16: return [struct.unpack("<f", struct.pack("<I", v << 16))[0] for v in flat]
  return flat

def check(path, lines):
  from tinygrad import dtypes
  from tinygrad.nn.state import torch_load, get_state_dict
  names = {"float": dtypes.float32, "half": dtypes.float16, "bfloat16": dtypes.bfloat16, "long": dtypes.int64,
           "int": dtypes.int32, "bool": dtypes.bool}
  got = get_state_dict(torch_load(path))
  assert sorted(got) == [l.split("|")[1] for l in lines], (path, sorted(got))
  for l in lines:
    _, name, dt, shape, values = l.split("|")
    t = got[name]
    assert t.dtype == names[dt], (path, name, t.dtype)
    assert t.shape == tuple(int(s) for s in shape.split(",") if s), (path, name, t.shape)
    flat = values_of(t)
    assert [repr(v) for v in flat] == ([] if not values else values.split(", ")), (path, name, flat, values)
  print(f"checked {os.path.basename(path)}: {len(lines)} tensors equal the reference's")

def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  ap.add_argument("--check", action="store_true", help="load with the reference's torch_load")
  args = ap.parse_args()
  golden = ["# Generated by tools/golden/gen_torch_load_golden.py: file|name|dtype|shape|values"]
  for fname, make, writer, reference_reads in FILES:
    obj, path = make(), os.path.join(args.out, fname)
    writer(path, obj)
    lines = golden_lines(fname, obj)
    golden += lines
    if args.check and reference_reads: check(path, lines)
  with open(os.path.join(args.out, "torch_load_golden.txt"), "w") as f: f.write("\n".join(golden) + "\n")

if __name__ == "__main__":
  main()
