#include "tinygrad/uop/ops.h"

#include "tinygrad/base/check.h"

namespace tg {
namespace {
constexpr std::string_view kOpNames[] = {
#define TG_OP_NAME(name) #name,
    TG_FOR_EACH_OP(TG_OP_NAME)
#undef TG_OP_NAME
};
}  // namespace

std::string_view OpName(Ops op) { return kOpNames[static_cast<int>(op)]; }

std::ostream& operator<<(std::ostream& os, Ops op) { return os << "Ops." << OpName(op); }

bool OpFromName(std::string_view name, Ops* out) {
  if (name.substr(0, 4) == "Ops.") name.remove_prefix(4);
  for (int i = 0; i < kNumOps; ++i) {
    if (kOpNames[i] == name) {
      *out = static_cast<Ops>(i);
      return true;
    }
  }
  return false;
}

Ops OpSet::First() const {
  for (int i = 0; i < kNumOps; ++i)
    if (contains(static_cast<Ops>(i))) return static_cast<Ops>(i);
  TG_CHECK(false) << "First() of an empty OpSet";
  return Ops::NOOP;
}

}  // namespace tg
