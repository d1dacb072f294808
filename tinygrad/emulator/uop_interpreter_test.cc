// File: tinygrad/emulator/uop_interpreter_test.cc
// The uop interpreter on hand-made linear programs: each semantic it implements (loops, launch
// indices, locals, registers, gates, IF masks, vectors, storage formats, casts) and each error
// it must report instead of aborting (out-of-bounds accesses, division by zero, programs it
// cannot run). Kernels made by our own pipeline are in uop_interpreter_pipeline_test.cc.
#include "tinygrad/emulator/uop_interpreter.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tinygrad/dtype/const_value.h"
#include "tinygrad/uop/uop.h"

namespace tg {
namespace {

using ::testing::HasSubstr;

UOp DG(int slot, int64_t n, DType d = dtypes::float32) { return UOp::Make(Ops::DEFINE_GLOBAL, d.ptr(n), {}, slot); }
UOp I32(int64_t v) { return UOp::Const(dtypes::int32, v); }
UOp F32(double v) { return UOp::Const(dtypes::float32, v); }
UOp Idx(const UOp& buf, const UOp& i) { return UOp::Make(Ops::INDEX, buf.dtype(), {buf, i}); }
UOp GatedIdx(const UOp& buf, const UOp& i, const UOp& gate) { return UOp::Make(Ops::INDEX, buf.dtype(), {buf, i, gate}); }
UOp Ld(const UOp& idx) { return UOp::Make(Ops::LOAD, idx.dtype().base(), {idx}); }
UOp St(const UOp& idx, const UOp& v) { return UOp::Make(Ops::STORE, dtypes::void_, {idx, v}); }
UOp End(const UOp& st, const UOp& r) { return UOp::Make(Ops::END, dtypes::void_, {st, r}); }
UOp Loop(int64_t n, int axis = 0) { return UOp::Range(I32(n), axis); }
UOp Special(const std::string& name, int64_t size) { return UOp::Special(I32(size), name); }
UOp Alu(Ops op, const UOp& a, const UOp& b) { return UOp::Make(op, a.dtype(), {a, b}); }

// The linear program of `sink`: its toposort (sources first, every loop body between its RANGE
// and END because the END depends on the body and the body on the RANGE).
std::vector<UOp> Linear(const UOp& sink) { return sink.toposort(); }

template <typename T>
std::span<std::byte> Bytes(std::vector<T>& v) {
  return std::as_writable_bytes(std::span<T>(v));
}

absl::Status RunProgram(std::span<const UOp> uops, std::vector<std::span<std::byte>> bufs, LaunchDims global = {1, 1, 1},
                        LaunchDims local = {1, 1, 1}, std::vector<int64_t> vals = {}) {
  absl::StatusOr<UopInterpreter> p = UopInterpreter::Load(uops);
  if (!p.ok()) return p.status();
  return p->Run(bufs, vals, global, local);
}

// out[i] = in[i + shift] * 2 + 1 for i in range(n)
UOp ShiftedCopy(int64_t n, int64_t shift, int64_t store_shift = 0) {
  UOp out = DG(0, n), in = DG(1, n), r = Loop(n);
  UOp v = Alu(Ops::ADD, Alu(Ops::MUL, Ld(Idx(in, Alu(Ops::ADD, r, I32(shift)))), F32(2)), F32(1));
  return UOp::Sink({End(St(Idx(out, Alu(Ops::ADD, r, I32(store_shift))), v), r)});
}

TEST(UopInterpreter, RunsALoop) {
  std::vector<float> out(4), in = {1, 2, 3, 4};
  std::vector<UOp> prog = Linear(ShiftedCopy(4, 0));
  ASSERT_TRUE(RunProgram(prog, {Bytes(out), Bytes(in)}).ok());
  EXPECT_EQ(out, (std::vector<float>{3, 5, 7, 9}));
}

TEST(UopInterpreter, LoadIsReusableAcrossRuns) {
  std::vector<UOp> prog = Linear(ShiftedCopy(4, 0));
  absl::StatusOr<UopInterpreter> p = UopInterpreter::Load(prog);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->num_buffers(), 2u);
  EXPECT_EQ(p->num_vars(), 0u);
  for (float base : {0.0f, 10.0f}) {
    std::vector<float> out(4), in = {base, base + 1, base + 2, base + 3};
    std::vector<std::span<std::byte>> bufs = {Bytes(out), Bytes(in)};
    ASSERT_TRUE(p->Run(bufs, {}, {1, 1, 1}, {1, 1, 1}).ok());
    EXPECT_EQ(out[3], (base + 3) * 2 + 1);
  }
}

TEST(UopInterpreter, ARunPastItsStopEndsWithDeadlineExceeded) {
  absl::StatusOr<UopInterpreter> p = UopInterpreter::Load(Linear(ShiftedCopy(4, 0)));
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<float> out(4), in = {1, 2, 3, 4};
  std::vector<std::span<std::byte>> bufs = {Bytes(out), Bytes(in)};
  // a stop in the past: checked before the first workgroup and at each loop's end
  absl::Status s = p->Run(bufs, {}, {1, 1, 1}, {1, 1, 1}, std::chrono::steady_clock::now() - std::chrono::seconds(1));
  EXPECT_TRUE(absl::IsDeadlineExceeded(s)) << s;
  EXPECT_TRUE(p->Run(bufs, {}, {1, 1, 1}, {1, 1, 1}, std::chrono::steady_clock::now() + std::chrono::hours(1)).ok());
  EXPECT_EQ(out, (std::vector<float>{3, 5, 7, 9}));
}

// Workgroups run z, y, x (x fastest); thread t of a workgroup is (lidx0, lidx1) = (t % 4, t / 4).
TEST(UopInterpreter, LaunchIndicesFollowTheReference) {
  UOp out = DG(0, 48, dtypes::int32);
  UOp g0 = Special("gidx0", 2), g1 = Special("gidx1", 3), l0 = Special("lidx0", 4), l1 = Special("lidx1", 2);
  UOp flat = Alu(Ops::ADD, Alu(Ops::MUL, Alu(Ops::ADD, Alu(Ops::MUL, Alu(Ops::ADD, Alu(Ops::MUL, g1, I32(2)), g0), I32(2)), l1), I32(4)), l0);
  UOp v = Alu(Ops::ADD, Alu(Ops::ADD, Alu(Ops::MUL, g0, I32(1000)), Alu(Ops::MUL, g1, I32(100))),
              Alu(Ops::ADD, Alu(Ops::MUL, l1, I32(10)), l0));
  std::vector<int32_t> got(48, -1);
  ASSERT_TRUE(RunProgram(Linear(UOp::Sink({St(Idx(out, flat), v)})), {Bytes(got)}, {2, 3, 1}, {4, 2, 1}).ok());
  for (int gy = 0; gy < 3; ++gy)
    for (int gx = 0; gx < 2; ++gx)
      for (int ly = 0; ly < 2; ++ly)
        for (int lx = 0; lx < 4; ++lx) EXPECT_EQ(got[((gy * 2 + gx) * 2 + ly) * 4 + lx], gx * 1000 + gy * 100 + ly * 10 + lx);
}

// "idxN" (kernels that use no locals: KernelInfo.dont_use_locals) are global indices too.
TEST(UopInterpreter, IdxSpecialsAreGlobalIndices) {
  UOp out = DG(0, 6, dtypes::int32), i0 = Special("idx0", 3), i1 = Special("idx1", 2);
  UOp flat = Alu(Ops::ADD, Alu(Ops::MUL, i1, I32(3)), i0);
  std::vector<int32_t> got(6, -1);
  ASSERT_TRUE(RunProgram(Linear(UOp::Sink({St(Idx(out, flat), flat)})), {Bytes(got)}, {3, 2, 1}).ok());
  EXPECT_EQ(got, (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(UopInterpreter, VariablesComeInNameOrder) {
  UOp out = DG(0, 2, dtypes::int32);
  UOp b = UOp::Make(Ops::DEFINE_VAR, dtypes::int32, {}, Arg::Tuple({"b", 0, 100}));
  UOp a = UOp::Make(Ops::DEFINE_VAR, dtypes::int32, {}, Arg::Tuple({"a", 0, 100}));
  UOp sink = UOp::Sink({St(Idx(out, I32(0)), b), St(Idx(out, I32(1)), a)});
  std::vector<int32_t> got(2);
  ASSERT_TRUE(RunProgram(Linear(sink), {Bytes(got)}, {1, 1, 1}, {1, 1, 1}, {7, 9}).ok());
  EXPECT_EQ(got, (std::vector<int32_t>{9, 7}));  // vals are (a, b)
}

TEST(UopInterpreter, OutOfBoundsLoadNamesTheAccess) {
  std::vector<float> out(4), in(4);
  absl::Status s = RunProgram(Linear(ShiftedCopy(4, 1)), {Bytes(out), Bytes(in)});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("(Ops.LOAD)"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("load out of bounds of buffer 1 (DEFINE_GLOBAL slot 1"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("element 4, size 4"));
}

TEST(UopInterpreter, OutOfBoundsStoreNamesTheAccess) {
  std::vector<float> out(4), in(4);
  absl::Status s = RunProgram(Linear(ShiftedCopy(4, 0, -1)), {Bytes(out), Bytes(in)});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("(Ops.STORE)"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("store out of bounds of buffer 0 (DEFINE_GLOBAL slot 0"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("element -1, size 4"));
}

TEST(UopInterpreter, BufferSmallerThanTheProgramThinks) {
  std::vector<float> out(4), in(3);
  absl::Status s = RunProgram(Linear(ShiftedCopy(4, 0)), {Bytes(out), Bytes(in)});
  EXPECT_THAT(std::string(s.message()), HasSubstr("element 3, size 3"));
}

TEST(UopInterpreter, IntegerDivisionByZeroIsAnError) {
  UOp out = DG(0, 3, dtypes::int32), a = DG(1, 3, dtypes::int32), b = DG(2, 3, dtypes::int32), r = Loop(3);
  for (Ops op : {Ops::IDIV, Ops::MOD}) {
    UOp sink = UOp::Sink({End(St(Idx(out, r), Alu(op, Ld(Idx(a, r)), Ld(Idx(b, r)))), r)});
    std::vector<int32_t> o(3), x = {7, -7, 7}, y = {2, 2, 0};
    absl::Status s = RunProgram(Linear(sink), {Bytes(o), Bytes(x), Bytes(y)});
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(s.message()), HasSubstr("integer division by zero"));
    EXPECT_THAT(std::string(s.message()), HasSubstr(std::string("(Ops.") + std::string(OpName(op)) + ")"));
    EXPECT_EQ(o[0], op == Ops::IDIV ? 3 : 1);  // C semantics: truncating
    EXPECT_EQ(o[1], op == Ops::IDIV ? -3 : -1);
  }
}

TEST(UopInterpreter, UnknownOpIsALoadError) {
  UOp out = DG(0, 1);
  UOp custom = UOp::Make(Ops::CUSTOM, dtypes::float32, {}, "magic()");
  absl::StatusOr<UopInterpreter> p = UopInterpreter::Load(Linear(UOp::Sink({St(Idx(out, I32(0)), custom)})));
  EXPECT_EQ(p.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("(Ops.CUSTOM): the emulator does not run this op"));

  UOp tf = UOp::Make(Ops::THREEFRY, dtypes::uint64, {UOp::Const(dtypes::uint64, 1), UOp::Const(dtypes::uint64, 2)});
  p = UopInterpreter::Load(Linear(UOp::Sink({St(Idx(DG(0, 1, dtypes::uint64), I32(0)), tf)})));
  EXPECT_EQ(p.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("(Ops.THREEFRY)"));
}

TEST(UopInterpreter, MalformedProgramsAreLoadErrors) {
  std::vector<UOp> prog = Linear(ShiftedCopy(4, 0));
  std::vector<UOp> swapped = prog;
  std::swap(swapped[0], swapped[swapped.size() - 2]);
  EXPECT_EQ(UopInterpreter::Load(swapped).status().code(), absl::StatusCode::kInvalidArgument);
  std::vector<UOp> no_sink(prog.begin(), prog.end() - 1);
  EXPECT_EQ(UopInterpreter::Load(no_sink).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(UopInterpreter::Load({}).status().code(), absl::StatusCode::kInvalidArgument);

  UOp out = DG(0, 4), r = Loop(4);
  absl::StatusOr<UopInterpreter> p = UopInterpreter::Load(Linear(UOp::Sink({St(Idx(out, r), F32(1))})));
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("a RANGE without its END"));

  // float index, bitwise op on floats, index dtype left in the program, Invalid constant
  p = UopInterpreter::Load(Linear(UOp::Sink({St(Idx(out, F32(1)), F32(1))})));
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  p = UopInterpreter::Load(Linear(UOp::Sink({St(Idx(out, I32(0)), Alu(Ops::AND, F32(1), F32(2)))})));
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("a bitwise op on"));
  p = UopInterpreter::Load(Linear(UOp::Sink({St(Idx(out, UOp::Const(dtypes::index, 0)), F32(1))})));
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  p = UopInterpreter::Load(Linear(UOp::Sink({St(Idx(out, UOp::Invalid().cast(dtypes::int32)), F32(1))})));
  EXPECT_FALSE(p.ok());
  // a store of int into float memory
  p = UopInterpreter::Load(Linear(UOp::Sink({St(Idx(out, I32(0)), I32(1))})));
  EXPECT_FALSE(p.ok());
}

// A loop that ends inside an IF would jump across it: such a program is refused at load.
TEST(UopInterpreter, LoopsAndIfsMustNest) {
  UOp out = DG(0, 4), r = Loop(4);
  UOp cond = UOp::Make(Ops::CMPLT, dtypes::bool_, {r, I32(2)});
  UOp idx = Idx(out, r);
  UOp mif = UOp::Make(Ops::IF, dtypes::void_, {cond, idx});
  UOp st = St(idx, F32(1));
  UOp end = End(st, r);
  UOp endif = UOp::Make(Ops::ENDIF, dtypes::void_, {mif});
  std::vector<UOp> crossed = {out, r.src(0), r, I32(2), cond, idx, mif, F32(1), st, end, endif, UOp::Sink({end})};
  absl::StatusOr<UopInterpreter> p = UopInterpreter::Load(crossed);
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("does not close the innermost open RANGE or IF"));
  std::vector<UOp> nested = {out, r.src(0), r, I32(2), cond, idx, mif, F32(1), st, endif, end, UOp::Sink({end})};
  std::vector<float> got(4, 0);
  ASSERT_TRUE(RunProgram(nested, {Bytes(got)}).ok());
  EXPECT_EQ(got, (std::vector<float>{1, 1, 0, 0}));
}

// The linearizer orders loops by giving a RANGE extra sources (pm_add_control_flow): the RANGE
// it nests in, or the END of the sibling loop before it. The loop runs on its bound alone.
TEST(UopInterpreter, RangesMayCarryOrderingEdges) {
  UOp out = DG(0, 9, dtypes::int32), r0 = Loop(2, 0);
  UOp r1 = Loop(3, 1).replace_src({I32(3), r0});
  UOp inner = End(St(Idx(out, Alu(Ops::ADD, Alu(Ops::MUL, r0, I32(3)), r1)), Alu(Ops::ADD, Alu(Ops::MUL, r0, I32(10)), r1)), r1);
  UOp outer = End(inner, r0);
  UOp r2 = Loop(3, 2).replace_src({I32(3), outer});  // after the nest: a sibling's END
  UOp last = End(St(Idx(out, Alu(Ops::ADD, r2, I32(6))), Alu(Ops::MUL, r2, I32(100))), r2);
  std::vector<int32_t> got(9, -1);
  absl::Status st = RunProgram(Linear(UOp::Sink({last})), {Bytes(got)});
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(got, (std::vector<int32_t>{0, 1, 2, 10, 11, 12, 0, 100, 200}));
  // anything else past the bound is malformed
  UOp bad = Loop(3, 1).replace_src({I32(3), I32(1)});
  absl::StatusOr<UopInterpreter> p = UopInterpreter::Load(Linear(UOp::Sink({End(St(Idx(out, bad), I32(0)), bad)})));
  EXPECT_THAT(std::string(p.status().message()), HasSubstr("not an ordering edge"));
}

TEST(UopInterpreter, RunChecksItsArguments) {
  std::vector<UOp> prog = Linear(ShiftedCopy(4, 0));
  absl::StatusOr<UopInterpreter> p = UopInterpreter::Load(prog);
  ASSERT_TRUE(p.ok());
  std::vector<float> out(4), in(4);
  std::vector<std::span<std::byte>> one = {Bytes(out)}, two = {Bytes(out), Bytes(in)};
  EXPECT_EQ(p->Run(one, {}, {1, 1, 1}, {1, 1, 1}).code(), absl::StatusCode::kInvalidArgument);
  std::vector<int64_t> vals = {1};
  EXPECT_EQ(p->Run(two, vals, {1, 1, 1}, {1, 1, 1}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(p->Run(two, {}, {0, 1, 1}, {1, 1, 1}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(p->Run(two, {}, {1, 1, 1}, {4096, 2, 1}).code(), absl::StatusCode::kInvalidArgument);
}

// A store under an IF whose INDEX has no gate: only the threads whose condition holds store.
TEST(UopInterpreter, IfMasksStores) {
  UOp out = DG(0, 8), l = Special("lidx0", 8);
  UOp cond = Alu(Ops::CMPLT, l, I32(3)).replace_dtype(dtypes::bool_);
  UOp idx = Idx(out, l);
  UOp mif = UOp::Make(Ops::IF, dtypes::void_, {cond, idx});
  UOp st = St(idx, F32(5));
  UOp endif = UOp::Make(Ops::ENDIF, dtypes::void_, {mif});
  UOp eight = l.src(0);
  std::vector<UOp> prog = {out, eight, l, I32(3), cond, idx, mif, F32(5), st, endif, UOp::Sink({st})};
  std::vector<float> got(8, -1);
  absl::Status s = RunProgram(prog, {Bytes(got)}, {1, 1, 1}, {8, 1, 1});
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(got, (std::vector<float>{5, 5, 5, -1, -1, -1, -1, -1}));
}

// Gated INDEX: a LOAD takes its alternative value where the gate is false, a STORE skips.
TEST(UopInterpreter, GatesSkipTheAccess) {
  UOp out = DG(0, 4), in = DG(1, 2), r = Loop(4);
  UOp lt2 = Alu(Ops::CMPLT, r, I32(2)).replace_dtype(dtypes::bool_);
  UOp v = UOp::Make(Ops::LOAD, dtypes::float32, {GatedIdx(in, r, lt2), F32(-1)});
  UOp ne3 = Alu(Ops::CMPNE, r, I32(3)).replace_dtype(dtypes::bool_);
  std::vector<float> got(4, 9), src = {10, 20};
  ASSERT_TRUE(RunProgram(Linear(UOp::Sink({End(St(GatedIdx(out, r, ne3), v), r)})), {Bytes(got), Bytes(src)}).ok());
  EXPECT_EQ(got, (std::vector<float>{10, 20, -1, 9}));
}

// Threads write local memory, meet at a BARRIER, and read what the others wrote; each
// workgroup gets fresh local memory.
TEST(UopInterpreter, LocalMemoryIsSharedByTheWorkgroup) {
  UOp out = DG(0, 8), in = DG(1, 8);
  UOp g = Special("gidx0", 2), l = Special("lidx0", 4);
  UOp smem = UOp::Make(Ops::DEFINE_LOCAL, dtypes::float32.ptr(4, AddrSpace::LOCAL), {}, "temp0");
  UOp gi = Alu(Ops::ADD, Alu(Ops::MUL, g, I32(4)), l);
  UOp st = St(Idx(smem, l), Ld(Idx(in, gi)));
  UOp bar = UOp::Make(Ops::BARRIER, dtypes::void_, {st});
  UOp after = UOp::Make(Ops::AFTER, smem.dtype(), {smem, bar});
  UOp rev = Alu(Ops::SUB, I32(3), l);
  UOp sink = UOp::Sink({St(Idx(out, gi), Ld(Idx(after, rev)))});
  std::vector<float> got(8), src = {0, 1, 2, 3, 4, 5, 6, 7};
  absl::Status s = RunProgram(Linear(sink), {Bytes(got), Bytes(src)}, {2, 1, 1}, {4, 1, 1});
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(got, (std::vector<float>{3, 2, 1, 0, 7, 6, 5, 4}));
}

// DEFINE_REG memory is each thread's own: an accumulator summed in a loop.
TEST(UopInterpreter, RegistersArePerThread) {
  UOp out = DG(0, 4), l = Special("lidx0", 4), r = Loop(3);
  UOp acc = UOp::Make(Ops::DEFINE_REG, dtypes::float32.ptr(1, AddrSpace::REG), {}, 0);
  UOp init = St(Idx(acc, I32(0)), F32(0));
  UOp acc_in_loop = UOp::Make(Ops::AFTER, acc.dtype(), {acc, init, r});
  UOp lf = l.cast(dtypes::float32);
  UOp upd = St(Idx(acc_in_loop, I32(0)), Alu(Ops::ADD, Ld(Idx(acc_in_loop, I32(0))), lf));
  UOp end = End(upd, r);
  UOp acc_after = UOp::Make(Ops::AFTER, acc.dtype(), {acc, end});
  std::vector<float> got(4);
  absl::Status s = RunProgram(Linear(UOp::Sink({St(Idx(out, l), Ld(Idx(acc_after, I32(0))))})), {Bytes(got)}, {1, 1, 1}, {4, 1, 1});
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(got, (std::vector<float>{0, 3, 6, 9}));
}

// float4 loads and stores through a CAST of the pointer, GEP and VECTORIZE.
TEST(UopInterpreter, VectorsAccessConsecutiveElements) {
  DType f4 = dtypes::float32.vec(4);
  UOp out = DG(0, 8), in = DG(1, 8), r = Loop(2);
  UOp base = Alu(Ops::MUL, r, I32(4));
  UOp v = UOp::Make(Ops::LOAD, f4, {UOp::Make(Ops::CAST, f4.ptr(8), {Idx(in, base)})});
  UOp rev = UOp::Make(Ops::GEP, f4, {v}, Arg::Tuple({3, 2, 1, 0}));
  UOp ten = UOp::Make(Ops::VECTORIZE, f4, {F32(10), F32(20), F32(30), F32(40)});
  UOp sum = UOp::Make(Ops::ADD, f4, {rev, ten});
  UOp st = St(UOp::Make(Ops::CAST, f4.ptr(8), {Idx(out, base)}), sum);
  std::vector<float> got(8), src = {0, 1, 2, 3, 4, 5, 6, 7};
  absl::Status s = RunProgram(Linear(UOp::Sink({End(st, r)})), {Bytes(got), Bytes(src)});
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(got, (std::vector<float>{13, 22, 31, 40, 17, 26, 35, 44}));

  // the last vector runs past the end of a 7-element buffer
  std::vector<float> short_src(7);
  s = RunProgram(Linear(UOp::Sink({End(st, r)})), {Bytes(got), Bytes(short_src)});
  EXPECT_THAT(std::string(s.message()), HasSubstr("element 7, size 7"));
}

// half in, bfloat16 and fp8 out: memory holds each dtype's bits, values are rounded on store.
TEST(UopInterpreter, StorageFormats) {
  UOp out_bf = DG(0, 3, dtypes::bfloat16), out_f8 = DG(1, 3, dtypes::fp8e4m3), in = DG(2, 3, dtypes::float16);
  UOp r = Loop(3), r2 = Loop(3, 1);
  UOp sink = UOp::Sink({End(St(Idx(out_bf, r), Ld(Idx(in, r)).cast(dtypes::bfloat16)), r),
                        End(St(Idx(out_f8, r2), Ld(Idx(in, r2)).cast(dtypes::fp8e4m3)), r2)});
  // half 1.0, -2.5, 65504
  std::vector<uint16_t> src = {0x3c00, 0xc100, 0x7bff}, bf(3);
  std::vector<uint8_t> f8(3);
  absl::Status s = RunProgram(Linear(sink), {Bytes(bf), Bytes(f8), Bytes(src)});
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(bf, (std::vector<uint16_t>{0x3f80, 0xc020, 0x4780}));  // 65504 rounds to 65536 in bf16
  EXPECT_EQ(f8[0], FloatToFp8(1.0, dtypes::fp8e4m3));
  EXPECT_EQ(f8[1], FloatToFp8(-2.5, dtypes::fp8e4m3));
  EXPECT_EQ(f8[2], 0x7e);  // saturates to e4m3's max normal
}

TEST(UopInterpreter, CastsAndBitcasts) {
  UOp out_i = DG(0, 4, dtypes::int32), out_u8 = DG(1, 4, dtypes::uint8), out_bits = DG(2, 4, dtypes::uint32), in = DG(3, 4);
  // one loop per output: a RANGE has one END
  UOp r0 = Loop(4, 0), r1 = Loop(4, 1), r2 = Loop(4, 2);
  UOp x0 = Ld(Idx(in, r0)), x1 = Ld(Idx(in, r1)), x2 = Ld(Idx(in, r2));
  UOp sink = UOp::Sink({End(St(Idx(out_i, r0), x0.cast(dtypes::int32)), r0),
                        End(St(Idx(out_u8, r1), x1.cast(dtypes::int32).cast(dtypes::uint8)), r1),
                        End(St(Idx(out_bits, r2), UOp::Make(Ops::BITCAST, dtypes::uint32, {x2})), r2)});
  std::vector<float> src = {1.75f, -1.75f, 300.0f, -0.0f};
  std::vector<int32_t> i(4);
  std::vector<uint8_t> u8(4);
  std::vector<uint32_t> bits(4);
  absl::Status s = RunProgram(Linear(sink), {Bytes(i), Bytes(u8), Bytes(bits), Bytes(src)});
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_EQ(i, (std::vector<int32_t>{1, -1, 300, 0}));
  EXPECT_EQ(u8, (std::vector<uint8_t>{1, 255, 44, 0}));
  for (int k = 0; k < 4; ++k) {
    uint32_t want;
    std::memcpy(&want, &src[k], 4);
    EXPECT_EQ(bits[k], want);
  }
  src[2] = NAN;
  s = RunProgram(Linear(sink), {Bytes(i), Bytes(u8), Bytes(bits), Bytes(src)});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("cast of nan"));
}

TEST(UopInterpreter, NegativeShiftIsAnError) {
  UOp out = DG(0, 1, dtypes::int32), in = DG(1, 1, dtypes::int32);
  UOp sink = UOp::Sink({St(Idx(out, I32(0)), Alu(Ops::SHL, I32(1), Ld(Idx(in, I32(0)))))});
  std::vector<int32_t> o(1), x = {-1};
  EXPECT_THAT(std::string(RunProgram(Linear(sink), {Bytes(o), Bytes(x)}).message()), HasSubstr("negative shift"));
  x[0] = 4;
  ASSERT_TRUE(RunProgram(Linear(sink), {Bytes(o), Bytes(x)}).ok());
  EXPECT_EQ(o[0], 16);
}

}  // namespace
}  // namespace tg
