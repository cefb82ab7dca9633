/*===- crosslane-vx-float16.c - half and bfloat16 conversions for rv32 ----===*
 *
 * Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
 *
 *===----------------------------------------------------------------------===*
 *
 * The conversions LLVM's RISC-V back end calls for _Float16 and __bf16 on a
 * core without Zfh/Zfbfmin (Vortex: rv32imf), which Debian's rv32 libgcc
 * (GCC 12) does not have: __extendhfsf2, __truncsfhf2, __truncsfbf2 (the
 * bf16 -> f32 extension is a shift LLVM emits inline). crosslane-hipcc
 * --target=vortex links this file into every device image. IEEE 754
 * binary16 and bfloat16, round to nearest even, NaNs quieted with their
 * leading payload bits kept.
 *
 *===----------------------------------------------------------------------===*/

typedef unsigned int u32;
typedef unsigned short u16;

static u32 bitsOf(float F) {
  u32 U;
  __builtin_memcpy(&U, &F, 4);
  return U;
}

static float floatOf(u32 U) {
  float F;
  __builtin_memcpy(&F, &U, 4);
  return F;
}

float __extendhfsf2(_Float16 H) {
  u16 B;
  __builtin_memcpy(&B, &H, 2);
  u32 S = (u32)(B & 0x8000) << 16, E = (B >> 10) & 0x1f, M = B & 0x3ff;
  if (E == 0x1f) /* infinity, NaN (quieted) */
    return floatOf(S | 0x7f800000 | (M << 13) | (M ? 0x400000 : 0));
  if (E == 0) {
    if (!M)
      return floatOf(S);
    /* Subnormal: M * 2^-24; normalise so that bit 10 is the leading one. */
    E = 113;
    while (!(M & 0x400)) {
      M <<= 1;
      --E;
    }
    return floatOf(S | (E << 23) | ((M & 0x3ff) << 13));
  }
  return floatOf(S | ((E + 112) << 23) | (M << 13));
}

_Float16 __truncsfhf2(float F) {
  u32 U = bitsOf(F), A = U & 0x7fffffff;
  u16 R = (u16)((U >> 16) & 0x8000);
  if (A > 0x7f800000) /* NaN */
    R |= 0x7e00 | ((A >> 13) & 0x3ff);
  else if (A >= 0x477ff000) /* 65520 and up round to infinity */
    R |= 0x7c00;
  else if (A >= 0x38800000) /* normal: 2^-14 and up */
    R |= (u16)((A + 0xfff + ((A >> 13) & 1) - 0x38000000) >> 13);
  else if (A > 0x33000000) { /* subnormal: above 2^-25 */
    u32 E = A >> 23, Mant = (A & 0x7fffff) | 0x800000, Shift = 126 - E;
    u32 Q = Mant >> Shift, Rem = Mant & ((1u << Shift) - 1);
    u32 Half = 1u << (Shift - 1);
    if (Rem > Half || (Rem == Half && (Q & 1)))
      ++Q;
    R |= (u16)Q;
  }
  _Float16 H;
  __builtin_memcpy(&H, &R, 2);
  return H;
}

__bf16 __truncsfbf2(float F) {
  u32 U = bitsOf(F);
  u16 R = (U & 0x7fffffff) > 0x7f800000
              ? (u16)((U >> 16) | 0x40)
              : (u16)((U + 0x7fff + ((U >> 16) & 1)) >> 16);
  __bf16 B;
  __builtin_memcpy(&B, &R, 2);
  return B;
}
