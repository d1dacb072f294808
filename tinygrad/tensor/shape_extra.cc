// File: tinygrad/tensor/shape_extra.cc
// (being written)
