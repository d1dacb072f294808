#!/bin/sh
echo "tinygrad-cc: 'bazel coverage' is not supported offline (@remote_coverage_tools is a stand-in; see third_party/README.md)" >&2
exit 1
