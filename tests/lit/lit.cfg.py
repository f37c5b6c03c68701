import os

import lit.formats

config.name = "Slope"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll", ".c", ".cpp", ".cu"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.slope_binary_dir, "tests", "lit")

tools = config.llvm_tools_dir
config.substitutions.append(("%opt", os.path.join(tools, "opt")))
config.substitutions.append(("%clangxx", os.path.join(tools, "clang++")))
config.substitutions.append(("%clang", os.path.join(tools, "clang")))
config.substitutions.append(("%lli", os.path.join(tools, "lli")))
config.substitutions.append(("%llc", os.path.join(tools, "llc")))
config.substitutions.append(("%llvm_as", os.path.join(tools, "llvm-as")))
config.substitutions.append(("%slope_pass", config.slope_pass))
config.substitutions.append(("%slope_plugin", config.slope_plugin))
config.substitutions.append(
    ("%slope_check", os.path.join(config.slope_binary_dir, "bin", "slope-check")))
config.substitutions.append(
    ("%include", os.path.join(config.slope_source_dir, "include")))
config.environment["PATH"] = os.pathsep.join(
    [tools, config.environment.get("PATH", "")])
if config.mpi_include:
    config.available_features.add("mpi")
    config.substitutions.append(("%mpi_include", config.mpi_include))
if config.gxx and not config.gxx.endswith("NOTFOUND"):
    config.available_features.add("gxx")
    config.substitutions.append(("%gxx", config.gxx))

# CUDA's assembler, when installed, must accept the PTX of derivatives.
ptxas = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin",
                     "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# clangd (editors) must index code that uses Slope.
import shutil
clangd = shutil.which("clangd-19")
if clangd:
    config.available_features.add("clangd")
    config.substitutions.append(("%clangd", clangd))
