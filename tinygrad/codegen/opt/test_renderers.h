// File: tinygrad/codegen/opt/test_renderers.h
// GPU-like Renderer descriptions for AST-level optimizer tests (testonly).
//
// They carry the capabilities of tinygrad's CUDARenderer("sm_89") and AMDHIPRenderer (RDNA3 /
// CDNA3) - locals, shared memory size, launch limits, tensor cores - so the Scheduler, the
// heuristic and BEAM's action filter can be tested on GPU targets without a GPU or a GPU
// backend. Nothing is rendered through them: Render() returns a placeholder string.
//
// Example:
//   Scheduler k(ast, CudaLikeRenderer());
//   k.ApplyOpt({OptOps::LOCAL, 0, int64_t{16}});   // allowed: has_local
#ifndef TINYGRAD_CODEGEN_OPT_TEST_RENDERERS_H_
#define TINYGRAD_CODEGEN_OPT_TEST_RENDERERS_H_

#include "tinygrad/codegen/renderer.h"

namespace tg {

// CUDARenderer("sm_89"): device "CUDA", global_max (2147483647, 65535, 65535), local_max
// (1024, 1024, 64), shared_max 49152, tensor_cores cuda_sm89.
const Renderer& CudaLikeRenderer();
// AMDHIPRenderer("gfx1100"): device "AMD", shared_max 65536, tensor_cores amd_rdna3.
const Renderer& AmdRdna3LikeRenderer();
// AMDHIPRenderer("gfx942"): device "AMD", shared_max 65536, tensor_cores amd_cdna3.
const Renderer& AmdCdna3LikeRenderer();

}  // namespace tg

#endif  // TINYGRAD_CODEGEN_OPT_TEST_RENDERERS_H_
