// File: tinygrad/tensor/math_extra.cc
// (being written)
