// Conversions to floating point with a rounding mode the Xe model runs
// (test/Xe/opencl-convert.test): work-item g converts element g of each
// source (int, uint, long, ulong, double) to float in the default mode and
// with _rte, _rtz, _rtp and _rtn, into regions of N floats; then vector
// forms, and long and ulong to double. Sources hold 8 N elements.
#define MODES(TY, SRC, OUT)                                                    \
  OUT[G] = convert_##TY(SRC[G]);                                               \
  OUT[N + G] = convert_##TY##_rte(SRC[G]);                                     \
  OUT[2 * N + G] = convert_##TY##_rtz(SRC[G]);                                 \
  OUT[3 * N + G] = convert_##TY##_rtp(SRC[G]);                                 \
  OUT[4 * N + G] = convert_##TY##_rtn(SRC[G]);

kernel void to_float(global const int *I, global const uint *U,
                     global const long *L, global const ulong *UL,
                     global const double *D, global float *F,
                     global double *DD) {
  size_t G = get_global_id(0), N = get_global_size(0);
  MODES(float, I, F)
  MODES(float, U, (F + 5 * N))
  MODES(float, L, (F + 10 * N))
  MODES(float, UL, (F + 15 * N))
  MODES(float, D, (F + 20 * N))
  vstore4(convert_float4_rtp(vload4(G, I)), G, F + 25 * N);
  vstore2(convert_float2_rtn(vload2(G, UL)), G, F + 29 * N);
  vstore8(convert_float8_rtz(vload8(G, D)), G, F + 31 * N);
  vstore3(convert_float3_rtn(vload3(G, L)), G, F + 39 * N);
  MODES(double, L, DD)
  MODES(double, UL, (DD + 5 * N))
}
