// mad_sat and upsample as the Xe model runs them
// (test/Xe/opencl-intsat.test), on every integer width, signed and
// unsigned, scalars and vectors. A*, B*, C* hold 16 N bit patterns of 8,
// 16, 32 and 64 bits; a vector form of n elements reads elements
// [n G, n G + n), so each form sees the first n N of them. M* receive
// mad_sat's results region by region, U* upsample's (of twice the width).
#define MAD(T, UT, K, VN, A, B, C, R)                                          \
  R[K * N + G] = as_##UT(mad_sat(as_##T(A[G]), as_##T(B[G]), as_##T(C[G])));  \
  vstore##VN(as_##UT##VN(mad_sat(as_##T##VN(vload##VN(G, A)),                  \
                                 as_##T##VN(vload##VN(G, B)),                  \
                                 as_##T##VN(vload##VN(G, C)))),                \
             G, R + (K + 1) * N);

#define UP(T, UT, WT, UWT, K, VN, A, B, R)                                     \
  R[K * N + G] = as_##UWT(upsample(as_##T(A[G]), B[G]));                      \
  vstore##VN(as_##UWT##VN(upsample(as_##T##VN(vload##VN(G, A)),                \
                                   vload##VN(G, B))),                          \
             G, R + (K + 1) * N);

kernel void intsat(global const uchar *A8, global const uchar *B8,
                   global const uchar *C8, global const ushort *A16,
                   global const ushort *B16, global const ushort *C16,
                   global const uint *A32, global const uint *B32,
                   global const uint *C32, global const ulong *A64,
                   global const ulong *B64, global const ulong *C64,
                   global uchar *M8, global ushort *M16, global uint *M32,
                   global ulong *M64, global ushort *U16, global uint *U32,
                   global ulong *U64) {
  size_t G = get_global_id(0), N = get_global_size(0);
  // mad_sat: signed scalar [0, N), signed vector [N, ...), then unsigned.
  MAD(char, uchar, 0, 16, A8, B8, C8, M8)
  MAD(uchar, uchar, 17, 2, A8, B8, C8, M8)
  MAD(short, ushort, 0, 8, A16, B16, C16, M16)
  MAD(ushort, ushort, 9, 4, A16, B16, C16, M16)
  MAD(int, uint, 0, 4, A32, B32, C32, M32)
  MAD(uint, uint, 5, 16, A32, B32, C32, M32)
  MAD(long, ulong, 0, 2, A64, B64, C64, M64)
  MAD(ulong, ulong, 3, 8, A64, B64, C64, M64)
  MAD(int, uint, 22, 3, A32, B32, C32, M32)
  // upsample: hi from A, lo (unsigned) from B.
  UP(char, uchar, short, ushort, 0, 8, A8, B8, U16)
  UP(uchar, uchar, ushort, ushort, 9, 16, A8, B8, U16)
  UP(short, ushort, int, uint, 0, 2, A16, B16, U32)
  UP(ushort, ushort, uint, uint, 3, 4, A16, B16, U32)
  UP(int, uint, long, ulong, 0, 16, A32, B32, U64)
  UP(uint, uint, ulong, ulong, 17, 8, A32, B32, U64)
}
