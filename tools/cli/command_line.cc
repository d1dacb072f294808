// File: tools/cli/command_line.cc
#include "tools/cli/command_line.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <vector>

#include "absl/strings/numbers.h"

namespace tg {
namespace {

std::string FailureMessage(const CLI::App* app, const CLI::Error& e) {
  return app->get_name() + ": " + e.what() + "\nRun '" + app->get_name() + " --help' for the usage.\n";
}

CLI::Validator NumberAbove(double lo, bool inclusive, const std::string& what) {
  return CLI::Validator(
      [=](std::string& s) -> std::string {
        double v = 0;
        if (absl::SimpleAtod(s, &v) && (inclusive ? v >= lo : v > lo)) return "";
        return "needs " + what + ", got '" + s + "'";
      },
      inclusive ? "NUMBER>=0" : "NUMBER>0");
}

}  // namespace

void SetUpCommandApp(CLI::App& app) {
  app.failure_message(FailureMessage);
  app.set_help_flag("-h,--help", "show this help and exit");
}

std::optional<int> ParseCommandLine(CLI::App& app, std::span<const std::string_view> args) {
  // CLI11 takes the words last first, as it pops them off the back.
  std::vector<std::string> words(args.rbegin(), args.rend());
  try {
    app.parse(words);
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    // --help is a "ParseError" with exit code 0; all others are usage errors.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      app.exit(e, std::cout, std::cerr);
      std::cout.flush();
      return kExitOk;
    }
    // CLI11 checks required options before it complains about words it did not know; a
    // misspelt flag is the more useful message (`--conect x` rather than "--connect is
    // required").
    if (std::vector<std::string> extras = app.remaining(/*recurse=*/true); !extras.empty()) {
      app.exit(CLI::ExtrasError(extras), std::cout, std::cerr);
    } else {
      app.exit(e, std::cout, std::cerr);
    }
    return kExitUsage;
  } catch (const CLI::Error& e) {  // e.g. an option defined twice: a bug in the command
    std::cerr << app.get_name() << ": " << e.what() << "\n";
    return kExitFailed;
  }
}

int UsageError(const CLI::App& app, const std::string& message) {
  std::cerr << FailureMessage(&app, CLI::ValidationError(message));
  return kExitUsage;
}

CLI::Validator IntAtLeast(long long lo) {
  return CLI::Validator(
      [lo](std::string& s) -> std::string {
        long long v = 0;
        if (absl::SimpleAtoi(s, &v) && v >= lo) return "";
        return "needs an integer >= " + std::to_string(lo) + ", got '" + s + "'";
      },
      "INT>=" + std::to_string(lo));
}

CLI::Validator PositiveNumber() { return NumberAbove(0, false, "a number > 0"); }
CLI::Validator NonNegativeNumber() { return NumberAbove(0, true, "a number >= 0"); }

}  // namespace tg
