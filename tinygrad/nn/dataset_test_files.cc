// File: tinygrad/nn/dataset_test_files.cc
#include "tinygrad/nn/dataset_test_files.h"

#include <zlib.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"

namespace tg::testing {

std::string IdxFile(uint8_t type, std::initializer_list<uint32_t> dims, std::string_view data) {
  std::string b = {'\0', '\0', static_cast<char>(type), static_cast<char>(dims.size())};
  for (uint32_t d : dims)
    for (int shift : {24, 16, 8, 0}) b.push_back(static_cast<char>((d >> shift) & 0xff));
  return b.append(data);
}

std::string FreshTestDir(std::string_view name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::filesystem::path dir = std::filesystem::path(tmp != nullptr ? tmp : ".") / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

std::string Gzip(std::string_view bytes) {
  z_stream s{};
  // windowBits 15 + 16: a gzip wrapper rather than zlib's.
  if (deflateInit2(&s, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    ADD_FAILURE() << "deflateInit2 failed";
    return "";
  }
  std::string out(deflateBound(&s, bytes.size()), '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  s.avail_in = static_cast<uInt>(bytes.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  if (deflate(&s, Z_FINISH) != Z_STREAM_END) ADD_FAILURE() << "deflate did not finish";
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

void WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!f) ADD_FAILURE() << "cannot write " << path;
}

std::string TestTmpPath(std::string_view name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : ".") + "/" + std::string(name);
}

std::string WriteTestTmpFile(std::string_view name, std::string_view bytes) {
  std::string path = TestTmpPath(name);
  WriteFile(path, bytes);
  return path;
}

std::string ReadFileBytes(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

std::vector<double> DecodeFloats(std::span<const std::byte> b, DType dt) {
  std::vector<double> out;
  for (size_t i = 0; i + dt.itemsize() <= b.size(); i += dt.itemsize()) {
    if (dt == dtypes::float64) {
      double d;
      std::memcpy(&d, &b[i], 8);
      out.push_back(d);
    } else if (dt == dtypes::float32) {
      float f;
      std::memcpy(&f, &b[i], 4);
      out.push_back(f);
    } else {
      uint16_t h;
      std::memcpy(&h, &b[i], 2);
      if (dt == dtypes::bfloat16) {  // the top half of a float32
        uint32_t bits = uint32_t{h} << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        out.push_back(f);
        continue;
      }
      int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
      double mag = exp == 0    ? std::ldexp(mant, -24)
                   : exp == 31 ? (mant ? NAN : INFINITY)
                               : std::ldexp(1024 + mant, exp - 25);
      out.push_back(h & 0x8000 ? -mag : mag);
    }
  }
  return out;
}

}  // namespace tg::testing
