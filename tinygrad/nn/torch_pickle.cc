// File: tinygrad/nn/torch_pickle.cc
#include "tinygrad/nn/torch_pickle.h"

#include "absl/strings/str_format.h"

namespace tg::torch_pickle {
namespace {

struct StorageDType {
  absl::string_view name;
  DType dtype;
};
// The reference's `intercept` storages, then the ones it lacks (see torch_load.h).
constexpr StorageDType kStorageTypes[] = {
    {"HalfStorage", dtypes::float16},      {"FloatStorage", dtypes::float32},
    {"BFloat16Storage", dtypes::bfloat16}, {"IntStorage", dtypes::int32},
    {"BoolStorage", dtypes::bool_},        {"LongStorage", dtypes::int64},
    {"ByteStorage", dtypes::uint8},        {"CharStorage", dtypes::int8},
    {"ShortStorage", dtypes::int16},       {"DoubleStorage", dtypes::float64},
};

}  // namespace

absl::StatusOr<Value> Unpickler::Resolve(const std::string& module, const std::string& name) {
  std::string root = module.substr(0, module.find('.'));
  Value v{.kind = Kind::kGlobal, .s = absl::StrCat(module, ".", name)};
  if (root == "torch") {
    for (const StorageDType& st : kStorageTypes) {
      if (name != st.name) continue;
      v.global = Global::kStorageType;
      v.dtype = st.dtype;
      return v;
    }
    if (name == "_rebuild_tensor" || name == "_rebuild_tensor_v2") {
      v.global = Global::kRebuildTensor;
      return v;
    }
    if (name == "FloatTensor") return Value{};  // the reference maps it to None
  } else if (module == "collections" && name == "OrderedDict") {
    v.global = Global::kOrderedDict;
    return v;
  } else if (root == "numpy" || root == "_codecs") {
    v.global = Global::kOpaque;
    return v;
  }
  return Error(absl::StrCat("unsupported global '", module, ".", name, "'"));
}

absl::StatusOr<std::vector<int64_t>> Unpickler::Ints(uint32_t id, absl::string_view what) {
  const Value& v = values_[id];
  if (v.kind != Kind::kTuple && v.kind != Kind::kList)
    return Error(absl::StrCat("tensor ", what, " is not a tuple"));
  if (v.items.size() > kMaxDims) return Error(absl::StrCat("tensor ", what, " has too many dims"));
  std::vector<int64_t> out;
  for (uint32_t e : v.items) {
    if (values_[e].kind != Kind::kInt) return Error(absl::StrCat("tensor ", what, " is not ints"));
    out.push_back(values_[e].i);
  }
  return out;
}

absl::Status Unpickler::Reduce(uint32_t func, uint32_t args_id) {
  const Value& f = values_[func];
  const Value& args = values_[args_id];
  if (args.kind != Kind::kTuple) return Error("REDUCE arguments are not a tuple");
  if (f.kind != Kind::kGlobal) return Error("REDUCE of something not callable");
  switch (f.global) {
    case Global::kOrderedDict:
      if (!args.items.empty()) return Error("OrderedDict called with arguments");
      return PushNew(Value{.kind = Kind::kDict});
    case Global::kOpaque:
      return PushNew(Value{.kind = Kind::kOpaque});
    case Global::kStorageType:
      return Error(absl::StrCat("can't call '", f.s, "'"));
    case Global::kRebuildTensor:
      break;
  }
  // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad=None,
  //                    backward_hooks=None, metadata=None); _rebuild_tensor: the first four.
  std::vector<uint32_t> a = args.items;
  if (a.size() < 4 || a.size() > 7)
    return Error(absl::StrCat("'", f.s, "' called with ", a.size(), " arguments"));
  if (values_[a[0]].kind != Kind::kStorage) return Error("tensor storage is not a storage");
  if (values_[a[1]].kind != Kind::kInt || values_[a[1]].i < 0)
    return Error("tensor storage offset is not an int >= 0");
  Value t{.kind = Kind::kTensor, .i = values_[a[1]].i, .items = {a[0]}};
  ASSIGN_OR_RETURN(t.size, Ints(a[2], "size"));
  ASSIGN_OR_RETURN(t.stride, Ints(a[3], "stride"));
  if (t.size.size() != t.stride.size()) return Error("tensor size and stride differ in length");
  for (int64_t s : t.size)
    if (s < 0) return Error("tensor size is negative");
  return PushNew(std::move(t));
}

// torch's persistent id of a storage: ('storage', storage type, key, location, numel), and in
// the legacy format a sixth entry, the view metadata (None).
absl::StatusOr<uint32_t> Unpickler::Persistent(uint32_t pid) {
  const Value& p = values_[pid];
  auto is = [&](size_t k, Kind kind) { return values_[p.items[k]].kind == kind; };
  if (p.kind != Kind::kTuple || p.items.size() < 5 || p.items.size() > 6 || !is(0, Kind::kStr) ||
      values_[p.items[0]].s != "storage" || !is(2, Kind::kStr) || !is(4, Kind::kInt))
    return Error("persistent id is not ('storage', type, key, location, numel)");
  if (p.items.size() == 6 && !is(5, Kind::kNone)) return Error("storage views are not supported");
  const Value& type = values_[p.items[1]];
  if (type.kind != Kind::kGlobal || type.global != Global::kStorageType)
    return Error("persistent id's storage type is not a storage class");
  int64_t numel = values_[p.items[4]].i;
  if (numel < 0 || numel > (int64_t{1} << 60) / type.dtype.itemsize())
    return Error("storage numel out of range");
  return New(
      Value{.kind = Kind::kStorage, .dtype = type.dtype, .i = numel, .s = values_[p.items[2]].s});
}

absl::StatusOr<uint32_t> Unpickler::Load(size_t pos) {
  pos_ = pos;
  stack_.clear();
  marks_.clear();
  memo_.clear();
  while (true) {
    op_pos_ = pos_;
    if (pos_ >= data_.size()) return Error("pickle ends without STOP");
    const uint8_t op = static_cast<uint8_t>(data_[pos_++]);
    switch (op) {
      case 0x80: {  // PROTO
        ASSIGN_OR_RETURN(uint64_t proto, ReadUint(1));
        if (proto < 2 || proto > 5) return Error(absl::StrCat("pickle protocol ", proto));
        break;
      }
      case 0x95:
        RETURN_IF_ERROR(Take(8).status());
        break;     // FRAME: a hint only
      case '.': {  // STOP
        ASSIGN_OR_RETURN(uint32_t top, Pop());
        return top;
      }
      case 'N':
        RETURN_IF_ERROR(PushNew(Value{}));
        break;
      case 0x88:
      case 0x89:  // NEWTRUE, NEWFALSE
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kBool, .i = op == 0x88}));
        break;
      case 'J':
      case 'K':
      case 'M': {  // BININT, BININT1, BININT2
        ASSIGN_OR_RETURN(uint64_t v, ReadUint(op == 'J' ? 4 : op == 'K' ? 1 : 2));
        int64_t i =
            op == 'J' ? static_cast<int32_t>(static_cast<uint32_t>(v)) : static_cast<int64_t>(v);
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kInt, .i = i}));
        break;
      }
      case 0x8a:
      case 0x8b: {  // LONG1, LONG4: little-endian two's complement
        ASSIGN_OR_RETURN(uint64_t n, ReadUint(op == 0x8a ? 1 : 4));
        ASSIGN_OR_RETURN(Bytes b, Take(n));
        Value v{.kind = Kind::kBigInt,
                .s = std::string(reinterpret_cast<const char*>(b.data()), n)};
        if (n <= 8) {
          uint64_t u = 0;
          for (size_t k = n; k-- > 0;) u = (u << 8) | static_cast<uint8_t>(b[k]);
          if (n > 0 && n < 8 && (static_cast<uint8_t>(b[n - 1]) & 0x80))
            u |= ~uint64_t{0} << (8 * n);
          v = Value{.kind = Kind::kInt, .i = static_cast<int64_t>(u)};
        }
        RETURN_IF_ERROR(PushNew(std::move(v)));
        break;
      }
      case 'G': {  // BINFLOAT: big-endian double
        ASSIGN_OR_RETURN(Bytes b, Take(8));
        uint64_t u = 0;
        for (std::byte c : b) u = (u << 8) | static_cast<uint8_t>(c);
        double d;
        std::memcpy(&d, &u, sizeof(d));
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kFloat, .f = d}));
        break;
      }
      case 'X':
      case 0x8c:
      case 0x8d:  // BINUNICODE, SHORT_BINUNICODE, BINUNICODE8
      case 'B':
      case 'C':
      case 0x8e: {  // BINBYTES, SHORT_BINBYTES, BINBYTES8
        int width = (op == 0x8c || op == 'C') ? 1 : (op == 0x8d || op == 0x8e) ? 8 : 4;
        ASSIGN_OR_RETURN(uint64_t n, ReadUint(width));
        ASSIGN_OR_RETURN(Bytes b, Take(n));
        bool str = op == 'X' || op == 0x8c || op == 0x8d;
        RETURN_IF_ERROR(
            PushNew(Value{.kind = str ? Kind::kStr : Kind::kBytes,
                          .s = std::string(reinterpret_cast<const char*>(b.data()), n)}));
        break;
      }
      case '}':
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kDict}));
        break;
      case ']':
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kList}));
        break;
      case ')':
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kTuple}));
        break;
      case '(':  // MARK
        if (marks_.size() >= kMaxStack) return Error("too many MARKs");
        marks_.push_back(stack_.size());
        break;
      case 't': {  // TUPLE
        ASSIGN_OR_RETURN(std::vector<uint32_t> items, PopMark());
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kTuple, .items = std::move(items)}));
        break;
      }
      case 0x85:
      case 0x86:
      case 0x87: {  // TUPLE1, TUPLE2, TUPLE3
        std::vector<uint32_t> items(op - 0x84);
        for (size_t k = items.size(); k-- > 0;) {
          ASSIGN_OR_RETURN(items[k], Pop());
        }
        RETURN_IF_ERROR(PushNew(Value{.kind = Kind::kTuple, .items = std::move(items)}));
        break;
      }
      case 'a':
      case 'e': {  // APPEND, APPENDS
        std::vector<uint32_t> items;
        if (op == 'a') {
          ASSIGN_OR_RETURN(uint32_t item, Pop());
          items.push_back(item);
        } else {
          ASSIGN_OR_RETURN(items, PopMark());
        }
        if (stack_.size() <= Floor() || values_[stack_.back()].kind != Kind::kList)
          return Error("APPEND to something not a list");
        Value& list = values_[stack_.back()];
        list.items.insert(list.items.end(), items.begin(), items.end());
        break;
      }
      case 's':
      case 'u': {  // SETITEM, SETITEMS
        std::vector<uint32_t> items(2);
        if (op == 's') {
          ASSIGN_OR_RETURN(items[1], Pop());
          ASSIGN_OR_RETURN(items[0], Pop());
        } else {
          ASSIGN_OR_RETURN(items, PopMark());
          if (items.size() % 2 != 0) return Error("SETITEMS with an odd number of items");
        }
        if (stack_.size() <= Floor() || values_[stack_.back()].kind != Kind::kDict)
          return Error("SETITEM on something not a dict");
        Value& dict = values_[stack_.back()];
        dict.items.insert(dict.items.end(), items.begin(), items.end());
        break;
      }
      case 'c': {  // GLOBAL
        ASSIGN_OR_RETURN(std::string module, ReadLine());
        ASSIGN_OR_RETURN(std::string name, ReadLine());
        ASSIGN_OR_RETURN(Value g, Resolve(module, name));
        RETURN_IF_ERROR(PushNew(std::move(g)));
        break;
      }
      case 0x93: {  // STACK_GLOBAL
        ASSIGN_OR_RETURN(uint32_t name, Pop());
        ASSIGN_OR_RETURN(uint32_t module, Pop());
        if (values_[name].kind != Kind::kStr || values_[module].kind != Kind::kStr)
          return Error("STACK_GLOBAL of something not strings");
        ASSIGN_OR_RETURN(Value g, Resolve(values_[module].s, values_[name].s));
        RETURN_IF_ERROR(PushNew(std::move(g)));
        break;
      }
      case 'R':
      case 0x81: {  // REDUCE, NEWOBJ
        ASSIGN_OR_RETURN(uint32_t args, Pop());
        ASSIGN_OR_RETURN(uint32_t func, Pop());
        if (op == 0x81 &&
            !(values_[func].kind == Kind::kGlobal && values_[func].global == Global::kOpaque))
          return Error("NEWOBJ of a class other than numpy's");
        RETURN_IF_ERROR(Reduce(func, args));
        break;
      }
      case 'Q': {  // BINPERSID
        ASSIGN_OR_RETURN(uint32_t pid, Pop());
        ASSIGN_OR_RETURN(uint32_t storage, Persistent(pid));
        RETURN_IF_ERROR(Push(storage));
        break;
      }
      case 'b': {  // BUILD: an OrderedDict's attributes (a state dict's _metadata), numpy state
        ASSIGN_OR_RETURN(uint32_t state, Pop());
        (void)state;
        if (stack_.size() <= Floor()) return Error("BUILD with nothing to build");
        Kind k = values_[stack_.back()].kind;
        if (k != Kind::kDict && k != Kind::kOpaque) return Error("BUILD of something not a dict");
        break;
      }
      case 'q':
      case 'r':
      case 0x94: {  // BINPUT, LONG_BINPUT, MEMOIZE
        uint64_t idx = memo_.size();
        if (op != 0x94) {
          ASSIGN_OR_RETURN(idx, ReadUint(op == 'q' ? 1 : 4));
        }
        if (stack_.size() <= Floor()) return Error("memo PUT with an empty stack");
        memo_[idx] = stack_.back();
        break;
      }
      case 'h':
      case 'j': {  // BINGET, LONG_BINGET
        ASSIGN_OR_RETURN(uint64_t idx, ReadUint(op == 'h' ? 1 : 4));
        auto it = memo_.find(idx);
        if (it == memo_.end()) return Error(absl::StrCat("memo GET of ", idx, ", never PUT"));
        RETURN_IF_ERROR(Push(it->second));
        break;
      }
      case '0':
        RETURN_IF_ERROR(Pop().status());
        break;  // POP
      case '1':
        RETURN_IF_ERROR(PopMark().status());
        break;     // POP_MARK
      case '2': {  // DUP
        if (stack_.size() <= Floor()) return Error("DUP with an empty stack");
        RETURN_IF_ERROR(Push(stack_.back()));
        break;
      }
      default:
        return Error(absl::StrFormat("unsupported pickle opcode 0x%02x", op));
    }
  }
}

}  // namespace tg::torch_pickle
