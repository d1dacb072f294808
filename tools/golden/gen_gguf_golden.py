#!/usr/bin/env python3
# File: tools/golden/gen_gguf_golden.py
# Writes the small GGUF files that tinygrad/nn/gguf_test.cc loads, and the reference's reading
# of them (gguf_load at tinygrad 35900290): each file's metadata and each tensor's name, dtype,
# shape and values (a hash of all of them and the first few, as bits).
#
# The files are written with the standard library only (struct, random with a fixed seed):
#   gguf_all_types.gguf   v3, metadata of every value type (arrays of each, nested arrays, UTF-8
#                         strings), general.alignment = 64, tensors of every ggml type the
#                         reference reads (F32 F16 I8 I16 I32 Q4_0 Q4_1 Q8_0 Q4_K Q6_K MXFP4)
#                         with random blocks (finite f16 scales), offsets padded to the alignment
#   gguf_v2_default.gguf  v2, no alignment key (the default 32), a 3-d F32 and a Q8_0 tensor
# and gguf_golden.txt from the reference's gguf_load of both, tab-separated lines:
#   file <name> / kv <key> <value as JSON> / tensor <name> <dtype> <shape> <FNV-1a 64 of the
#   values' little-endian bytes> <hex of the first 8 values' bytes>
#
# Produced by:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_gguf_golden.py <repo>/tinygrad/nn/testdata
import json, os, pathlib, random, struct, sys

# GGUF metadata value types.
UINT8, INT8, UINT16, INT16, UINT32, INT32, FLOAT32, BOOL, STRING, ARRAY, UINT64, INT64, FLOAT64 = range(13)
SCALAR_FMT = {UINT8: "<B", INT8: "<b", UINT16: "<H", INT16: "<h", UINT32: "<I", INT32: "<i", FLOAT32: "<f",
              BOOL: "<?", UINT64: "<Q", INT64: "<q", FLOAT64: "<d"}
# ggml type: (elements per block, bytes per block)
GGML = {"F32": (0, 1, 4), "F16": (1, 1, 2), "Q4_0": (2, 32, 18), "Q4_1": (3, 32, 20), "Q8_0": (8, 32, 34),
        "Q4_K": (12, 256, 144), "Q6_K": (14, 256, 210), "I8": (16, 1, 1), "I16": (17, 1, 2), "I32": (18, 1, 4),
        "MXFP4": (39, 32, 17)}

def gstr(s): b = s.encode("utf-8"); return struct.pack("<Q", len(b)) + b

def gvalue(typ, v):
  if typ == STRING: return gstr(v)
  if typ == ARRAY:
    et, items = v
    return struct.pack("<iQ", et, len(items)) + b"".join(gvalue(et, x) for x in items)
  return struct.pack(SCALAR_FMT[typ], v)

def f16_finite(rng, lo_exp=10, hi_exp=20):
  # random sign and mantissa, exponent field in [lo_exp, hi_exp] (about 2^-5 .. 2^5)
  return struct.pack("<H", (rng.getrandbits(1) << 15) | (rng.randint(lo_exp, hi_exp) << 10) | rng.getrandbits(10))

def rand_bytes(rng, n): return bytes(rng.getrandbits(8) for _ in range(n))

def block(rng, name):
  if name == "Q4_0": return f16_finite(rng) + rand_bytes(rng, 16)
  if name == "Q4_1": return f16_finite(rng) + f16_finite(rng) + rand_bytes(rng, 16)
  if name == "Q8_0": return f16_finite(rng) + rand_bytes(rng, 32)
  if name == "Q4_K": return f16_finite(rng) + f16_finite(rng) + rand_bytes(rng, 12 + 128)
  if name == "Q6_K": return rand_bytes(rng, 128 + 64 + 16) + f16_finite(rng)
  if name == "MXFP4": return rand_bytes(rng, 17)
  raise ValueError(name)

