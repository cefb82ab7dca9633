// Structs passed by value to kernels, in every way the RISC-V calling
// convention passes them (one register, two flattened registers, a pointer
// to a copy), with host layouts that differ (8-byte pointers and `long` on
// the x86-64 host): the runtime copies them field by field.
#include "check.h"
#include <vector>

struct Span { float *Data; int Size; long Stride; };
struct Pair { float A; int B; };
struct Two { int A, B; };
struct Big { double D[3]; char C; };
struct WithPtr { int *P; };
struct Mixed { char C; short S; float F; long L; float *P; unsigned long long U; };
enum Mode { ModeA = 3, ModeB = 7 };

__global__ void structs(Span S, Pair P, Two T, Big G, WithPtr W, Mixed M,
                        Mode Md, double *Out) {
  if (threadIdx.x != 0 || blockIdx.x != 0)
    return;
  Out[0] = S.Data[1] + S.Size + S.Stride;
  Out[1] = P.A + P.B;
  Out[2] = T.A * 10 + T.B;
  Out[3] = G.D[0] + G.D[1] + G.D[2] + G.C;
  Out[4] = W.P[2];
  Out[5] = M.C + M.S + M.F + M.L + M.P[0] + (double)M.U;
  Out[6] = Md;
  G.D[0] = -1; // the callee may write its copy; later CTAs see the original
  Out[7] = G.D[0];
}

int main() {
  float HF[4] = {1.5f, 2.5f, 3.5f, 4.5f};
  int HI[4] = {5, 6, 7, 8};
  float *DF;
  int *DI;
  double *DOut;
  HIP_CHECK(hipMalloc(&DF, sizeof(HF)));
  HIP_CHECK(hipMalloc(&DI, sizeof(HI)));
  HIP_CHECK(hipMalloc(&DOut, 8 * sizeof(double)));
  HIP_CHECK(hipMemcpy(DF, HF, sizeof(HF), hipMemcpyHostToDevice));
  HIP_CHECK(hipMemcpy(DI, HI, sizeof(HI), hipMemcpyHostToDevice));
  Span S{DF, 40, -300};
  Pair P{0.25f, 9};
  Two T{4, 2};
  Big G{{1.0, 2.0, 4.0}, 'a'};
  WithPtr W{DI};
  Mixed M{'b', -12, 0.5f, 1000000, DF + 3, 1ull << 40};
  structs<<<2, 4>>>(S, P, T, G, W, M, ModeB, DOut);
  double Out[8];
  HIP_CHECK(hipMemcpy(Out, DOut, sizeof(Out), hipMemcpyDeviceToHost));
  double Want[8] = {2.5 + 40 - 300, 9.25, 42, 7.0 + 'a', 7,
                    'b' - 12 + 0.5 + 1000000 + 4.5 + (double)(1ull << 40), 7, -1};
  long Bad = 0;
  for (int I = 0; I < 8; ++I)
    if (Out[I] != Want[I]) {
      std::printf("field %d: %f, want %f\n", I, Out[I], Want[I]);
      ++Bad;
    }
  return verdict("structs", Bad, 8);
}
