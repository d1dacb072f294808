"""Compiler flags for every tinygrad-cc C++ target: the one place copts are defined.

Usage in a BUILD file:
    load("//tools/bazel:copts.bzl", "TG_COPTS")
    cc_library(name = "foo", srcs = [...], copts = TG_COPTS)

The language standard (-std=c++20) is set in .bazelrc, not here, so that host tools and
external repositories are built with it too. Warnings are not errors: a newer compiler must
not break the build.
"""

TG_COPTS = [
    "-Wall",
    "-Wextra",
    "-Wnon-virtual-dtor",
    "-Woverloaded-virtual",
    "-Wvla",
    # GCC warns on designated initializers that leave fields to their default member
    # initializers (`{.name = "simplify"}`), which is how option structs are meant to be used.
    "-Wno-missing-field-initializers",
]
