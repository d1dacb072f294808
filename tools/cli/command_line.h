// File: tools/cli/command_line.h
// What every `tg` subcommand shares about its command line, on top of CLI11: the exit codes,
// how a CLI::App is parsed (CLI11 throws; the exceptions end here as exit codes), the form of
// usage errors, and validators for the value types the commands take.
//
// Example:
//   CLI::App app("Runs a tuning-farm worker.", "tg worker");
//   SetUpCommandApp(app);
//   int n = 1;
//   app.add_option("--children", n, "child processes")->check(IntAtLeast(1));
//   if (std::optional<int> rc = ParseCommandLine(app, args)) return *rc;  // --help or bad flags
//   ... run, returning kExitOk or kExitFailed ...
#ifndef TOOLS_CLI_COMMAND_LINE_H_
#define TOOLS_CLI_COMMAND_LINE_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "CLI/CLI.hpp"

namespace tg {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;  // the command ran and failed
inline constexpr int kExitUsage = 2;   // the command line is wrong; nothing was done

// Sets up `app` (named "tg <command>") the way every subcommand behaves: -h/--help, errors
// printed as "tg <command>: <what>" plus a pointer to --help.
void SetUpCommandApp(CLI::App& app);

// Parses `args` (the words after the subcommand's name). Returns nothing when the command
// should run; otherwise the exit code, after printing the help (kExitOk) or the error
// (kExitUsage). Nothing thrown by CLI11 or by an option's callback escapes.
std::optional<int> ParseCommandLine(CLI::App& app, std::span<const std::string_view> args);

// A usage error found after parsing (one CLI11 cannot express): printed like CLI11's own.
int UsageError(const CLI::App& app, const std::string& message);

// Values: an integer >= lo; a number (double) > 0 or >= 0.
CLI::Validator IntAtLeast(long long lo);
CLI::Validator PositiveNumber();
CLI::Validator NonNegativeNumber();

}  // namespace tg

#endif  // TOOLS_CLI_COMMAND_LINE_H_
