// Math built-ins with a pointer out-parameter the Xe model runs
// (test/Xe/opencl-outptr.test): fract, modf, frexp, sincos, remquo and
// lgamma_r on float and double scalars and vectors, the pointer global,
// local or private (generic at CL3.0). X and Y hold 4 N floats, XD and YD
// 2 N doubles; R, I, RD and ID receive the results region by region.
kernel void outptr(global const float *X, global const float *Y,
                   global const double *XD, global const double *YD,
                   global float *R, global int *I, global double *RD,
                   global int *ID) {
  size_t G = get_global_id(0), N = get_global_size(0), L = get_local_id(0);
  float A = X[G], B = Y[G];
  // Global pointers.
  R[G] = fract(A, R + N + G);
  R[2 * N + G] = modf(A, R + 3 * N + G);
  R[4 * N + G] = frexp(A, I + G);
  R[5 * N + G] = sincos(A, R + 6 * N + G);
  R[7 * N + G] = remquo(A, B, I + N + G);
  R[8 * N + G] = lgamma_r(A, I + 2 * N + G);
  // Private and local pointers.
  float P;
  int Q;
  local float LF[64];
  local int LI[64];
  R[9 * N + G] = fract(B, &P);
  R[10 * N + G] = P;
  R[11 * N + G] = remquo(B, A, &Q);
  I[3 * N + G] = Q;
  R[12 * N + G] = modf(B, LF + L);
  R[14 * N + G] = frexp(B, LI + L);
  barrier(CLK_LOCAL_MEM_FENCE);
  R[13 * N + G] = LF[L];
  I[4 * N + G] = LI[L];
  // Vectors.
  float4 C4;
  vstore4(sincos(vload4(G, X), &C4), G, R + 15 * N);
  vstore4(C4, G, R + 19 * N);
  int4 E4;
  vstore4(frexp(vload4(G, Y), &E4), G, R + 23 * N);
  vstore4(E4, G, I + 5 * N);
  float3 F3;
  vstore3(fract(vload3(G, Y), &F3), G, R + 27 * N);
  vstore3(F3, G, R + 30 * N);
  int2 Q2;
  vstore2(remquo(vload2(G, X), vload2(G, Y), &Q2), G, R + 33 * N);
  vstore2(Q2, G, I + 9 * N);
  int2 S2;
  vstore2(lgamma_r(vload2(G, Y), &S2), G, R + 35 * N);
  vstore2(S2, G, I + 11 * N);
  float2 M2;
  vstore2(modf(vload2(G, X), &M2), G, R + 37 * N);
  vstore2(M2, G, R + 39 * N);
  // Doubles.
  double AD = XD[G], BD = YD[G];
  RD[G] = fract(AD, RD + N + G);
  RD[2 * N + G] = modf(AD, RD + 3 * N + G);
  RD[4 * N + G] = frexp(AD, ID + G);
  RD[5 * N + G] = sincos(AD, RD + 6 * N + G);
  RD[7 * N + G] = remquo(AD, BD, ID + N + G);
  RD[8 * N + G] = lgamma_r(AD, ID + 2 * N + G);
  int2 QD;
  vstore2(remquo(vload2(G, XD), vload2(G, YD), &QD), G, RD + 9 * N);
  vstore2(QD, G, ID + 3 * N);
}
