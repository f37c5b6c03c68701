; A stand-in for CUDA's libdevice (libdevice-link.cu): always-inline
; functions whose bodies are not what they compute (the real ones use bit
; tricks Slope could not differentiate), so a derivative through the body
; instead of the rule would be visibly wrong.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define double @__nv_sin(double %x) #0 {
  %y = fmul double %x, 0.5
  ret double %y
}

define double @__nv_cos(double %x) #0 {
  %y = fmul double %x, 0.25
  ret double %y
}

attributes #0 = { alwaysinline }
