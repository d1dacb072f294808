#!/usr/bin/env python3
# File: tools/golden/gen_safetensors_golden.py
# Writes a small safetensors file with the reference's safe_save (every dtype it names, odd
# shapes, a scalar, a non-ASCII name, string metadata), and the values it was given, for
# //tinygrad/nn:state_test: we load the file with the right dtypes, shapes and values, and
# SafeSave of the same tensors writes the same bytes.
#
# Usage:
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=PYTHON python3 \
#     <repo>/tools/golden/gen_safetensors_golden.py --out <repo>/tinygrad/nn/testdata
# DEV=PYTHON (the reference's emulator), not CPU: the reference's CPU backend compiles
# bfloat16 casts with clang flags this machine's clang refuses ("__bf16 is not supported").
#
# Files:
#   reference.safetensors      the file safe_save wrote
#   reference_safetensors.txt  '#' comment lines, then per tensor, in name order:
#                              name (JSON string) | safetensors dtype | shape | values
#                              values: Python repr of each element (ints exact; floats are
#                              exactly representable in the dtype; nan, inf, -inf), ", "-joined
# The reference's safe_save can't write a 0-size tensor (its disk assign fails on the empty
# view), so there is none here: the C++ round trip tests cover them.
import argparse, json, math, os, struct
from tinygrad import Tensor, dtypes
from tinygrad.nn.state import safe_save, safe_dtypes, inverse_safe_dtypes

# name -> (dtype, shape, values), written in name order (SafeSave writes a std::map's order).
inf, nan = math.inf, math.nan
TENSORS = {
  "bf16_2x2": (dtypes.bfloat16, (2, 2), [1.0, -2.5, 2.0 ** 127, -0.0]),
  "bool_5": (dtypes.bool, (5,), [True, False, False, True, True]),
  "f16_7": (dtypes.float16, (7,), [0.5, -1.25, 65504.0, 6.103515625e-05, inf, -inf, nan]),
  "f32_3x5": (dtypes.float32, (3, 5), [float(i) * 0.25 - 1 for i in range(13)] + [2.0 ** -149, 3.4028234663852886e38]),
  "f32_scalar": (dtypes.float32, (), [-7.5]),
  "f64_2x3": (dtypes.float64, (2, 3), [math.pi, -math.e, 1e-300, 1e300, -0.0, 5e-324]),
  "i16_4": (dtypes.int16, (4,), [-32768, -1, 0, 32767]),
  "i32_1x3x1": (dtypes.int32, (1, 3, 1), [-2147483648, 12345, 2147483647]),
  "i64_5": (dtypes.int64, (5,), [-9223372036854775808, -1, 0, 1 << 40, 9223372036854775807]),
  "i8_3": (dtypes.int8, (3,), [-128, 0, 127]),
  "u16_2": (dtypes.uint16, (2,), [0, 65535]),
  "u32_2": (dtypes.uint32, (2,), [1, 4294967295]),
  "u64_3": (dtypes.uint64, (3,), [0, 1 << 63, 18446744073709551615]),
  "u8_2x3": (dtypes.uint8, (2, 3), [0, 1, 2, 128, 254, 255]),
  "\u00e9t\u00e9": (dtypes.int32, (2,), [7, -7]),
}
METADATA = {"format": "pt", "produced_by": "tools/golden/gen_safetensors_golden.py (tinygrad 35900290 safe_save)"}


# struct formats of the dtypes (bfloat16: the top half of a float32).
FMT = {"BOOL": "?", "I8": "b", "U8": "B", "I16": "h", "U16": "H", "I32": "i", "U32": "I", "I64": "q",
       "U64": "Q", "F16": "e", "F32": "f", "F64": "d"}


def check_file(path):
  """Reads the file back without tinygrad: every tensor holds exactly the values it was given."""
  raw = open(path, "rb").read()
  n = struct.unpack("<Q", raw[:8])[0]
  header, data = json.loads(raw[8:8 + n]), raw[8 + n:]
  for name, (dt, shape, values) in TENSORS.items():
    e = header[name]
    code = inverse_safe_dtypes[dt]
    assert e["dtype"] == code and e["shape"] == list(shape), name
    b = data[e["data_offsets"][0]:e["data_offsets"][1]]
    if code == "BF16": want = b"".join(struct.pack("<f", v)[2:] for v in values)
    else: want = struct.pack("<" + FMT[code] * len(values), *values)
    assert b == want, f"{name}: the file holds {b.hex()}, not the exact values {values} ({want.hex()})"


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args()
  assert {inverse_safe_dtypes[d] for d, _, _ in TENSORS.values()} == set(safe_dtypes), "cover every dtype"
  tensors = {}
  for name in sorted(TENSORS):
    dt, shape, values = TENSORS[name]
    tensors[name] = Tensor(values, dtype=dt).reshape(shape)
  safe_save(tensors, os.path.join(args.out, "reference.safetensors"), METADATA)
  check_file(os.path.join(args.out, "reference.safetensors"))
  with open(os.path.join(args.out, "reference_safetensors.txt"), "w") as f:
    f.write("# Produced by tools/golden/gen_safetensors_golden.py with the reference tinygrad 35900290\n")
    f.write("# (DEV=PYTHON): the values given to safe_save for reference.safetensors.\n")
    f.write("# name (JSON) | dtype | shape | values\n")
    for name in sorted(TENSORS):
      dt, shape, values = TENSORS[name]
      vals = ", ".join(repr(int(v)) if isinstance(v, bool) else repr(v) for v in values)
      f.write(f"{json.dumps(name)} | {inverse_safe_dtypes[dt]} | {' '.join(map(str, shape))} | {vals}\n")


if __name__ == "__main__":
  main()
