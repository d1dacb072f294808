// File: tinygrad/base/clock.cc
#include "tinygrad/base/clock.h"

#include <thread>

namespace tg {
namespace {

class RealClock : public Clock {
 public:
  TimePoint Now() override { return std::chrono::steady_clock::now(); }
  void SleepFor(Duration d) override { std::this_thread::sleep_for(d); }
};

}  // namespace

Clock& Clock::Real() {
  static RealClock* clock = new RealClock();  // never destroyed: used until exit
  return *clock;
}

}  // namespace tg
