// OpenCL math built-ins the Xe model runs (test/Xe/opencl-math.test): each
// work-item i takes v = i / 4 - 3 (-3 .. 4.75) and n = i - 16.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void math(global const float *X, global float *F, global int *I,
                 global uint *U) {
  int Id = get_global_id(0);
  float V = X[Id] * 0.25f - 3.0f;
  global float *Row = F + Id * 10;
  Row[0] = sqrt(fabs(V));
  Row[1] = exp(V);
  Row[2] = fmax(V, 0.5f);
  Row[3] = fmin(V, -1.0f);
  Row[4] = mad(V, 2.0f, 1.0f);
  Row[5] = clamp(V, -1.0f, 1.0f);
  Row[6] = native_recip(V + 10.0f);
  Row[7] = max(V, 1.0f);
  Row[8] = native_divide(V, 3.0f);
  Row[9] = fma(V, V, -V);
  int N = Id - 16;
  I[Id * 4] = min(N, 3);
  I[Id * 4 + 1] = max(N, -5);
  I[Id * 4 + 2] = clamp(N, -4, 4);
  U[Id * 2] = abs(N);
  U[Id * 2 + 1] = max((uint)N, 5u);
}

// Vector forms (a scalar operand applies to every element), dot, mix, and
// vloadN/vstoreN: work-item i loads X[4i .. 4i+3] (iota: 4i .. 4i+3) as w.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void vectors(global const float *X, global float *F) {
  int Id = get_global_id(0);
  float4 W = vload4(Id, X) * 0.125f - 2.0f;
  vstore4(fmax(W, 0.25f), Id * 4, F);
  vstore4(sqrt(fabs(W)), Id * 4 + 1, F);
  vstore4(clamp(W, -1.0f, 1.0f), Id * 4 + 2, F);
  vstore4(mix(W, (float4)(1.0f), 0.25f), Id * 4 + 3, F);
  F[512 + Id] = dot(W, (float4)(1.0f, 2.0f, 3.0f, 4.0f));
  float2 V = vload2(0, X + Id * 4 + 1);
  F[544 + Id] = dot(V, V);
}

// Conversions: work-item i takes x = i * 0.75 - 12 (-12 .. 11.25) and
// n = (i - 16) * 1000.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void conversions(global const float *X, global int *I,
                        global float *F) {
  int Id = get_global_id(0);
  float V = X[Id] * 0.75f - 12.0f;
  int N = (Id - 16) * 1000;
  global int *Row = I + Id * 8;
  Row[0] = convert_int(V);
  Row[1] = convert_int_rte(V);
  Row[2] = convert_int_rtp(V);
  Row[3] = convert_int_rtn(V);
  Row[4] = convert_uchar_sat(V * 30.0f);
  Row[5] = convert_char(N);
  Row[6] = convert_short_sat(N * 40);
  Row[7] = convert_uint_sat(V);
  int2 P = convert_int2_sat((float2)(V * 1e9f, -V * 1e9f));
  F[Id * 3] = convert_float(N + 7);
  F[Id * 3 + 1] = (float)P.x;
  F[Id * 3 + 2] = convert_float(convert_uchar(N));
}

// powr is defined for x >= 0 only: NaN for x < 0, 0 ** 0, inf ** 0 and
// 1 ** inf (unlike pow). A float3 store writes 4 elements, the fourth
// clang's undefined padding (not an error).
__attribute__((intel_reqd_sub_group_size(16)))
kernel void edges(global float *P, global float3 *V) {
  int Id = get_global_id(0);
  float Inf = INFINITY;
  float X[8] = {-2.0f, 0.0f, Inf, 1.0f, -0.0f, 4.0f, 2.0f, 0.0f};
  float Y[8] = {3.0f, 0.0f, 0.0f, Inf, -1.0f, 0.5f, 10.0f, 2.0f};
  if (Id < 8)
    P[Id] = powr(X[Id], Y[Id]);
  V[Id] = (float3)(Id, Id * 2, Id * 3);
}

// Integer functions on vectors and scalars, relational and geometric
// functions: work-item i takes n = (i - 16) * 7, a = (n, -n, 2n, 100),
// f = i / 4 - 3 and g = (f, 1, -2, 0.5f).
__attribute__((intel_reqd_sub_group_size(16)))
kernel void more(global const float *X, global int *I, global uint *U,
                 global float *F) {
  int Id = get_global_id(0);
  int N = (Id - 16) * 7;
  int4 A = (int4)(N, -N, 2 * N, 100);
  int4 B = (int4)(3, 3, -40, 200);
  global int *Ri = I + Id * 16;
  vstore4(max(A, B), 0, Ri);
  vstore4(clamp(A, -20, 20), 1, Ri);
  vstore4(as_int4(abs_diff(A, B)), 2, Ri);
  vstore4(add_sat(A * 30000000, B * 30000000), 3, Ri);
  uint M = (uint)N * 2654435761u;
  global uint *Ru = U + Id * 8;
  Ru[0] = popcount(M);
  Ru[1] = clz(M);
  Ru[2] = ctz(M);
  Ru[3] = rotate(M, (uint)Id);
  Ru[4] = mul_hi(M, 3000000000u);
  Ru[5] = (uint)mul_hi(N, -2000000000);
  Ru[6] = hadd(M, 4000000000u);
  Ru[7] = (uint)rhadd(N, 3);
  float V = X[Id] * 0.25f - 3.0f;
  float4 G = (float4)(V, 1.0f, -2.0f, 0.5f);
  global float *Rf = F + Id * 12;
  Rf[0] = length(G);
  Rf[1] = distance(G, (float4)(1.0f));
  vstore4(normalize(G), 0, Rf + 4);
  vstore4(cross(G, (float4)(0.5f, -1.0f, 2.0f, 0.0f)), 0, Rf + 8);
  int4 L = isless(G, (float4)(0.0f)) | (isnan(G / V) & 16);
  Rf[2] = select(1.0f, 2.0f, any(L)) + (float)all(L) + (float)isgreater(V, 1.0f) * 4;
  Rf[3] = dot(convert_float4(select((int4)(1), (int4)(5), L)), (float4)(1.0f));
}

// More math: work-item i takes v = i / 4 - 3 and n = i - 16.
__attribute__((intel_reqd_sub_group_size(16)))
kernel void extra(global const float *X, global float *F) {
  int Id = get_global_id(0);
  float V = X[Id] * 0.25f - 3.0f;
  int N = Id - 16;
  global float *Row = F + Id * 12;
  Row[0] = ldexp(V, N);
  Row[1] = pown(V, N % 5);
  Row[2] = rootn(V * V * V, 3);
  Row[3] = sign(V);
  Row[4] = maxmag(V, -1.5f);
  Row[5] = minmag(V, -1.5f);
  Row[6] = step(0.5f, V);
  Row[7] = smoothstep(-2.0f, 2.0f, V);
  Row[8] = degrees(V);
  Row[9] = atanh(V * 0.2f);
  Row[10] = sinpi(V);
  float4 W = ldexp((float4)(V), (int4)(1, 2, N, -N));
  Row[11] = W.x + W.y + W.z * 0.0f + W.w * 0.0f;
}
