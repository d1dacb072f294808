// File: autotune/codec/corpus.h (testonly)
// The seed corpus of the codec's fuzz test: encoded messages of every kind (valid) and
// hand-made hostile ones. make_corpus writes them to tests/codec_corpus/; the fuzz test
// mutates both these in-process entries and the committed files.
#ifndef AUTOTUNE_CODEC_CORPUS_H_
#define AUTOTUNE_CODEC_CORPUS_H_

#include <string>
#include <vector>

#include "autotune/measure/measurer.h"

namespace tg::autotune::codec {

struct CorpusEntry {
  // file name: "<root type>_<what>.bin"; hostile ones start "hostile_", and ones only a
  // reader that trusts the bytes accepts (DecodeLimits::allow_source_text) "trusted_"
  std::string name;
  std::string bytes;
};

// Deterministic: the same bytes on every run and machine.
std::vector<CorpusEntry> SeedCorpus();

// The hostile kernel tasks of the corpus (hostile_task_*.bin), as values: tasks that decoded
// before the kernel checks (kernel_check.h) and aborted (or hung) a worker child's lowering.
struct NamedTask {
  std::string name;  // the corpus file's
  KernelTask task;
};
const std::vector<NamedTask>& HostileTasks();

// The committed corpus: every *.bin file of `dir` (a test's runfiles: "tests/codec_corpus"),
// sorted by name.
std::vector<CorpusEntry> CommittedCorpus(const std::string& dir = "tests/codec_corpus");

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_CORPUS_H_
