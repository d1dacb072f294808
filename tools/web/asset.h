// File: tools/web/asset.h
// A file of a local web page (HTML, JavaScript, CSS) compiled into the binary, so that `tg`
// serves its pages without finding files at run time. web_assets() in assets.bzl generates the
// table of a package's files.
#ifndef TOOLS_WEB_ASSET_H_
#define TOOLS_WEB_ASSET_H_

#include <string_view>

namespace tg::web {

struct Asset {
  std::string_view path;          // URL path, "/index.html"
  std::string_view content_type;  // "text/html; charset=utf-8", from the file's extension
  std::string_view body;
};

}  // namespace tg::web

#endif  // TOOLS_WEB_ASSET_H_
