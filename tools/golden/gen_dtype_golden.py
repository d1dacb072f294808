#!/usr/bin/env python3
# File: tools/golden/gen_dtype_golden.py
# Generates the golden tables in tinygrad/dtype/testdata/ that //tinygrad/dtype:dtype_test and
# //tinygrad/dtype:const_value_test replay, by running the reference tinygrad.
#
# Usage (from anywhere; the reference checkout must be importable):
#   cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 \
#     <repo>/tools/golden/gen_dtype_golden.py --out <repo>/tinygrad/dtype/testdata
#
# Files (one record per line, fields separated by " | ", '#' lines are comments):
#   least_upper_dtype.txt  a | b | least_upper_dtype(a, b), "error" when tinygrad raises
#                          (all ordered pairs of void, index and the 15 scalar dtypes; then triples)
#   can_lossless_cast.txt  from | to | 0/1 (the same pairs, plus some vec/ptr dtypes)
#   dtype_lt.txt           a | b | a < b (DType.__lt__) over scalars, vecs and ptrs
#   dtype_props.txt        per dtype: repr, name, priority, sizes, fmt, predicates, min/max, ...
#   truncate.txt           dtype | input | truncate.get(dtype, identity)(input) or the exception
#   fp8.txt                fp8_to_float of every byte, float_to_fp8 of a value list
#   float_repr.txt         float bits (hex) | Python repr
#   const_ops.txt          a | op | b | Python result of the op on ConstType values
#
# A dtype is written as a spec the C++ side builds with the same calls: the dtypes attribute
# name, then "vec:N" or "ptr:SIZE:ADDRSPACE" steps, e.g. "float vec:4 ptr:-1:GLOBAL".
import argparse, math, os, random, struct, subprocess

from tinygrad.dtype import (dtypes, AddrSpace, least_upper_dtype, least_upper_float, can_lossless_cast,
                            sum_acc_dtype, truncate, float_to_fp8, fp8_to_float, INVERSE_DTYPES_DICT)
from tinygrad.helpers import cdiv, cmod

SCALARS = ["void", "index", "bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
           "fp8e4m3", "fp8e5m2", "half", "bfloat16", "float", "double"]
LATTICE = SCALARS[2:]
EXTRA_SPECS = ["float vec:4", "half vec:2", "uchar vec:4", "bool vec:4", "index vec:2", "void vec:4",
               "float ptr:-1:GLOBAL", "float ptr:16:LOCAL", "float ptr:0:REG", "float vec:4 ptr:-1:GLOBAL",
               "float ptr:-1:GLOBAL vec:4", "half vec:2 ptr:8:LOCAL vec:4", "int ptr:100:GLOBAL",
               "bool ptr:3:REG", "index ptr:-1:GLOBAL", "double vec:1", "float ptr:-1:GLOBAL vec:1",
               "bfloat16 vec:3", "fp8e4m3 vec:2", "fp8e5m2 vec:8", "long vec:16 ptr:64:GLOBAL",
               "ulong vec:2", "int vec:3"]


def build(spec):
  toks = spec.split()
  d = getattr(dtypes, toks[0])
  for t in toks[1:]:
    kind, *args = t.split(":")
    if kind == "vec": d = d.vec(int(args[0]))
    elif kind == "ptr": d = d.ptr(int(args[0]), AddrSpace[args[1]])
    else: raise ValueError(t)
  return d


def attr(d): return INVERSE_DTYPES_DICT[d.name]


def spec_of(d):
  # Only for plain scalars/vecs, which is what the promotion helpers return.
  return attr(d.scalar()) + (f" vec:{d.count}" if d.count != 1 else "")


def attempt(fn):
  try: return fn()
  except Exception as e: return e


def fmt_result(r, show=repr):
  return "error" if isinstance(r, Exception) else show(r)


