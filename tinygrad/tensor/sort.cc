// File: tinygrad/tensor/sort.cc
// (being written)
