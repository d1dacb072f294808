// File: tinygrad/dtype/golden_test_util.cc
#include "tinygrad/dtype/golden_test_util.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tinygrad/base/check.h"

namespace tg::golden {

std::vector<std::vector<std::string>> ReadTable(std::string_view name) {
  std::string path = "tinygrad/dtype/testdata/" + std::string(name);
  std::ifstream in(path);
  TG_CHECK(in.good()) << "can't open " << path << " (run from the workspace root)";
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    size_t start = 0;
    for (size_t sep; (sep = line.find(" | ", start)) != std::string::npos; start = sep + 3) {
      fields.push_back(line.substr(start, sep - start));
    }
    fields.push_back(line.substr(start));
    rows.push_back(std::move(fields));
  }
  TG_CHECK(!rows.empty()) << path << " has no records";
  return rows;
}

DType ParseSpec(std::string_view spec) {
  std::istringstream in{std::string(spec)};
  std::string tok;
  in >> tok;
  DType d;
  TG_CHECK(dtypes::FromName(tok, &d)) << "unknown dtype name " << tok;
  while (in >> tok) {
    if (tok.rfind("vec:", 0) == 0) {
      d = d.vec(std::stoi(tok.substr(4)));
    } else if (tok.rfind("ptr:", 0) == 0) {
      size_t colon = tok.find(':', 4);
      TG_CHECK(colon != std::string::npos) << "bad ptr step " << tok;
      std::string as = tok.substr(colon + 1);
      AddrSpace a = as == "LOCAL" ? AddrSpace::LOCAL
                    : as == "REG" ? AddrSpace::REG
                                  : AddrSpace::GLOBAL;
      TG_CHECK(as == "LOCAL" || as == "REG" || as == "GLOBAL") << "bad addrspace " << as;
      d = d.ptr(std::stoll(tok.substr(4, colon - 4)), a);
    } else {
      TG_CHECK(false) << "bad spec step " << tok;
    }
  }
  return d;
}

ConstValue ParsePyValue(std::string_view repr) {
  if (repr == "True") return ConstValue(true);
  if (repr == "False") return ConstValue(false);
  bool is_int = !repr.empty();
  for (size_t i = 0; i < repr.size(); ++i) {
    char c = repr[i];
    if (!(c >= '0' && c <= '9') && !(i == 0 && c == '-')) is_int = false;
  }
  if (is_int) {
    bool neg = repr[0] == '-';
    i128 v = 0;
    for (char c : repr.substr(neg ? 1 : 0)) {
      TG_CHECK(v < kIntInf) << "int literal out of range: " << repr;
      v = v * 10 + (c - '0');
    }
    return ConstValue(neg ? -v : v);
  }
  std::string s(repr);
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  TG_CHECK(end == s.c_str() + s.size()) << "bad float literal " << repr;
  return ConstValue(d);
}

}  // namespace tg::golden
