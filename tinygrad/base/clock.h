// File: tinygrad/base/clock.h
// Time as an input: code that decides from elapsed time (the measurer's stops, BEAM's early
// exit, a worker's deadlines, heartbeats) takes a Clock, so that its tests script the times
// and assert exact outcomes on a CPU of any speed (kj's Timer, abseil's Clock).
//
// Example:
//   Clock& clock = options.clock != nullptr ? *options.clock : Clock::Real();
//   Clock::TimePoint t0 = clock.Now();
//   ...
//   double s = clock.SecondsSince(t0);
//
//   FakeClock fake;              // in a test: time moves only when told
//   fake.Advance(std::chrono::milliseconds(3));
#ifndef TINYGRAD_BASE_CLOCK_H_
#define TINYGRAD_BASE_CLOCK_H_

#include <atomic>
#include <chrono>

namespace tg {

class Clock {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  using Duration = std::chrono::steady_clock::duration;

  virtual ~Clock() = default;
  virtual TimePoint Now() = 0;
  // Waits `d` on this clock: a real sleep, or (FakeClock) time moving on at once.
  virtual void SleepFor(Duration d) = 0;

  double SecondsSince(TimePoint t0) { return std::chrono::duration<double>(Now() - t0).count(); }

  // The steady clock of the machine; lives for the process.
  static Clock& Real();
};

// Seconds from t0 to now on the machine's steady clock (for reports, not for decisions).
inline double SecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Seconds given as a double (Cap'n Proto fields, options) as a clock duration, to the nearest
// tick (a cast would truncate 0.003 s to 2999999 ns).
inline std::chrono::steady_clock::duration FromSeconds(double s) {
  return std::chrono::round<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

// A clock for tests: starts at an arbitrary point and moves only by Advance (or SleepFor).
// Safe to read from several threads.
class FakeClock : public Clock {
 public:
  TimePoint Now() override { return TimePoint(Duration(ticks_.load())); }
  void SleepFor(Duration d) override { Advance(d); }
  void Advance(Duration d) { ticks_.fetch_add(d.count()); }
  void AdvanceSeconds(double s) { Advance(FromSeconds(s)); }

 private:
  std::atomic<Duration::rep> ticks_{Duration(std::chrono::hours(1)).count()};
};

}  // namespace tg

#endif  // TINYGRAD_BASE_CLOCK_H_