def tensor_data(rng, name, n):
  if name == "F32": return b"".join(struct.pack("<f", rng.uniform(-4, 4)) for _ in range(n))
  if name == "F16": return b"".join(f16_finite(rng, 1, 30) for _ in range(n))
  if name in ("I8", "I16", "I32"): return rand_bytes(rng, n * GGML[name][2])
  per = GGML[name][1]
  assert n % per == 0
  return b"".join(block(rng, name) for _ in range(n // per))

def write_gguf(path, version, kvs, tensors, alignment, rng):
  """kvs: [(key, type, value)], tensors: [(name, ggml type name, dims (ggml order))]"""
  out = b"GGUF" + struct.pack("<iqq", version, len(tensors), len(kvs))
  for k, t, v in kvs: out += gstr(k) + struct.pack("<i", t) + gvalue(t, v)
  datas, off = [], 0
  for name, typ, dims in tensors:
    n = 1
    for d in dims: n *= d
    data = tensor_data(rng, typ, n)
    out += gstr(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
    out += struct.pack("<iQ", GGML[typ][0], off)
    datas.append(data)
    off += (len(data) + alignment - 1) // alignment * alignment
  out += b"\0" * (-len(out) % alignment)
  for d in datas: out += d + b"\0" * (-len(d) % alignment)
  with open(path, "wb") as f: f.write(out)

def main(outdir):
  rng = random.Random(20260129)
  kvs = [
    ("general.architecture", STRING, "llama"),
    ("general.alignment", UINT32, 64),
    ("t.uint8", UINT8, 200), ("t.int8", INT8, -100), ("t.uint16", UINT16, 65000), ("t.int16", INT16, -30000),
    ("t.uint32", UINT32, 4000000000), ("t.int32", INT32, -2000000000), ("t.float32", FLOAT32, 0.1),
    ("t.bool_true", BOOL, True), ("t.bool_false", BOOL, False), ("t.string", STRING, "h\u00e9llo \u65e5\u672c"),
    ("t.empty_string", STRING, ""), ("t.uint64", UINT64, 2**64 - 1), ("t.int64", INT64, -2**63),
    ("t.float64", FLOAT64, -1.0e300),
    ("a.uint8", ARRAY, (UINT8, [0, 1, 255])), ("a.int8", ARRAY, (INT8, [-128, 127])),
    ("a.uint16", ARRAY, (UINT16, [1, 2])), ("a.int16", ARRAY, (INT16, [-1])),
    ("a.uint32", ARRAY, (UINT32, [7, 8, 9])), ("a.int32", ARRAY, (INT32, [-7, 8])),
    ("a.float32", ARRAY, (FLOAT32, [1.5, -0.25, 3.4e38])), ("a.bool", ARRAY, (BOOL, [True, False, True])),
    ("a.string", ARRAY, (STRING, ["a", "", "<s>", "\u2581the"])), ("a.uint64", ARRAY, (UINT64, [2**63])),
    ("a.int64", ARRAY, (INT64, [-5, 2**62])), ("a.float64", ARRAY, (FLOAT64, [2.5e-310, 1.0])),
    ("a.empty", ARRAY, (INT32, [])),
    ("a.nested", ARRAY, (ARRAY, [(INT32, [1, 2]), (STRING, ["x"]), (ARRAY, [(FLOAT32, [0.5])]), (UINT8, [])])),
  ]
  tensors = [("f32", "F32", [3, 4]), ("f16", "F16", [5]), ("i8", "I8", [2, 3, 2]), ("i16", "I16", [7]),
             ("i32", "I32", [2, 2]), ("q4_0", "Q4_0", [64, 2]), ("q4_1", "Q4_1", [32, 3]),
             ("q8_0", "Q8_0", [96]), ("q4_k", "Q4_K", [256, 2]), ("q6_k", "Q6_K", [512]),
             ("mxfp4", "MXFP4", [32, 3]), ("blk.0.attn_q.weight", "F32", [1, 1, 1, 2])]
  write_gguf(os.path.join(outdir, "gguf_all_types.gguf"), 3, kvs, tensors, 64, rng)
  write_gguf(os.path.join(outdir, "gguf_v2_default.gguf"), 2, [("general.name", STRING, "tiny"), ("n", UINT64, 3)],
             [("x", "F32", [2, 3, 2]), ("y", "Q8_0", [32])], 32, rng)
  golden(outdir, ["gguf_all_types.gguf", "gguf_v2_default.gguf"])

def fnv1a64(b):
  h = 0xcbf29ce484222325
  for x in b: h = ((h ^ x) * 0x100000001b3) & 0xffffffffffffffff
  return h

def golden(outdir, names):
  from tinygrad import Tensor, nn
  from tinygrad.dtype import dtypes
  # The reference reads a uint8 value as a 1-byte bytes object; the golden holds it as a number.
  plain = lambda v: v[0] if isinstance(v, bytes) else [plain(x) for x in v] if isinstance(v, list) else v
  fmt = {dtypes.float32: "f", dtypes.float16: "e", dtypes.int8: "b", dtypes.int16: "h", dtypes.int32: "i"}
  lines = []
  for name in names:
    # As the reference's docstring says: the file's bytes on a device that runs kernels.
    kv, sd = nn.state.gguf_load(Tensor(pathlib.Path(os.path.join(outdir, name))).to("CPU"))
    lines.append(f"file\t{name}")
    for k, v in kv.items(): lines.append(f"kv\t{k}\t{json.dumps(plain(v))}")
    for k, t in sd.items():
      vals = t.flatten().tolist()
      raw = b"".join(struct.pack("<" + fmt[t.dtype], v) for v in vals)
      head = raw[:8 * t.dtype.itemsize].hex()
      lines.append(f"tensor\t{k}\t{t.dtype.name}\t{','.join(str(s) for s in t.shape)}\t{fnv1a64(raw):016x}\t{head}")
  with open(os.path.join(outdir, "gguf_golden.txt"), "w") as f: f.write("\n".join(lines) + "\n")

if __name__ == "__main__": main(sys.argv[1] if len(sys.argv) > 1 else ".")
