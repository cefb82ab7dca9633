// The floating-point built-ins the Xe model runs on bit patterns
// (test/Xe/opencl-fpbits.test): nextafter, ilogb, logb and nan on half,
// float and double scalars and vectors. Every input buffer holds 16 N
// elements (bit patterns: uint for float, ulong for double, ushort for
// half; CU, CL and CH hold nan's codes); a vector form of n elements reads
// elements [n G, n G + n), so each form sees the first n N of them. RF,
// RI, RD and RH receive the results region by region (as bit patterns).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void fpbits(global const uint *XF, global const uint *YF,
                   global const ulong *XD, global const ulong *YD,
                   global const ushort *XH, global const ushort *YH,
                   global const uint *CU, global const ulong *CL,
                   global const ushort *CH, global uint *RF, global int *RI,
                   global ulong *RD, global ushort *RH) {
  size_t G = get_global_id(0), N = get_global_size(0);
  // float
  RF[G] = as_uint(nextafter(as_float(XF[G]), as_float(YF[G])));
  vstore4(as_uint4(nextafter(as_float4(vload4(G, XF)),
                             as_float4(vload4(G, YF)))),
          G, RF + N);
  vstore16(as_uint16(nextafter(as_float16(vload16(G, XF)),
                               as_float16(vload16(G, YF)))),
           G, RF + 5 * N);
  RF[21 * N + G] = as_uint(logb(as_float(XF[G])));
  vstore8(as_uint8(logb(as_float8(vload8(G, XF)))), G, RF + 22 * N);
  RF[30 * N + G] = as_uint(nan(CU[G]));
  vstore8(as_uint8(nan(vload8(G, CU))), G, RF + 31 * N);
  RI[G] = ilogb(as_float(XF[G]));
  vstore16(ilogb(as_float16(vload16(G, XF))), G, RI + N);
  // double
  RI[17 * N + G] = ilogb(as_double(XD[G]));
  vstore4(ilogb(as_double4(vload4(G, XD))), G, RI + 18 * N);
  RD[G] = as_ulong(nextafter(as_double(XD[G]), as_double(YD[G])));
  vstore2(as_ulong2(nextafter(as_double2(vload2(G, XD)),
                              as_double2(vload2(G, YD)))),
          G, RD + N);
  vstore8(as_ulong8(nextafter(as_double8(vload8(G, XD)),
                              as_double8(vload8(G, YD)))),
          G, RD + 3 * N);
  RD[11 * N + G] = as_ulong(logb(as_double(XD[G])));
  RD[12 * N + G] = as_ulong(nan(CL[G]));
  vstore4(as_ulong4(nan(vload4(G, CL))), G, RD + 13 * N);
  // half
  RI[22 * N + G] = ilogb(as_half(XH[G]));
  vstore8(ilogb(as_half8(vload8(G, XH))), G, RI + 23 * N);
  RH[G] = as_ushort(nextafter(as_half(XH[G]), as_half(YH[G])));
  vstore16(as_ushort16(nextafter(as_half16(vload16(G, XH)),
                                 as_half16(vload16(G, YH)))),
           G, RH + N);
  RH[17 * N + G] = as_ushort(nan(CH[G]));
  vstore2(as_ushort2(nan(vload2(G, CH))), G, RH + 18 * N);
  RH[20 * N + G] = as_ushort(logb(as_half(XH[G])));
}
