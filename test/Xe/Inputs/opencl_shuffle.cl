// shuffle and shuffle2 as the Xe model runs them
// (test/Xe/opencl-shuffle.test): every element type, sources of 2, 4, 8
// and 16 elements, masks of 2, 4, 8 and 16. Per element size, S* and T*
// hold 16 N source bit patterns, K* 16 N mask elements; a source of n
// elements is elements [n G, n G + n) of S (and T), a mask of m elements
// elements [m G, m G + m) of K. Results go to O* one form after another
// (types in the order below, shuffle's 16 forms then shuffle2's, sources
// of 2 to 16 elements, masks of 2 to 16 within each), m N elements each.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define SH1(T, UT, n, m, S, R, K, O)                                          \
  vstore##m(as_##UT##m(shuffle(as_##T##n(vload##n(G, S)), vload##m(G, K))),   \
            G, O);                                                            \
  O += m * N;
#define SH2(T, UT, n, m, S, R, K, O)                                          \
  vstore##m(as_##UT##m(shuffle2(as_##T##n(vload##n(G, S)),                    \
                                as_##T##n(vload##n(G, R)), vload##m(G, K))),  \
            G, O);                                                            \
  O += m * N;
#define MASKS(F, T, UT, n, ...)                                               \
  F(T, UT, n, 2, __VA_ARGS__) F(T, UT, n, 4, __VA_ARGS__)                      \
  F(T, UT, n, 8, __VA_ARGS__) F(T, UT, n, 16, __VA_ARGS__)
#define SOURCES(F, T, UT, ...)                                                \
  MASKS(F, T, UT, 2, __VA_ARGS__) MASKS(F, T, UT, 4, __VA_ARGS__)              \
  MASKS(F, T, UT, 8, __VA_ARGS__) MASKS(F, T, UT, 16, __VA_ARGS__)
#define BOTH(T, UT, ...)                                                      \
  SOURCES(SH1, T, UT, __VA_ARGS__) SOURCES(SH2, T, UT, __VA_ARGS__)

kernel void shuffles(global const uchar *S8, global const uchar *T8,
                     global const uchar *K8, global const ushort *S16,
                     global const ushort *T16, global const ushort *K16,
                     global const uint *S32, global const uint *T32,
                     global const uint *K32, global const ulong *S64,
                     global const ulong *T64, global const ulong *K64,
                     global uchar *O8, global ushort *O16, global uint *O32,
                     global ulong *O64) {
  size_t G = get_global_id(0), N = get_global_size(0);
  BOTH(char, uchar, S8, T8, K8, O8)
  BOTH(uchar, uchar, S8, T8, K8, O8)
  BOTH(short, ushort, S16, T16, K16, O16)
  BOTH(ushort, ushort, S16, T16, K16, O16)
  BOTH(half, ushort, S16, T16, K16, O16)
  BOTH(int, uint, S32, T32, K32, O32)
  BOTH(uint, uint, S32, T32, K32, O32)
  BOTH(float, uint, S32, T32, K32, O32)
  BOTH(long, ulong, S64, T64, K64, O64)
  BOTH(ulong, ulong, S64, T64, K64, O64)
  BOTH(double, ulong, S64, T64, K64, O64)
}
