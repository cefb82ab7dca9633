// Half-precision loads and stores the Xe model runs (test/Xe/opencl-half.test):
// vload_half[N], vloada_halfN, vstore_half[N][_rte|_rtz|_rtp|_rtn] and
// vstorea_halfN[_mode] from float and double, through global, constant,
// local and private pointers. N work-items; F and D hold 16 N values.

// Scalars: work-item g stores F[g] and D[g] in the default mode and the
// four named ones, into regions of N halfs; then vectors of 2, 3 (packed
// and aligned), 4, 8 and 16 elements.
kernel void stores(global const float *F, global const double *D,
                   global half *H, global half *V) {
  size_t G = get_global_id(0), N = get_global_size(0);
  float X = F[G];
  double Y = D[G];
  vstore_half(X, G, H);
  vstore_half_rte(X, G, H + N);
  vstore_half_rtz(X, G, H + 2 * N);
  vstore_half_rtp(X, G, H + 3 * N);
  vstore_half_rtn(X, G, H + 4 * N);
  vstore_half(Y, G, H + 5 * N);
  vstore_half_rte(Y, G, H + 6 * N);
  vstore_half_rtz(Y, G, H + 7 * N);
  vstore_half_rtp(Y, G, H + 8 * N);
  vstore_half_rtn(Y, G, H + 9 * N);
  vstore_half2_rtz(vload2(G, F), G, V);
  vstore_half3_rtp(vload3(G, F), G, V + 2 * N);
  vstorea_half3_rtn(vload3(G, F), G, V + 5 * N);
  vstore_half4(vload4(G, F), G, V + 9 * N);
  vstorea_half8_rte(vload8(G, D), G, V + 13 * N);
  vstore_half16_rtz(vload16(G, D), G, V + 21 * N);
  vstorea_half2_rtn(vload2(G, D), G, V + 37 * N);
  vstore_half3(vload3(G, D), G, V + 39 * N);
}

// Loads: 1, 2, 3 (packed and aligned), 4, 8 and 16 halfs per work-item,
// and one through a constant pointer; each work-item writes 42 floats.
kernel void loads(global const half *P, constant half *K, global float *Out) {
  size_t G = get_global_id(0);
  global float *O = Out + G * 42;
  O[0] = vload_half(G, P);
  vstore2(vload_half2(G, P), 0, O + 1);
  vstore3(vload_half3(G, P), 0, O + 3);
  vstore3(vloada_half3(G, P), 0, O + 6);
  vstore4(vload_half4(G, P), 0, O + 9);
  vstore4(vloada_half4(G, P), 0, O + 13);
  vstore8(vload_half8(G, P), 0, O + 17);
  vstore16(vload_half16(G, P), 0, O + 25);
  O[41] = vload_half(G, K);
}

// Local and private memory: work-item g stores F[g] as half (toward zero)
// into a local array and into a private one and reads both back.
kernel void spaces(global const float *F, global float *Out) {
  // (half is only a storage format without cl_khr_fp16: arrays of ushort.)
  local ushort LocalBits[64 * 4];
  ushort PrivBits[4];
  local half *Buf = (local half *)LocalBits;
  half *Priv = (half *)PrivBits;
  size_t G = get_global_id(0), L = get_local_id(0);
  float4 X = vload4(G, F);
  vstore_half4_rtz(X, L, Buf);
  vstore_half_rtp(X.x, 1, Priv);
  barrier(CLK_LOCAL_MEM_FENCE);
  vstore4(vload_half4(L, Buf), G, Out);
  Out[get_global_size(0) * 4 + G] = vload_half(1, Priv);
}

// An error: a store of a value nobody computed.
kernel void half_poison(global half *H) {
  float Undefined;
  vstore_half(Undefined, get_global_id(0), H);
}
