// CUDA 13 removed this header, which clang 19's CUDA wrapper still
// includes (run.sh adds this directory only when the toolkit lacks it).
