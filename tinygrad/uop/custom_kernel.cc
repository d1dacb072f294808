// File: tinygrad/uop/custom_kernel.cc
#include "tinygrad/uop/custom_kernel.h"

#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tinygrad/base/check.h"
#include "tinygrad/uop/shape.h"
#include "tinygrad/uop/spec.h"

namespace tg {

namespace {

// The kernel's name for errors: its KernelInfo name once written, else its sources' shapes.
std::string KernelWhere(const UOp& ck) {
  std::string shapes;
  for (const UOp& s : ck.src())
    absl::StrAppend(&shapes, shapes.empty() ? "" : ", ",
                    s.shape() ? ShapeRepr(*s.shape()) : std::string("(no shape)"));
  return absl::StrCat("custom kernel over [", shapes, "]");
}

// Ops that belong to the tensor graph: a kernel AST made of them would be scheduled, not run.
constexpr OpSet kTensorGraphOps{Ops::BUFFER,      Ops::UNIQUE,        Ops::LUNIQUE, Ops::DEVICE,
                                Ops::KERNEL,      Ops::CUSTOM_KERNEL, Ops::COPY,    Ops::CONTIGUOUS,
                                Ops::MULTI,       Ops::MSTACK,        Ops::MSELECT, Ops::ASSIGN,
                                Ops::REDUCE_AXIS, Ops::BUFFER_VIEW,   Ops::DETACH};

}  // namespace

std::string CustomKernel::repr() const { return absl::StrCat("CustomKernel(#", serial(), ")"); }
std::string CustomKernelAst::repr() const { return absl::StrCat("Kernel(#", serial(), ")"); }

std::vector<UOp> CustomKernelOutputs(std::span<const UOp> srcs, CustomKernelFn fxn,
                                     CustomGradFn grad_fxn) {
  std::vector<UOp> contig;
  for (const UOp& s : srcs) contig.push_back(s.contiguous());
  UOp kernel =
      UOp::Make(Ops::CUSTOM_KERNEL, dtypes::void_, contig,
                Arg(std::make_shared<const CustomKernel>(std::move(fxn), std::move(grad_fxn))));
  std::vector<UOp> outs;
  for (const UOp& c : contig) outs.push_back(c.after({kernel}));
  return outs;
}

absl::StatusOr<UOp> ResolveCustomKernel(const UOp& ck) {
  const CustomKernel* fns = ck.arg().opaque_as<CustomKernel>();
  if (ck.op() != Ops::CUSTOM_KERNEL || !fns)
    return absl::InvalidArgumentError(
        absl::StrCat("not a custom kernel: ", std::string(OpName(ck.op()))));
  std::vector<UOp> params;
  for (size_t i = 0; i < ck.src().size(); ++i) {
    const UOp& s = ck.src(i);
    if (!s.shape() || !AllInt(*s.shape()))
      return absl::InvalidArgumentError(absl::StrCat(
          KernelWhere(ck), ": source ", i, " has ",
          s.shape() ? "a symbolic shape " + ShapeRepr(*s.shape()) : std::string("no shape"),
          "; placeholders need int shapes"));
    params.push_back(Placeholder(ToInts(*s.shape()), s.dtype(), static_cast<int64_t>(i)));
  }
  if (!fns->fxn())
    return absl::InvalidArgumentError(absl::StrCat(KernelWhere(ck), ": no function"));
  UOp ast = fns->fxn()(params);
  if (!ast)
    return absl::InvalidArgumentError(
        absl::StrCat(KernelWhere(ck), ": the function returned no AST"));
  if (ast.op() != Ops::SINK)
    return absl::InvalidArgumentError(absl::StrCat(KernelWhere(ck), ": the function returned ",
                                                   std::string(OpName(ast.op())), ", not a SINK"));
  for (const UOp& u : ast.toposort()) {
    if (kTensorGraphOps.contains(u.op()))
      return absl::InvalidArgumentError(absl::StrCat(
          KernelWhere(ck), ": the AST holds ", std::string(OpName(u.op())), ", a tensor-graph op"));
    if (!u.tag().is_none() || u.arg().is_opaque())
      return absl::InvalidArgumentError(absl::StrCat(KernelWhere(ck), ": the AST's ",
                                                     std::string(OpName(u.op())),
                                                     " has a tag or an opaque arg"));
  }
  if (absl::Status st = VerifySpec(ast, SpecKind::kKernel); !st.ok())
    return absl::InvalidArgumentError(absl::StrCat(KernelWhere(ck), ": ", st.message()));
  return ast;
}

UOp Placeholder(const std::vector<int64_t>& shape, DType dtype, int64_t slot, AddrSpace addrspace) {
  int64_t size = 1;
  for (int64_t d : shape) size *= d;
  const Ops op = addrspace == AddrSpace::GLOBAL  ? Ops::DEFINE_GLOBAL
                 : addrspace == AddrSpace::LOCAL ? Ops::DEFINE_LOCAL
                                                 : Ops::DEFINE_REG;
  UOp ret = UOp::Make(op, dtype.ptr(size, addrspace), {}, slot);
  if (shape.size() > 1) ret = ret.reshape(Shape(shape.begin(), shape.end()));
  return ret;
}

int64_t ShapeSize(const UOp& x) {
  TG_CHECK(x.shape() && AllInt(*x.shape())) << OpName(x.op()) << " has no int shape";
  return Prod(*x.shape()).value();
}

UOp Flatten(const UOp& x) { return x.reshape(Shape{SInt(ShapeSize(x))}); }

UOp At(const UOp& buf, std::initializer_list<AtIndex> idx) {
  return At(buf, std::span<const AtIndex>(idx.begin(), idx.size()));
}

UOp At(const UOp& buf, std::span<const AtIndex> idx) {
  TG_CHECK(buf.shape() && buf.shape()->size() == idx.size())
      << "At: indexing " << (buf.shape() ? ShapeRepr(*buf.shape()) : "a value without shape")
      << " with " << idx.size() << " indices";
  std::vector<int64_t> kept, sliced;
  std::vector<UOp> index;
  for (size_t d = 0; d < idx.size(); ++d) {
    if (std::holds_alternative<Whole>(idx[d])) {
      sliced.push_back(static_cast<int64_t>(d));
      continue;
    }
    kept.push_back(static_cast<int64_t>(d));
    index.push_back(std::holds_alternative<UOp>(idx[d])
                        ? std::get<UOp>(idx[d])
                        : UOp::Const(dtypes::index, std::get<int64_t>(idx[d])));
  }
  if (sliced.empty()) return buf.index(index);
  // the indexed dims first, the sliced ones last: a pointer into the rest
  kept.insert(kept.end(), sliced.begin(), sliced.end());
  return buf.permute(kept).index(index, /*ptr=*/true);
}

UOp Set(const UOp& index, const UOp& val, std::initializer_list<UOp> end) {
  return index.src(0).after({index.store(val).end(std::span<const UOp>(end.begin(), end.size()))});
}

UOp Set(const UOp& index, ConstValue val, std::initializer_list<UOp> end) {
  return Set(index, UOp::Const(index.dtype().base(), val), end);
}

UOp Contract(const UOp& x, std::initializer_list<UOp> ranges) {
  std::vector<Arg> axes;
  int count = 1;
  for (const UOp& r : ranges) {
    TG_CHECK(r.op() == Ops::RANGE && r.arg()[r.arg().size() - 1].axis_type() == AxisType::UPCAST)
        << "Contract: every range must be an UPCAST RANGE";
    const int64_t n = r.vmax().to_int64() + 1;
    axes.push_back(Arg::Tuple({r.arg()[0], n}));
    count *= static_cast<int>(n);
  }
  return UOp::Make(Ops::CONTRACT, x.dtype().vec(count), {x}, Arg::Tuple(axes));
}

UOp KernelSink(std::initializer_list<UOp> srcs, const KernelInfo& info) {
  return UOp::Make(Ops::SINK, dtypes::void_, srcs, info.ToArg());
}

}  // namespace tg
