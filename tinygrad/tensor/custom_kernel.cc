// File: tinygrad/tensor/custom_kernel.cc
// Tensor.custom_kernel (tinygrad/tensor.py): the tensors around UOp.custom_kernel
// (uop/custom_kernel.h), with the checks that make a bad call an errored result.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tinygrad/tensor/tensor.h"

namespace tg {

std::vector<Tensor> Tensor::custom_kernel(const std::vector<Tensor>& others, CustomKernelFn fxn,
                                          CustomGradFn grad_fxn) const {
  std::vector<Tensor> srcs{*this};
  srcs.insert(srcs.end(), others.begin(), others.end());
  auto all_err = [&](const absl::Status& st) {
    return std::vector<Tensor>(srcs.size(), Error(st));
  };
  auto fail = [&](const std::string& msg) {
    return all_err(absl::InvalidArgumentError(absl::StrCat("custom_kernel: ", msg)));
  };
  for (const Tensor& s : srcs)
    if (!s.ok()) return all_err(s.status());
  if (!fxn) return fail("no function to write the kernel");
  std::vector<UOp> uops;
  for (size_t i = 0; i < srcs.size(); ++i) {
    if (srcs[i].device() != srcs[0].device())
      return fail(absl::StrCat("source ", i, " is on ", srcs[i].device(), ", source 0 on ",
                               srcs[0].device(),
                               "; a kernel runs on one device (or on each of "
                               "the same devices)"));
    if (srcs[i].is_symbolic())
      return fail(absl::StrCat("source ", i, " has the symbolic shape ",
                               ShapeRepr(srcs[i].sshape()), "; placeholders need int shapes"));
    uops.push_back(srcs[i].uop());
  }
  std::vector<Tensor> outs;
  for (UOp& u : CustomKernelOutputs(uops, std::move(fxn), std::move(grad_fxn)))
    outs.emplace_back(std::move(u));
  return outs;
}

}  // namespace tg
