// XeGPU tile copies at offsets given at run time, across the surface's
// edges and before its start (test/Xe/mlir-xegpu-exec.test): an 8 x 16
// f32 tile, two 8 x 16 f16 blocks loaded at once (array_length 2) and
// stored one by one, a 16 x 8 f32 tile loaded transposed and stored as
// 8 x 16, and a 16 x 16 f16 VNNI fragment dumped lane after lane.
module @m attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copy32(%in: memref<40x48xf32>, %out: memref<40x48xf32>, %sy: index, %sx: index, %dy: index, %dx: index) kernel {
      %ti = xegpu.create_nd_tdesc %in : memref<40x48xf32> -> !xegpu.tensor_desc<8x16xf32>
      %to = xegpu.create_nd_tdesc %out : memref<40x48xf32> -> !xegpu.tensor_desc<8x16xf32>
      %v = xegpu.load_nd %ti[%sy, %sx] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
      xegpu.store_nd %v, %to[%dy, %dx] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
    gpu.func @copy16x2(%in: memref<40x64xf16>, %out: memref<40x64xf16>, %sy: index, %sx: index, %dy: index, %dx: index) kernel {
      %c16 = arith.constant 16 : index
      %ti = xegpu.create_nd_tdesc %in : memref<40x64xf16> -> !xegpu.tensor_desc<8x16xf16, #xegpu.block_tdesc_attr<array_length = 2>>
      %to = xegpu.create_nd_tdesc %out : memref<40x64xf16> -> !xegpu.tensor_desc<8x16xf16>
      %v = xegpu.load_nd %ti[%sy, %sx] : !xegpu.tensor_desc<8x16xf16, #xegpu.block_tdesc_attr<array_length = 2>> -> vector<16xf16>
      %v0 = vector.extract_strided_slice %v {offsets = [0], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
      %v1 = vector.extract_strided_slice %v {offsets = [8], sizes = [8], strides = [1]} : vector<16xf16> to vector<8xf16>
      %dx1 = arith.addi %dx, %c16 : index
      xegpu.store_nd %v0, %to[%dy, %dx] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
      xegpu.store_nd %v1, %to[%dy, %dx1] : vector<8xf16>, !xegpu.tensor_desc<8x16xf16>
      gpu.return
    }
    gpu.func @transpose32(%in: memref<40x48xf32>, %out: memref<40x48xf32>, %sy: index, %sx: index, %dy: index, %dx: index) kernel {
      %ti = xegpu.create_nd_tdesc %in : memref<40x48xf32> -> !xegpu.tensor_desc<16x8xf32>
      %to = xegpu.create_nd_tdesc %out : memref<40x48xf32> -> !xegpu.tensor_desc<8x16xf32>
      %v = xegpu.load_nd %ti[%sy, %sx] <{transpose = array<i64: 1, 0>}> : !xegpu.tensor_desc<16x8xf32> -> vector<8xf32>
      xegpu.store_nd %v, %to[%dy, %dx] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
    gpu.func @vnni16(%in: memref<40x64xf16>, %frag: memref<256xf16>, %sy: index, %sx: index) kernel {
      %c16 = arith.constant 16 : index
      %ti = xegpu.create_nd_tdesc %in : memref<40x64xf16> -> !xegpu.tensor_desc<16x16xf16>
      %v = xegpu.load_nd %ti[%sy, %sx] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
      %lane = gpu.lane_id
      %at = arith.muli %lane, %c16 : index
      vector.store %v, %frag[%at] : memref<256xf16>, vector<16xf16>
      gpu.return
    }
  }
}
