// File: autotune/db/record_json.cc
// A tuning record <-> one JSON line: a writer, and a small strict JSON reader (objects,
// arrays, strings with escapes, numbers, true/false/null) that keeps each value's source
// text, so the opts array is handed to OptsFromText as written.
#include "autotune/db/record_json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "autotune/db/opts_text.h"
#include "autotune/db/schema.h"
#include "tinygrad/base/check.h"
#include "tinygrad/base/status_macros.h"

namespace tg::autotune {
namespace {

// ** writing **

void AppendString(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += absl::StrFormat("\\u%04x", static_cast<unsigned char>(c));
        } else {
          out += c;  // UTF-8 passes through
        }
    }
  }
  out += '"';
}

std::string Number(double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  TG_CHECK(ec == std::errc()) << "to_chars of a double";
  return std::string(buf, end);
}

// ** reading **

struct Value {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  std::string_view raw;  // the value's source text
  std::string str;       // kString: unescaped
  bool b = false;
  std::vector<Value> items;                            // kArray
  std::vector<std::pair<std::string, Value>> members;  // kObject
};

class Parser {
 public:
  explicit Parser(std::string_view text) : t_(text) {}

  absl::StatusOr<Value> Document() {
    ASSIGN_OR_RETURN(Value v, Parse(0));
    Skip();
    if (pos_ != t_.size()) return Fail("trailing text after the object");
    return v;
  }

 private:
  absl::Status Fail(std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat("bad JSON at offset ", pos_, ": ", std::string(what)));
  }
  void Skip() {
    while (pos_ < t_.size() &&
           (t_[pos_] == ' ' || t_[pos_] == '\t' || t_[pos_] == '\r' || t_[pos_] == '\n'))
      ++pos_;
  }
  bool Eat(char c) {
    Skip();
    if (pos_ < t_.size() && t_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  absl::StatusOr<Value> Parse(int depth) {
    if (depth > 16) return Fail("nested too deeply");
    Skip();
    if (pos_ >= t_.size()) return Fail("unexpected end");
    size_t start = pos_;
    Value v;
    char c = t_[pos_];
    if (c == '{') {
      v.kind = Value::kObject;
      ++pos_;
      if (!Eat('}')) {
        do {
          Skip();
          ASSIGN_OR_RETURN(std::string key, String());
          if (!Eat(':')) return Fail("expected ':'");
          ASSIGN_OR_RETURN(Value member, Parse(depth + 1));
          v.members.emplace_back(std::move(key), std::move(member));
        } while (Eat(','));
        if (!Eat('}')) return Fail("expected ',' or '}'");
      }
    } else if (c == '[') {
      v.kind = Value::kArray;
      ++pos_;
      if (!Eat(']')) {
        do {
          ASSIGN_OR_RETURN(Value item, Parse(depth + 1));
          v.items.push_back(std::move(item));
        } while (Eat(','));
        if (!Eat(']')) return Fail("expected ',' or ']'");
      }
    } else if (c == '"') {
      v.kind = Value::kString;
      ASSIGN_OR_RETURN(v.str, String());
    } else if (t_.substr(pos_).starts_with("null")) {
      pos_ += 4;
    } else if (t_.substr(pos_).starts_with("true")) {
      v.kind = Value::kBool;
      v.b = true;
      pos_ += 4;
    } else if (t_.substr(pos_).starts_with("false")) {
      v.kind = Value::kBool;
      pos_ += 5;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = Value::kNumber;
      while (pos_ < t_.size() &&
             std::string_view("+-.eE0123456789").find(t_[pos_]) != std::string_view::npos)
        ++pos_;
    } else {
      return Fail("expected a value");
    }
    v.raw = t_.substr(start, pos_ - start);
    return v;
  }

  absl::StatusOr<std::string> String() {
    if (pos_ >= t_.size() || t_[pos_] != '"') return Fail("expected a string");
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= t_.size()) return Fail("unterminated string");
      char c = t_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) return Fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= t_.size()) return Fail("unterminated escape");
      char e = t_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          ASSIGN_OR_RETURN(uint32_t cp, Hex4());
          if (cp >= 0xD800 && cp < 0xDC00) {  // a surrogate pair
            if (!t_.substr(pos_).starts_with("\\u")) return Fail("lone surrogate");
            pos_ += 2;
            ASSIGN_OR_RETURN(uint32_t lo, Hex4());
            if (lo < 0xDC00 || lo >= 0xE000) return Fail("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          AppendUtf8(out, cp);
          break;
        }
        default:
          return Fail("unknown escape");
      }
    }
  }

  absl::StatusOr<uint32_t> Hex4() {
    if (pos_ + 4 > t_.size()) return Fail("short \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = t_[pos_++];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) return Fail("bad \\u escape");
      v = v * 16 + static_cast<uint32_t>(d);
    }
    return v;
  }

  static void AppendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string_view t_;
  size_t pos_ = 0;
};

