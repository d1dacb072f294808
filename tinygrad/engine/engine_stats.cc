// File: tinygrad/engine/engine_stats.cc
#include "tinygrad/engine/engine_stats.h"

namespace tg {

EngineStats& GetEngineStats() {
  static EngineStats* const stats = new EngineStats();
  return *stats;
}

}  // namespace tg
