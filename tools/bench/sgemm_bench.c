// File: tools/bench/sgemm_bench.c
// OpenBLAS's sgemm on one shape: C[M,N] = A[M,K] @ B[K,N], row-major float32, the best of
// enough runs to fill about a second. Threads: OPENBLAS_NUM_THREADS; kernels: OPENBLAS_CORETYPE
// (Haswell: the AVX2 ones). Built by tools/bench/blas_bench.sh (-lopenblas).
//
//   sgemm_bench M N K   -> {"kind": "openblas", "m": 512, "n": 512, "k": 512, "gflops": 169.0, ...}
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: sgemm_bench M N K\n");
    return 2;
  }
  long m = atol(argv[1]), n = atol(argv[2]), k = atol(argv[3]);
  if (m < 1 || n < 1 || k < 1) {
    fprintf(stderr, "sizes must be >= 1\n");
    return 2;
  }
  float* a = aligned_alloc(64, ((size_t)(m * k * 4) + 63) / 64 * 64);
  float* b = aligned_alloc(64, ((size_t)(k * n * 4) + 63) / 64 * 64);
  float* c = aligned_alloc(64, ((size_t)(m * n * 4) + 63) / 64 * 64);
  if (!a || !b || !c) return 1;
  srand(1);
  for (long i = 0; i < m * k; ++i) a[i] = (float)(rand() / (double)RAND_MAX) - 0.5f;
  for (long i = 0; i < k * n; ++i) b[i] = (float)(rand() / (double)RAND_MAX) - 0.5f;
  double best = 1e30, start = Now();
  int runs = 0;
  while (runs < 3 || (Now() - start < 1.0 && runs < 1000)) {
    double t0 = Now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, a, (int)k, b, (int)n, 0.0f,
                c, (int)n);
    double t = Now() - t0;
    if (runs > 0 && t < best) best = t;  // the first run warms up (thread start, page faults)
    ++runs;
  }
  const char* core = openblas_get_corename();
  printf("{\"kind\": \"openblas\", \"m\": %ld, \"n\": %ld, \"k\": %ld, \"threads\": %d, \"core\": \"%s\", "
         "\"runs\": %d, \"s\": %.9f, \"gflops\": %.1f}\n",
         m, n, k, openblas_get_num_threads(), core ? core : "?", runs, best, 2.0 * m * n * k / best * 1e-9);
  free(a);
  free(b);
  free(c);
  return 0;
}
