// File: autotune/codec/make_corpus.cc (testonly)
// Writes the codec's fuzz seed corpus (corpus.h) as one file per entry.
//
//   bazel run //autotune/codec:make_corpus -- "$PWD/tests/codec_corpus"
#include <cstdio>
#include <fstream>
#include <string>

#include "autotune/codec/corpus.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_corpus <output directory>\n");
    return 2;
  }
  for (const tg::autotune::codec::CorpusEntry& e : tg::autotune::codec::SeedCorpus()) {
    std::string path = std::string(argv[1]) + "/" + e.name;
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(e.bytes.data(), static_cast<std::streamsize>(e.bytes.size()));
    if (!f) {
      std::fprintf(stderr, "make_corpus: can't write %s\n", path.c_str());
      return 1;
    }
    std::printf("%s (%zu bytes)\n", path.c_str(), e.bytes.size());
  }
  return 0;
}
