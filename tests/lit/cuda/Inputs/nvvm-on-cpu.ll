; CPU counterparts of the NVVM intrinsics and libdevice functions the CUDA
; tests use, each computing exactly what its name says (approximate forms
; exactly), so that device derivatives can run under lli (nvvm-numeric.cu).
define double @cpu.nvvm.sqrt.rn.d(double %x) { %r = call double @llvm.sqrt.f64(double %x)  ret double %r }
define float @cpu.nvvm.sqrt.rn.f(float %x) { %r = call float @llvm.sqrt.f32(float %x)  ret float %r }
define float @cpu.nvvm.sqrt.approx.ftz.f(float %x) { %r = call float @llvm.sqrt.f32(float %x)  ret float %r }
define double @cpu.nvvm.rsqrt.approx.d(double %x) { %s = call double @llvm.sqrt.f64(double %x)  %r = fdiv double 1.0, %s  ret double %r }
define double @cpu.nvvm.rcp.rn.d(double %x) { %r = fdiv double 1.0, %x  ret double %r }
define double @cpu.nvvm.div.rz.d(double %a, double %b) { %r = fdiv double %a, %b  ret double %r }
define double @cpu.nvvm.fma.rn.d(double %a, double %b, double %c) { %r = call double @llvm.fma.f64(double %a, double %b, double %c)  ret double %r }
define double @cpu.nvvm.fmin.d(double %a, double %b) { %r = call double @llvm.minnum.f64(double %a, double %b)  ret double %r }
define double @cpu.nvvm.fmax.d(double %a, double %b) { %r = call double @llvm.maxnum.f64(double %a, double %b)  ret double %r }
define double @cpu.nvvm.fabs.d(double %x) { %r = call double @llvm.fabs.f64(double %x)  ret double %r }
define double @cpu.nvvm.saturate.d(double %x) {
  %lo = call double @llvm.maxnum.f64(double %x, double 0.0)
  %r = call double @llvm.minnum.f64(double %lo, double 1.0)
  ret double %r
}
define double @cpu.nvvm.ex2.approx.d(double %x) { %r = call double @llvm.exp2.f64(double %x)  ret double %r }
define double @cpu.nvvm.lg2.approx.d(double %x) { %r = call double @llvm.log2.f64(double %x)  ret double %r }
define float @cpu.nvvm.ex2.approx.ftz.f(float %x) { %r = call float @llvm.exp2.f32(float %x)  ret float %r }
define float @cpu.nvvm.lg2.approx.f(float %x) { %r = call float @llvm.log2.f32(float %x)  ret float %r }
define float @cpu.nvvm.sin.approx.f(float %x) { %r = call float @llvm.sin.f32(float %x)  ret float %r }
define float @cpu.nvvm.sin.approx.ftz.f(float %x) { %r = call float @llvm.sin.f32(float %x)  ret float %r }
define float @cpu.nvvm.cos.approx.f(float %x) { %r = call float @llvm.cos.f32(float %x)  ret float %r }
define float @cpu.nvvm.cos.approx.ftz.f(float %x) { %r = call float @llvm.cos.f32(float %x)  ret float %r }
define double @__nv_sin(double %x) { %r = call double @llvm.sin.f64(double %x)  ret double %r }
define double @__nv_cos(double %x) { %r = call double @llvm.cos.f64(double %x)  ret double %r }
define double @__nv_log(double %x) { %r = call double @llvm.log.f64(double %x)  ret double %r }
define double @__nv_pow(double %x, double %y) { %r = call double @llvm.pow.f64(double %x, double %y)  ret double %r }
define float @__nv_expf(float %x) { %r = call float @llvm.exp.f32(float %x)  ret float %r }
define i32 @cpu.nvvm.read.ptx.sreg.tid.x() { ret i32 0 }
define void @cpu.nvvm.barrier0() { ret void }
define double @cpu.nvvm.mul.rn.d(double %a, double %b) { %r = fmul double %a, %b  ret double %r }
define double @cpu.nvvm.add.rz.d(double %a, double %b) { %r = fadd double %a, %b  ret double %r }
