// File: tinygrad/tensor/scatter.cc
// (being written)