// Typed access to an object's fields, with errors that name the field.
class Fields {
 public:
  explicit Fields(const Value& obj) {
    for (const auto& [k, v] : obj.members) by_name_[k] = &v;
  }
  const Value* Find(const std::string& name) const {
    auto it = by_name_.find(name);
    return it == by_name_.end() ? nullptr : it->second;
  }
  absl::StatusOr<const Value*> Get(const std::string& name, Value::Kind kind) const {
    const Value* v = Find(name);
    if (v == nullptr) return Bad(name, "missing");
    if (v->kind != kind) return Bad(name, "wrong type");
    return v;
  }
  absl::StatusOr<std::string> Str(const std::string& name, bool optional = false) const {
    if (optional && Find(name) == nullptr) return std::string();
    ASSIGN_OR_RETURN(const Value* v, Get(name, Value::kString));
    return v->str;
  }
  absl::StatusOr<double> Double(const std::string& name) const {
    ASSIGN_OR_RETURN(const Value* v, Get(name, Value::kNumber));
    return ToDouble(name, *v);
  }
  absl::StatusOr<std::optional<double>> OptionalDouble(const std::string& name) const {
    const Value* v = Find(name);
    if (v != nullptr && v->kind == Value::kNull) return std::optional<double>();
    ASSIGN_OR_RETURN(double d, Double(name));
    return std::optional<double>(d);
  }
  absl::StatusOr<int64_t> Int(const std::string& name) const {
    ASSIGN_OR_RETURN(const Value* v, Get(name, Value::kNumber));
    int64_t i = 0;
    if (!absl::SimpleAtoi(std::string(v->raw), &i)) return Bad(name, "not an integer");
    return i;
  }
  absl::StatusOr<std::vector<double>> Doubles(const std::string& name) const {
    if (Find(name) == nullptr) return std::vector<double>();
    ASSIGN_OR_RETURN(const Value* v, Get(name, Value::kArray));
    std::vector<double> out;
    for (const Value& item : v->items) {
      if (item.kind != Value::kNumber) return Bad(name, "not a list of numbers");
      ASSIGN_OR_RETURN(double d, ToDouble(name, item));
      out.push_back(d);
    }
    return out;
  }
  static absl::Status Bad(const std::string& name, std::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("field '", name, "': ", std::string(why)));
  }

 private:
  static absl::StatusOr<double> ToDouble(const std::string& name, const Value& v) {
    double d = 0;
    auto [end, ec] = std::from_chars(v.raw.data(), v.raw.data() + v.raw.size(), d);
    if (ec != std::errc() || end != v.raw.data() + v.raw.size()) return Bad(name, "not a number");
    return d;
  }
  std::map<std::string, const Value*> by_name_;
};

}  // namespace

