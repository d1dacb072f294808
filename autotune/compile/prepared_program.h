// File: autotune/compile/prepared_program.h
// A prepared candidate (autotune/measure/prepare_batch.h) <-> its wire form
// (codec::PreparedProgram): what a compile server answers for each candidate and what the
// measurer on the GPU machine loads from it.
//
// On the wire a program's launch sizes, variables and estimates are numbers, evaluated at the
// task's variable values (the only values the client runs it with); the client rebuilds them
// as constant UOps. The client checks what it receives against its task: a program that names
// a buffer slot or variable the task lacks, or a launch size below 1, fails that candidate
// (kCompileError, naming the field) rather than reaching the device.
//
// Example (server, then client):
//   codec::PreparedProgram w = ToWire(prepared[i], results[i], task);
//   PreparedCandidate back;
//   FromWire(w, task, back, results[i]);   // results[i] as the server had it
#ifndef AUTOTUNE_COMPILE_PREPARED_PROGRAM_H_
#define AUTOTUNE_COMPILE_PREPARED_PROGRAM_H_

#include "autotune/codec/compile_messages.h"
#include "autotune/measure/measurer.h"
#include "autotune/measure/prepare_batch.h"

namespace tg::autotune {

// The wire form of candidate `p` with its result `r` so far. A pending program whose sizes or
// estimates cannot be evaluated at the task's variables becomes kLoweringError.
codec::PreparedProgram ToWire(PreparedCandidate p, const CandidateResult& r, const KernelTask& task);

// Fills `p` and `r` (outcome, error, duplicate_of, program_hash, uops, cost) from `w`.
// p.pending is true for a kOk program that passes the checks above.
void FromWire(codec::PreparedProgram w, const KernelTask& task, PreparedCandidate& p, CandidateResult& r);

}  // namespace tg::autotune

#endif  // AUTOTUNE_COMPILE_PREPARED_PROGRAM_H_
