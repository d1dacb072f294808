// File: tinygrad/renderer/c/cpu_renderer_options.h
// What the CPU renderers (ClangRenderer, and LLVMRenderer's threads extension) take from the
// settings: whether kernels may use THREAD opts, and on how many cores. Passed in explicitly so
// that a renderer's limits are the caller's choice (the device's options, a test's figures),
// never the process environment read behind its back.
//
// Example:
//   ClangRenderer ren(CpuRendererOptions::FromConfig(config));  // THREADS, CPU_COUNT
//   ClangRenderer one_core;                                    // the defaults: threads, 1 core
#ifndef TINYGRAD_RENDERER_C_CPU_RENDERER_OPTIONS_H_
#define TINYGRAD_RENDERER_C_CPU_RENDERER_OPTIONS_H_

#include "tinygrad/base/config.h"

namespace tg {

struct CpuRendererOptions {
  bool threads = true;  // THREADS: kernels may split across cores (has_threads)
  int cpu_count = 1;    // CPU_COUNT: the most cores a kernel may use (global_max[0])

  static CpuRendererOptions FromConfig(const Config& c) {
    return {.threads = c.threads != 0, .cpu_count = c.cpu_count};
  }

  friend bool operator==(const CpuRendererOptions&, const CpuRendererOptions&) = default;
};

}  // namespace tg

#endif  // TINYGRAD_RENDERER_C_CPU_RENDERER_OPTIONS_H_