std::string RecordToJson(const TuningRecord& r) {
  std::string o = "{";
  auto key = [&](std::string_view k) {
    if (o.size() > 1) o += ',';
    AppendString(o, k);
    o += ':';
  };
  auto str = [&](std::string_view k, std::string_view v) {
    key(k);
    AppendString(o, v);
  };
  auto num = [&](std::string_view k, const std::string& v) {
    key(k);
    o += v;
  };
  auto opt_num = [&](std::string_view k, const std::optional<double>& v) {
    num(k, v ? Number(*v) : "null");
  };
  str("key", r.key.Digest());
  str("ast_hash", r.key.AstHex());
  str("device", r.key.device);
  str("renderer", r.key.renderer);
  str("compiler", r.key.compiler);
  str("codegen_version", r.key.codegen_version);
  num("opt_version", absl::StrCat(r.key.opt_version));
  str("settings", r.key.settings.ToString());
  str("kernel_name", r.kernel_name);
  num("opts", OptsToText(r.opts));
  num("time_s", Number(r.time_s));
  opt_num("noopt_time_s", r.noopt_time_s);
  opt_num("heuristic_time_s", r.heuristic_time_s);
  num("candidates", absl::StrCat(r.candidates));
  str("device_description", r.device_description);
  str("tinygrad_cc_version", r.tinygrad_cc_version);
  num("created_unix_ms", absl::StrCat(r.created_unix_ms));
  num("search_wall_s", Number(r.search_wall_s));
  str("worker", r.worker);
  str("host", r.host);
  num("samples_s", schema::SamplesToText(r.samples_s));
  return o + "}";
}

absl::StatusOr<TuningRecord> RecordFromJson(std::string_view line) {
  ASSIGN_OR_RETURN(Value doc, Parser(line).Document());
  if (doc.kind != Value::kObject) return absl::InvalidArgumentError("not a JSON object");
  Fields f(doc);
  TuningRecord r;
  ASSIGN_OR_RETURN(std::string digest, f.Str("key"));
  ASSIGN_OR_RETURN(std::string ast, f.Str("ast_hash"));
  absl::StatusOr<uint64_t> ast_hash = schema::ParseHex64(ast);
  if (!ast_hash.ok()) return Fields::Bad("ast_hash", "not 16 hex digits");
  r.key.ast_hash = *ast_hash;
  ASSIGN_OR_RETURN(r.key.device, f.Str("device"));
  ASSIGN_OR_RETURN(r.key.renderer, f.Str("renderer"));
  ASSIGN_OR_RETURN(r.key.compiler, f.Str("compiler"));
  ASSIGN_OR_RETURN(r.key.codegen_version, f.Str("codegen_version"));
  ASSIGN_OR_RETURN(int64_t opt_version, f.Int("opt_version"));
  r.key.opt_version = static_cast<int>(opt_version);
  ASSIGN_OR_RETURN(std::string settings, f.Str("settings"));
  absl::StatusOr<SearchSettings> s = SearchSettings::Parse(settings);
  if (!s.ok()) return Fields::Bad("settings", std::string(s.status().message()));
  r.key.settings = *s;
  ASSIGN_OR_RETURN(r.kernel_name, f.Str("kernel_name"));
  ASSIGN_OR_RETURN(const Value* opts, f.Get("opts", Value::kArray));
  absl::StatusOr<std::vector<Opt>> parsed = OptsFromText(opts->raw);
  if (!parsed.ok()) return Fields::Bad("opts", std::string(parsed.status().message()));
  r.opts = std::move(*parsed);
  ASSIGN_OR_RETURN(r.time_s, f.Double("time_s"));
  ASSIGN_OR_RETURN(r.noopt_time_s, f.OptionalDouble("noopt_time_s"));
  ASSIGN_OR_RETURN(r.heuristic_time_s, f.OptionalDouble("heuristic_time_s"));
  ASSIGN_OR_RETURN(r.candidates, f.Int("candidates"));
  ASSIGN_OR_RETURN(r.device_description, f.Str("device_description"));
  ASSIGN_OR_RETURN(r.tinygrad_cc_version, f.Str("tinygrad_cc_version"));
  ASSIGN_OR_RETURN(r.created_unix_ms, f.Int("created_unix_ms"));
  ASSIGN_OR_RETURN(r.search_wall_s, f.Double("search_wall_s"));
  ASSIGN_OR_RETURN(r.worker, f.Str("worker", /*optional=*/true));
  ASSIGN_OR_RETURN(r.host, f.Str("host", /*optional=*/true));
  ASSIGN_OR_RETURN(r.samples_s, f.Doubles("samples_s"));
  if (r.key.Digest() != digest)
    return Fields::Bad("key",
                       absl::StrCat("is not the digest of the key's parts (", r.key.Digest(), ")"));
  RETURN_IF_ERROR(schema::ValidateRecord(r));
  return r;
}

}  // namespace tg::autotune
