// File: tools/bench/fma_peak.c
// The float32 FMA peak of this CPU for one vector width: each thread runs CHAINS independent
// chains of vector FMAs (enough to cover the FMA latency on every FMA port), so the loop is
// bound by FMA throughput only. The best of about a second of short rounds (as sgemm_bench and
// the tuner take their best run): on a shared machine a round now and then has the cores. Built by tools/bench/blas_bench.sh with the target's -march and
// -DLANES=8 (AVX2, ymm) or 16 (AVX-512, zmm).
//
//   fma_peak THREADS   -> {"kind": "peak", "lanes": 8, "threads": 2, "gflops": 190.1}
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef LANES
#define LANES 8
#endif
#define CHAINS 12  // 2 FMA ports x 4-5 cycles latency, with room to spare; fits 16 registers

typedef float vf __attribute__((vector_size(LANES * 4)));

// ~0.5 ms a round: short enough that on a busy machine some round has every core at once
static const long kIters = 300L * 1000;

static void* Run(void* out) {
  vf acc[CHAINS];
  vf a, b;
  for (int l = 0; l < LANES; ++l) {
    a[l] = 0.999999f;
    b[l] = 1e-7f;
  }
  for (int c = 0; c < CHAINS; ++c)
    for (int l = 0; l < LANES; ++l) acc[c][l] = (float)(c + l);
  for (long i = 0; i < kIters; ++i)
    for (int c = 0; c < CHAINS; ++c) acc[c] = acc[c] * a + b;  // one FMA (-ffp-contract=on)
  float s = 0;
  for (int c = 0; c < CHAINS; ++c)
    for (int l = 0; l < LANES; ++l) s += acc[c][l];
  *(float*)out = s;  // keeps the chains alive
  return NULL;
}

int main(int argc, char** argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  if (threads < 1 || threads > 256) {
    fprintf(stderr, "usage: fma_peak THREADS\n");
    return 2;
  }
  pthread_t tid[256];
  float sink[256];
  double best = 1e30, total = 0;
  int rounds = 0;
  while (total < 1.0 && rounds < 5000) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int t = 0; t < threads; ++t) pthread_create(&tid[t], NULL, Run, &sink[t]);
    for (int t = 0; t < threads; ++t) pthread_join(tid[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (s < best) best = s;
    total += s;
    ++rounds;
  }
  double flops = 2.0 * LANES * CHAINS * (double)kIters * threads;
  printf("{\"kind\": \"peak\", \"lanes\": %d, \"threads\": %d, \"rounds\": %d, \"gflops\": %.1f, \"check\": %g}\n",
         LANES, threads, rounds, flops / best * 1e-9, (double)sink[0]);
  return 0;
}
