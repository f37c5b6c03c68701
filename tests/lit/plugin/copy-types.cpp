// The plugin marks each memcpy/memmove written in the source with the
// layout of the elements its typed pointers point to (!slope.record: the
// record size, then offset and bits of each floating-point field, then
// the offsets of pointer fields), exactly at its line and column; a copy
// of bytes (char) and a union stay unmarked.
// RUN: %clangxx -std=c++17 -O0 -fplugin=%slope_plugin -I%include -S -emit-llvm %s -o - | FileCheck %s
#include <cstring>

struct Sample {
  double t;
  int id;
  float w;
  double *history;
};
union Bits {
  long i;
  double d;
};

// CHECK-LABEL: define {{.*}}@_Z11copySamplesP6SamplePKS_i(
// CHECK: call void @llvm.memmove{{.*}}, !slope.record ![[SAMPLE:[0-9]+]]
void copySamples(Sample *to, const Sample *from, int n) {
  __builtin_memmove(to, from, n * sizeof(Sample));
}

// CHECK-LABEL: define {{.*}}@_Z5bytesPcPKci(
// CHECK-NOT: !slope.record
// CHECK: ret void
void bytes(char *to, const char *from, int n) { std::memcpy(to, from, n); }

// CHECK-LABEL: define {{.*}}@_Z8copyBitsP4BitsPKS_(
// CHECK-NOT: !slope.record
// CHECK: ret void
void copyBits(Bits *to, const Bits *from) { std::memcpy(to, from, 16); }

// CHECK: ![[SAMPLE]] = !{i64 24, ![[FLOATS:[0-9]+]], ![[POINTERS:[0-9]+]]}
// CHECK-DAG: ![[FLOATS]] = !{i64 0, i64 64, i64 12, i64 32}
// CHECK-DAG: ![[POINTERS]] = !{i64 16}
