// Checks tools/crosslane-vx-float16.c on the host (its functions renamed
// vx_extendhfsf2, vx_truncsfhf2, vx_truncsfbf2): every binary16 value
// extended, and every STRIDE-th float truncated to binary16 and bfloat16,
// against the host compiler's _Float16 conversions and a nearest-even
// bfloat16 reference computed in double. NaNs must stay NaNs.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

float vx_extendhfsf2(_Float16);
_Float16 vx_truncsfhf2(float);
__bf16 vx_truncsfbf2(float);

static int isNaN16(unsigned short B) {
  return (B & 0x7c00) == 0x7c00 && (B & 0x3ff);
}

// Nearest-even bfloat16 of the float with bits U (not NaN).
static unsigned short bf16Reference(unsigned U) {
  if ((U & 0x7fffffff) == 0x7f800000)
    return U >> 16;
  unsigned Lo = U & 0xffff0000u, Hi = Lo + 0x10000u;
  float F, FL, FH;
  memcpy(&F, &U, 4);
  memcpy(&FL, &Lo, 4);
  memcpy(&FH, &Hi, 4);
  // Past the largest finite value the upper neighbour is 2^128.
  double DH = (Hi & 0x7fffffff) == 0x7f800000 ? ((U >> 31) ? -0x1p128 : 0x1p128)
                                              : (double)FH;
  double DL = (double)F - (double)FL, DU = DH - (double)F;
  if (DL < 0)
    DL = -DL;
  if (DU < 0)
    DU = -DU;
  return ((DL < DU || (DL == DU && !((Lo >> 16) & 1))) ? Lo : Hi) >> 16;
}

int main(int Argc, char **Argv) {
  unsigned long long Stride = Argc > 1 ? strtoull(Argv[1], 0, 0) : 997;
  long Bad = 0, Checked = 0;
  for (unsigned I = 0; I < 65536; ++I, ++Checked) {
    unsigned short B = I;
    _Float16 H;
    memcpy(&H, &B, 2);
    float A = vx_extendhfsf2(H), R = (float)H;
    unsigned UA, UR;
    memcpy(&UA, &A, 4);
    memcpy(&UR, &R, 4);
    if (UA != UR && !(isNaN16(B) && A != A && R != R) && Bad++ < 5)
      printf("extend %04x: %08x, want %08x\n", B, UA, UR);
  }
  for (unsigned long long I = 0; I <= 0xffffffffull; I += Stride, ++Checked) {
    unsigned U = I;
    float F;
    memcpy(&F, &U, 4);
    _Float16 A = vx_truncsfhf2(F), R = (_Float16)F;
    unsigned short BA, BR;
    memcpy(&BA, &A, 2);
    memcpy(&BR, &R, 2);
    if (BA != BR && !(F != F && isNaN16(BA) && isNaN16(BR)) && Bad++ < 10)
      printf("trunc f16 %08x: %04x, want %04x\n", U, BA, BR);
    __bf16 X = vx_truncsfbf2(F);
    memcpy(&BA, &X, 2);
    int NaNOk = F != F && (BA & 0x7f80) == 0x7f80 && (BA & 0x7f);
    if (!NaNOk && (F != F || BA != bf16Reference(U)) && Bad++ < 15)
      printf("trunc bf16 %08x: %04x, want %04x\n", U, BA, bf16Reference(U));
  }
  printf("%ld values, %ld wrong\n", Checked, Bad);
  return Bad != 0;
}