def header(out, what, cmd):
  out.write(f"# Golden {what} for //tinygrad/dtype. Do not edit: regenerate with\n")
  out.write(f"#   {cmd}\n")
  commit = subprocess.run(["git", "-C", os.path.dirname(os.path.dirname(__import__("tinygrad").__file__)), "rev-parse", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or "35900290b246ec5f5eb49d2677c41db5e8b108d3"
  out.write(f"# Reference: tinygrad at commit {commit}.\n")


def gen_lub(out):
  for a in SCALARS:
    for b in SCALARS:
      r = attempt(lambda: least_upper_dtype(build(a), build(b)))
      out.write(f"{a} | {b} | {fmt_result(r, spec_of)}\n")
  rng = random.Random(7)
  for _ in range(200):
    ds = [rng.choice(LATTICE) for _ in range(rng.randint(3, 5))]
    out.write(f"{' , '.join(ds)} | {spec_of(least_upper_dtype(*[build(x) for x in ds]))}\n")


def gen_lossless(out):
  specs = SCALARS + ["float vec:4", "bool vec:4", "float ptr:-1:GLOBAL", "int vec:2"]
  for a in specs:
    for b in specs:
      out.write(f"{a} | {b} | {int(can_lossless_cast(build(a), build(b)))}\n")


def gen_lt(out):
  specs = SCALARS + EXTRA_SPECS
  for a in specs:
    for b in specs:
      out.write(f"{a} | {b} | {int(build(a) < build(b))}\n")


def gen_props(out):
  out.write("# spec | repr | name | priority | bitsize | itemsize | count | vcount | fmt | is_float | is_int | "
            "is_unsigned | is_bool | min | max | scalar | base | nbytes | least_upper_float | sum_acc_dtype | finfo\n")
  for spec in SCALARS + EXTRA_SPECS:
    d = build(spec)
    fields = [spec, repr(d), d.name, d.priority, d.bitsize, d.itemsize, d.count, d.vcount, d.fmt or "-",
              int(dtypes.is_float(d)), int(dtypes.is_int(d)), int(dtypes.is_unsigned(d)), int(dtypes.is_bool(d)),
              repr(dtypes.min(d)), repr(dtypes.max(d)), repr(d.scalar()), repr(d.base),
              fmt_result(attempt(d.nbytes), str), fmt_result(attempt(lambda: least_upper_float(d)), repr),
              fmt_result(attempt(lambda: sum_acc_dtype(d)), repr),
              fmt_result(attempt(lambda: dtypes.finfo(d)), lambda t: f"{t[0]},{t[1]}")]
    out.write(" | ".join(str(f) for f in fields) + "\n")


def tricky_floats():
  v = [0.0, -0.0, 1.0, -1.0, -1.5, 0.1, 1/3, -2.5, 0.5, 3.14159, 1e5, 100000.5, 1e-8, 1e-40, 1e-45, 1.4e-45, 5e-324,
       # float16: max, overflow boundary (65520 rounds to inf), ties, subnormals
       65504.0, 65519.99, 65520.0, -65520.0, 65536.0, 6e-8, 5.96e-8, 2**-24, 2**-25, 2**-25 * 1.0000001, 3 * 2**-25,
       2**-14, 2**-15, 1 + 2**-11, 1 + 3 * 2**-11, 2049.0, 2051.0, -2049.0,
       # bfloat16 / float32: ties, range edges
       1 + 2**-8, 1 + 3 * 2**-8, 1 + 2**-8 + 2**-20, -(1 + 2**-8), 3.4028235e38, 3.4028236e38, 3.5e38, 1e39,
       1.1754944e-38, 1e300, -1e300, 16777217.0, 2**-149, 2**-150, 2**-150 * 1.5,
       # fp8 e4m3: max 448, overflow threshold 464, ties, denormals 2**-9
       448.0, 464.0, 464.1, 480.0, -448.0, 1.0625, 1.1875, 2**-6, 2**-7, 2**-9, 2**-10, 3 * 2**-10, 2**-10 * 1.01,
       0.001953125, 0.013671875, 240.0, 256.0,
       # fp8 e5m2: max 57344, threshold 61440, denormals 2**-16
       57344.0, 61439.99, 61440.0, -61440.0, 2**-14 * 1.125, 2**-16, 2**-17, 2**-17 * 1.01, 3 * 2**-17, 1.125, 1.375,
       math.inf, -math.inf, math.nan]
  rng = random.Random(20260107)
  v += [rng.uniform(-2, 2) for _ in range(20)] + [rng.uniform(-1e5, 1e5) for _ in range(10)]
  v += [math.ldexp(rng.uniform(1, 2), rng.randint(-30, 20)) * rng.choice([1, -1]) for _ in range(30)]
  return v


TRICKY_INTS = [0, 1, -1, 2, 127, 128, -128, -129, 255, 256, -256, 32767, 32768, -32769, 65535, 65536, 2**31 - 1, 2**31,
               -2**31 - 1, 2**32 - 1, 2**32, 2**53 + 1, 2**63 - 1, 2**63, -2**63 - 1, 2**64 - 1, 2**64, 2**64 + 5,
               -2**64 - 5, 2**100 + 3, -(2**100 + 3), 12345678901234567, 65519, 65520, 2049, 16777217, True, False]


def gen_truncate(out):
  for spec in SCALARS[1:]:
    fn = truncate.get(build(spec), lambda x: x)
    for x in TRICKY_INTS + tricky_floats():
      r = attempt(lambda: fn(x))
      out.write(f"{spec} | {x!r} | {type(r).__name__ if isinstance(r, Exception) else repr(r)}\n")


def gen_fp8(out):
  for spec in ["fp8e4m3", "fp8e5m2"]:
    for b in range(256): out.write(f"to_float | {spec} | {b} | {fp8_to_float(b, build(spec))!r}\n")
    for x in tricky_floats() + [-math.nan, struct.unpack("d", struct.pack("Q", 0x7FF4000000000001))[0]]:
      bits = struct.unpack("Q", struct.pack("d", x))[0]
      out.write(f"from_float | {spec} | {bits:016x} | {float_to_fp8(x, build(spec))}\n")


def gen_float_repr(out):
  v = tricky_floats() + [1e16, 1e15, 9999999999999998.0, 1e17, 123456789012345678.0, 1e-4, 1e-5, 0.00012345,
                         0.000012345, 0.1 + 0.2, 1.7976931348623157e308, 2.2250738585072014e-308, 100.0, 1e22, 1e23,
                         12345.678, -0.001, 0.3, 2.5e-5, 1234567890123456.7]
  v += [10.0**k for k in range(-30, 31)] + [1.5 * 10.0**k for k in range(-30, 31)]
  rng = random.Random(1234)
  v += [struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0] for _ in range(400)]
  v += [round(rng.uniform(-1000, 1000), rng.randint(0, 6)) for _ in range(200)]
  for x in v:
    out.write(f"{struct.unpack('Q', struct.pack('d', x))[0]:016x} | {x!r}\n")


def gen_const_ops(out):
  vals = [0, 1, -1, 7, -7, 3, -3, 2**59, -2**59, 2**53 + 1, True, False, 0.0, -0.0, 0.5, -2.5, 7.0, 3.0, float(2**53),
          1e20, math.inf, -math.inf, math.nan]
  ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "<": lambda a, b: a < b,
         "==": lambda a, b: a == b, "min": min, "max": max}
  for a in vals:
    out.write(f"{a!r} | neg | - | {-a!r}\n")
    for b in vals:
      for name, fn in ops.items(): out.write(f"{a!r} | {name} | {b!r} | {fn(a, b)!r}\n")
      if type(a) is int and type(b) is int:
        out.write(f"{a!r} | cdiv | {b!r} | {cdiv(a, b)!r}\n")
        out.write(f"{a!r} | cmod | {b!r} | {cmod(a, b)!r}\n")


def main():
  ap = argparse.ArgumentParser()
  ap.add_argument("--out", required=True)
  args = ap.parse_args()
  cmd = ("cd /tmp && PYTHONPATH=<tinygrad checkout at 35900290> DEV=CPU python3 <repo>/tools/golden/gen_dtype_golden.py "
         "--out <repo>/tinygrad/dtype/testdata")
  tables = {"least_upper_dtype.txt": ("least_upper_dtype table", gen_lub),
            "can_lossless_cast.txt": ("can_lossless_cast table", gen_lossless),
            "dtype_lt.txt": ("DType.__lt__ table", gen_lt),
            "dtype_props.txt": ("dtype properties", gen_props),
            "truncate.txt": ("truncate table", gen_truncate),
            "fp8.txt": ("fp8 conversions", gen_fp8),
            "float_repr.txt": ("float repr table", gen_float_repr),
            "const_ops.txt": ("Python number ops", gen_const_ops)}
  for fname, (what, fn) in tables.items():
    with open(os.path.join(args.out, fname), "w") as out:
      header(out, what, cmd)
      fn(out)


if __name__ == "__main__":
  main()
