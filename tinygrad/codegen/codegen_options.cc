// File: tinygrad/codegen/codegen_options.cc
#include "tinygrad/codegen/codegen_options.h"

#include <vector>

#include "tinygrad/base/field_text.h"

namespace tg {
namespace {

// What changes programs, in KeyText's order. (A new field is added_later, so that texts stored
// before it still parse, meaning its default.)
const std::vector<TextField<CodegenOptions>>& KeyFields() {
  static const auto* kFields = new std::vector<TextField<CodegenOptions>>{
      {"noopt", &CodegenOptions::noopt},
      {"tc", &CodegenOptions::tc},
      {"tc_select", &CodegenOptions::tc_select},
      {"tc_opt", &CodegenOptions::tc_opt},
      {"nolocals", &CodegenOptions::nolocals},
      {"allow_tf32", &CodegenOptions::allow_tf32},
      {"devectorize", &CodegenOptions::devectorize},
      {"transcendental", &CodegenOptions::transcendental},
      {"disable_fast_idiv", &CodegenOptions::disable_fast_idiv},
  };
  return *kFields;
}

}  // namespace

CodegenOptions CodegenOptions::FromConfig(const Config& c) {
  return CodegenOptions{
      .noopt = c.noopt,
      .tc = c.tc,
      .tc_select = c.tc_select,
      .tc_opt = c.tc_opt.value_or(0),  // hand_coded_optimizations reads TC_OPT with default 0
      .nolocals = c.nolocals,
      .allow_tf32 = c.allow_tf32,
      .devectorize = c.devectorize,
      .transcendental = c.transcendental,
      .disable_fast_idiv = c.disable_fast_idiv,
      .spec = c.spec != 0,
      .debug = c.debug,
  };
}

std::string CodegenOptions::KeyText() const { return FieldsToText(*this, KeyFields()); }

absl::StatusOr<CodegenOptions> CodegenOptions::FromKeyText(std::string_view text) {
  return FieldsFromText(text, KeyFields(), "codegen options");
}

}  // namespace tg
