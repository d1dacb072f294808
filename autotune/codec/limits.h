// File: autotune/codec/limits.h
// The explicit limits every decoder of the farm's wire format runs under. A message from the
// network is untrusted: these bound the memory and time one message can cost before it is
// rejected, beyond the bounds Cap'n Proto's reader enforces itself (traversal, nesting).
#ifndef AUTOTUNE_CODEC_LIMITS_H_
#define AUTOTUNE_CODEC_LIMITS_H_

#include <cstdint>

namespace tg::autotune::codec {

struct DecodeLimits {
  int64_t max_message_bytes = int64_t{64} << 20;  // whole message, before parsing
  // capnp::ReaderOptions: words a reader may visit (reading a list twice counts twice) and
  // how deep pointers may nest.
  uint64_t traversal_limit_words = uint64_t{16} << 20;
  int nesting_limit = 64;
  // The AST.
  int64_t max_nodes = 1 << 18;
  int64_t max_sources = 1 << 12;      // per node
  int max_tuple_depth = 16;           // nested Arg tuples
  int64_t max_tuple_len = 1 << 16;    // items of one Arg tuple
  int64_t max_string_bytes = 1 << 20; // any one text field
  // Lists of the farm messages.
  int64_t max_list_len = 1 << 20;     // buffers, var_vals, samples, known programs, isa flags
  int64_t max_candidates = 1 << 16;   // per request
  int64_t max_opts = 256;             // per candidate
  // A prepared program's source and binary, each (compile service replies).
  int64_t max_program_bytes = int64_t{16} << 20;

  // Source text in a kernel AST: the format strings of CUSTOM and CUSTOMI (C pasted into the
  // kernel as it is) and, in any other node's arg, a string that is not a plain identifier
  // (names are pasted into the rendered source too). A job from the network must not choose
  // the code a worker compiles, so the decoders refuse them unless this is set; set it only
  // for bytes this process trusts (its own encodings: tests, tools).
  bool allow_source_text = false;
};

}  // namespace tg::autotune::codec

#endif  // AUTOTUNE_CODEC_LIMITS_H_
