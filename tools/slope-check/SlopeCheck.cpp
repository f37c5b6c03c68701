//===- SlopeCheck.cpp - Can Slope differentiate this code base? -----------===//
//
// slope-check runs, for each source file of a compilation database, the
// front end and optimizer exactly as a build with the plugin would --
// including Slope's checks and derivative generation -- but writes nothing.
// Every grad/derivative call Slope cannot differentiate is reported with
// the plugin's own diagnostic. Exit status: 0 when all files pass.
//
//   slope-check -p build/ src/a.cpp src/b.cpp
//
//===----------------------------------------------------------------------===//
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"

using namespace clang;
using namespace clang::tooling;

static llvm::cl::OptionCategory Category("slope-check options");
static llvm::cl::extrahelp
    Help("\nslope-check reports every Slope API call that cannot be "
         "differentiated, with the diagnostics the compiler plugin gives, "
         "without building. The plugin is part of this tool: -fplugin "
         "arguments in the compilation database are ignored.\n");

int main(int argc, const char **argv) {
  auto Options = CommonOptionsParser::create(argc, argv, Category);
  if (!Options) {
    llvm::errs() << Options.takeError();
    return 2;
  }
  ClangTool Tool(Options->getCompilations(), Options->getSourcePathList());
  // Slope is linked in; a -fplugin=SlopeClang.so would load it twice.
  Tool.appendArgumentsAdjuster([](const CommandLineArguments &Args, StringRef) {
    CommandLineArguments Kept;
    for (const std::string &Arg : Args)
      if (!StringRef(Arg).starts_with("-fplugin="))
        Kept.push_back(Arg);
    return Kept;
  });
  int Status = Tool.run(newFrontendActionFactory<EmitLLVMOnlyAction>().get());
  llvm::outs() << "slope-check: " << Options->getSourcePathList().size()
               << " file(s), "
               << (Status == 0 ? "all can be differentiated"
                               : "some cannot be differentiated")
               << "\n";
  return Status == 0 ? 0 : 1;
}
