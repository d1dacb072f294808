// File: tools/viz/graph_dot.cc
#include "tools/viz/graph_dot.h"

#include <cstdlib>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "graphviz/gvc.h"

// Graphviz measures label text with pango, whose fontconfig keeps its font caches until the
// process exits (fontconfig frees them only in FcFini, which nothing calls): LeakSanitizer
// would report them in every binary that renders a graph (tg, the VIZ tests) under ASan. This
// is the one place that loads Graphviz, so the suppression lives here.
extern "C" const char* __lsan_default_suppressions() { return "leak:libfontconfig.so\n"; }

namespace tg::viz {
namespace {

// Ops drawn only inside their users' labels, as the reference's viewer does (unless the op is
// the graph's sink itself).
bool FoldedIntoUsers(std::string_view op) {
  return op == "CONST" || op == "DEVICE" || op == "UNIQUE" || op == "LUNIQUE";
}

// absl::StrCat here takes no std::string_view, so names are std::string.
std::string OpName(std::string_view op) {
  if (op.substr(0, 4) == "Ops.") op.remove_prefix(4);
  return std::string(op);
}

// The reference's uops_colors, by op name; ALU and movement ops by group.
std::string OpColor(const std::string& op) {
  static const absl::flat_hash_map<std::string_view, std::string_view> kColors = {
      {"LOAD", "#ffc0c0"}, {"STORE", "#87CEEB"}, {"CONST", "#e0e0e0"}, {"VCONST", "#e0e0e0"},
      {"REDUCE", "#FF5B5B"}, {"DEFINE_GLOBAL", "#cb9037"}, {"DEFINE_LOCAL", "#f2cb91"},
      {"DEFINE_REG", "#f2cb91"}, {"REDUCE_AXIS", "#FF6B6B"}, {"RANGE", "#c8a0e0"},
      {"ASSIGN", "#909090"}, {"BARRIER", "#ff8080"}, {"IF", "#c8b0c0"}, {"SPECIAL", "#c0c0ff"},
      {"INDEX", "#cef263"}, {"WMMA", "#efefc0"}, {"MULTI", "#f6ccff"}, {"KERNEL", "#3e7f55"},
      {"THREEFRY", "#ffff80"}, {"BUFFER_VIEW", "#E5EAFF"}, {"BUFFER", "#B0BDFF"},
      {"COPY", "#a040a0"}, {"CONTIGUOUS", "#FFC14D"}, {"BUFFERIZE", "#FF991C"},
      {"AFTER", "#8A7866"}, {"END", "#524C46"},
  };
  static const absl::flat_hash_set<std::string_view> kMovement = {
      "RESHAPE", "PERMUTE", "EXPAND", "PAD", "SHRINK", "FLIP"};
  static const absl::flat_hash_set<std::string_view> kAlu = {
      "EXP2", "LOG2", "SIN", "SQRT", "RECIPROCAL", "NEG", "TRUNC", "ADD", "MUL", "SHL", "SHR",
      "IDIV", "MAX", "MOD", "CMPLT", "CMPNE", "CMPEQ", "XOR", "OR", "AND", "SUB", "FDIV", "POW",
      "WHERE", "MULACC"};
  if (auto it = kColors.find(op); it != kColors.end()) return std::string(it->second);
  if (kMovement.contains(op)) return "#D8F9E4";
  if (kAlu.contains(op)) return "#ffffc0";
  return "#ffffff";
}

// Length of the UTF-8 sequence starting at text[i], or 0 if it is not valid UTF-8.
size_t Utf8Length(std::string_view text, size_t i) {
  const unsigned char c = static_cast<unsigned char>(text[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return 0;
  }
  return n;
}

// Breaks `text` into lines of at most `width` bytes (at spaces where there are some).
std::string WordWrap(std::string_view text, size_t width) {
  std::string out;
  size_t line = 0;
  for (char c : text) {
    if (c == '\n') line = 0;
    if (line >= width && c == ' ') {
      out += '\n';
      line = 0;
      continue;
    }
    if (line >= 2 * width) {
      out += '\n';
      line = 0;
    }
    out += c;
    ++line;
  }
  return out;
}

// Graphviz reports problems through a callback; collect them for the error instead of stderr.
std::string* g_graphviz_errors = nullptr;
int CollectGraphvizError(char* message) {
  if (g_graphviz_errors != nullptr && g_graphviz_errors->size() < 2000) *g_graphviz_errors += message;
  return 0;
}

}  // namespace

std::string DotQuoted(std::string_view text, size_t max_chars) {
  std::string out = "\"";
  size_t shown = 0;
  for (size_t i = 0; i < text.size();) {
    if (shown >= max_chars) {
      out += "...";
      break;
    }
    const char c = text[i];
    const size_t n = Utf8Length(text, i);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else if (n == 0 || (n == 1 && (static_cast<unsigned char>(c) < 0x20 || c == 0x7f))) {
      out += '?';  // a control character or a byte that is not UTF-8
    } else {
      out.append(text.data() + i, n);
      i += n;
      shown += n;
      continue;
    }
    i += n == 0 ? 1 : n;
    ++shown;
  }
  out += '"';
  return out;
}

GraphDot GraphToDot(const VizGraph& graph) {
  GraphDot dot;
  absl::flat_hash_map<size_t, const VizGraphNode*> by_id;
  for (const VizGraphNode& n : graph.nodes) by_id[n.id] = &n;
  const size_t sink = graph.nodes.empty() ? 0 : graph.nodes.back().id;
  auto folded = [&](const VizGraphNode& n) { return n.id != sink && FoldedIntoUsers(OpName(n.op)); };

  std::string body;
  for (const VizGraphNode& n : graph.nodes) {
    if (folded(n)) continue;
    std::string label = OpName(n.op);
    if (!n.arg.empty()) absl::StrAppend(&label, "\n", WordWrap(n.arg, 60));
    if (!n.dtype.empty() && n.dtype != "dtypes.void") absl::StrAppend(&label, "\n", n.dtype);
    if (!n.tag.empty()) absl::StrAppend(&label, "\ntag ", n.tag);
    for (size_t i = 0; i < n.src.size(); ++i) {
      auto it = by_id.find(n.src[i]);
      if (it == by_id.end() || !folded(*it->second)) continue;
      absl::StrAppend(&label, "\n", OpName(it->second->op), i, " ", it->second->arg);
    }
    std::string classes = "uop";
    std::string style;
    if (n.changed) {
      classes += " changed";
      style = " color=\"#d00000\" penwidth=2.5";
      ++dot.changed;
    }
    if (n.matched) {  // what the next match rewrites: a double outline, blue unless changed
      classes += " matched";
      style += n.changed ? " peripheries=2" : " peripheries=2 color=\"#1f6feb\" penwidth=2";
    }
    absl::StrAppend(&body, "  n", n.id, " [id=\"n", n.id, "\" class=\"", classes, "\" label=",
                    DotQuoted(label, 400), " fillcolor=\"", OpColor(OpName(n.op)), "\"", style,
                    "];\n");
    ++dot.drawn;
    for (size_t i = 0; i < n.src.size(); ++i) {
      auto it = by_id.find(n.src[i]);
      if (it == by_id.end() || folded(*it->second)) continue;
      absl::StrAppend(&body, "  n", n.src[i], " -> n", n.id,
                      n.src.size() > 1 ? absl::StrCat(" [headlabel=\"", i, "\"]") : "", ";\n");
    }
  }
  // Big graphs: bound the layout's iterations so a large graph costs seconds, not minutes.
  const char* limits = dot.drawn > 300 ? " nslimit=2 nslimit1=2 mclimit=0.2" : "";
  dot.text = absl::StrCat(
      "digraph G {\n  graph [rankdir=LR bgcolor=transparent", limits,
      "];\n  node [shape=box style=\"rounded,filled\" fontname=\"sans-serif\" fontsize=10];\n"
      "  edge [color=\"#606060\" fontsize=8 fontcolor=\"#606060\" arrowsize=0.6];\n",
      body, "}\n");
  return dot;
}

absl::StatusOr<std::string> RenderDotToSvg(const std::string& dot) {
  static absl::Mutex mu(absl::kConstInit);
  absl::MutexLock lock(&mu);
  static GVC_t* gvc = gvContext();  // lives as long as the process: plugins load once
  std::string errors;
  g_graphviz_errors = &errors;
  agseterrf(CollectGraphvizError);
  struct Reset {
    ~Reset() { g_graphviz_errors = nullptr; }
  } reset;
  std::string text = dot;  // agmemread takes a writable buffer in older Graphviz
  Agraph_t* graph = agmemread(text.data());
  if (graph == nullptr) return absl::InvalidArgumentError(absl::StrCat("Graphviz cannot read the graph: ", errors));
  std::string svg;
  absl::Status status;
  if (gvLayout(gvc, graph, "dot") != 0) {
    status = absl::InternalError(absl::StrCat("Graphviz layout failed: ", errors));
  } else {
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(gvc, graph, "svg", &data, &length) != 0 || data == nullptr) {
      status = absl::InternalError(absl::StrCat("Graphviz SVG rendering failed: ", errors));
    } else {
      svg.assign(data, length);
    }
    if (data != nullptr) gvFreeRenderData(data);
    gvFreeLayout(gvc, graph);
  }
  agclose(graph);
  if (!status.ok()) return status;
  return svg;
}

}  // namespace tg::viz
