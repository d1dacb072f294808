"""The system libraries tinygrad-cc builds against, as repositories.

Our WORKSPACE calls this, and so does a workspace that uses tinygrad-cc as a dependency (see
README.md): Bazel's WORKSPACE mode does not pass a dependency's repositories on.
"""

def tinygrad_cc_system_libraries():
    """Declares @absl, @gtest, @benchmark, @sqlite3, @capnp, @zmq, @pq, @nlohmann_json, @cli11,
    @seccomp, @zlib, @minizip, @httplib, @graphviz (under /usr), @llvm (LLVM 14) and @clang_cpp."""
    for name in ["absl", "gtest", "benchmark", "sqlite3", "capnp", "zmq", "pq", "nlohmann_json", "cli11", "seccomp", "zlib", "minizip", "httplib", "graphviz"]:
        if name not in native.existing_rules():
            native.new_local_repository(
                name = name,
                build_file = str(Label("//third_party:%s.BUILD" % name)),
                path = "/usr",
            )
    if "llvm" not in native.existing_rules():
        native.new_local_repository(
            name = "llvm",
            build_file = str(Label("//third_party:llvm.BUILD")),
            path = "/usr/lib/llvm-14",
        )
    if "clang_cpp" not in native.existing_rules():
        native.new_local_repository(
            name = "clang_cpp",
            build_file = str(Label("//third_party:clang_cpp.BUILD")),
            path = "/usr/lib/llvm-14",
        )
