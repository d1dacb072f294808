// File: tools/cli/db_command.h
// `tg db [--db LOCATION] <stats | show KEY | export [--out FILE] | import FILE | gc [--dry-run] |
// serve [--host ADDR] [--port N] [--allow-remote]>`:
// looks after a tuning database (autotune/db): the default SQLite file, another file, or a
// PostgreSQL server (--db postgresql://...).
//   stats    rows, by device class, renderer and version; candidates timed; journal rows
//   show     every field of the records whose key digest starts with KEY
//   export   every record as one JSON line (autotune/db/record_json.h), to stdout or FILE
//   import   merges a JSON-lines file: better results win, one transaction; a bad line is an
//            error naming its line number and nothing is imported
//   gc       drops records of other codegen/opt versions than this build's, and the journal of
//            finished searches; --dry-run only counts
//   serve    the records as a sortable web page on loopback (tools/dashboard/db_page.h) until
//            Ctrl-C
#ifndef TOOLS_CLI_DB_COMMAND_H_
#define TOOLS_CLI_DB_COMMAND_H_

#include <span>
#include <string_view>

namespace tg {

// Returns the process exit code: 0 ok, 1 the command failed, 2 usage error.
int DbCommand(std::span<const std::string_view> args);

}  // namespace tg

#endif  // TOOLS_CLI_DB_COMMAND_H_
