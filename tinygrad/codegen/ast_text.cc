// File: tinygrad/codegen/ast_text.cc (testonly)
#include "tinygrad/codegen/ast_text.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tinygrad/uop/linear_text.h"
#include "tinygrad/uop/kernel_info.h"
#include "tinygrad/uop/render.h"

namespace tg {

UOp ParseAst(const std::vector<std::string>& lines) {
  std::vector<UOp> nodes;
  for (const std::string& line : lines) {
    std::vector<std::string> f = absl::StrSplit(line, " | ");
    EXPECT_TRUE(f.size() == 5 || f.size() == 6) << line;
    if (f.size() != 5 && f.size() != 6) return UOp();
    Arg tag;
    if (f.size() == 6) {
      EXPECT_TRUE(f[5].starts_with("tag=")) << line;
      tag = Arg(static_cast<int64_t>(std::stoll(f[5].substr(4))));
    }
    Ops op;
    EXPECT_TRUE(OpFromName(f[1], &op)) << line;
    absl::StatusOr<DType> dt = ParseDTypeSpec(f[2]);
    EXPECT_TRUE(dt.ok()) << line;
    std::vector<UOp> srcs;
    if (f[3] != "-")
      for (const std::string& i : std::vector<std::string>(absl::StrSplit(f[3], ','))) srcs.push_back(nodes.at(std::stoul(i)));
    Arg arg;
    if (f[4] == "Invalid") {
      arg = Arg(ConstValue::Invalid());
    } else {
      absl::StatusOr<Arg> a = ParseArgText(f[4]);
      EXPECT_TRUE(a.ok()) << line;
      if (a.ok()) arg = *a;
    }
    if (!dt.ok()) return UOp();
    nodes.push_back(UOp::Make(op, *dt, srcs, arg, tag));
  }
  return nodes.empty() ? UOp() : nodes.back();
}

std::vector<std::string> ReadGoldenLines(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "missing " << path;
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.push_back(line);
  return out;
}

std::optional<LaunchDims> ParseLaunchDims(const std::string& s) {
  if (s == "none") return std::nullopt;
  std::vector<std::string> parts = absl::StrSplit(s, ',');
  LaunchDims d{};
  for (size_t i = 0; i < 3 && i < parts.size(); ++i) d[i] = std::stoll(parts[i]);
  return d;
}

namespace {

// Python's repr of an arg: BufferizeOpts prints as the dataclass does, and WMMA's dtype names
// (strings here: Arg holds no DType) lose their quotes.
std::string ArgRepr(const UOp& u) {
  if (u.op() == Ops::SINK) return "-";
  const Arg& a = u.arg();
  if (BufferizeOpts::IsBufferizeOpts(a)) {
    BufferizeOpts o = BufferizeOpts::FromArg(a);
    std::ostringstream os;
    os << "BufferizeOpts(device=" << o.device.repr() << ", addrspace=" << o.addrspace
       << ", removable=" << (o.removable ? "True" : "False") << ")";
    return os.str();
  }
  if (u.op() == Ops::WMMA) {
    static const std::regex kDtypeStr("'(dtypes\\.[a-z0-9_]+)'");
    return std::regex_replace(a.repr(), kDtypeStr, "$1");
  }
  return a.repr();
}

std::string Line(size_t j, const UOp& u, const std::vector<std::string>& srcs, const std::string& arg) {
  std::ostringstream os;
  os << j << " | Ops." << OpName(u.op()) << " | " << u.dtype() << " | "
     << (srcs.empty() ? "-" : absl::StrJoin(srcs, ",")) << " | " << arg;
  return os.str();
}

}  // namespace

std::vector<std::string> DumpAst(const UOp& sink) {
  std::vector<UOp> topo = sink.toposort();
  absl::flat_hash_map<UOp, size_t> idx;
  for (size_t j = 0; j < topo.size(); ++j) idx[topo[j]] = j;
  std::vector<std::string> out;
  for (size_t j = 0; j < topo.size(); ++j) {
    const UOp& u = topo[j];
    std::vector<std::string> srcs;
    for (const UOp& s : u.src()) srcs.push_back(std::to_string(idx.at(s)));
    std::string line = Line(j, u, srcs, ArgRepr(u));
    if (!u.tag().is_none()) line += " | tag=" + u.tag().repr();
    out.push_back(line);
  }
  return out;
}

std::vector<std::string> FormatLinearUops(const std::vector<UOp>& uops) {
  std::vector<std::string> out;
  for (size_t j = 0; j < uops.size(); ++j) {
    std::vector<std::string> srcs;
    for (const UOp& s : uops[j].src()) {
      auto it = std::find(uops.begin(), uops.end(), s);
      srcs.push_back(it == uops.end() ? "?" : std::to_string(it - uops.begin()));
    }
    out.push_back(Line(j, uops[j], srcs, uops[j].op() == Ops::SINK ? "-" : uops[j].arg().repr()));
  }
  return out;
}

std::string FormatSizes(const std::vector<UOp>& sizes) {
  std::vector<std::string> out;
  for (const UOp& u : sizes)
    out.push_back(u.op() == Ops::CONST ? u.arg().repr() : Render(u.op() == Ops::CAST ? u.src(0) : u));
  return absl::StrJoin(out, " ");
}

}  // namespace tg
