// XeGPU at subgroup level (whole tiles; MLIR assigns the lane layouts and
// distributes them): C += A x B for 64 x 64 bf16 matrices with a prefetch
// of each A tile (test/Xe/mlir-xegpu-exec.test).
module @m attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @gemm_sg(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %bx, %c8 : index
      %col = arith.muli %by, %c16 : index
      %tc = xegpu.create_nd_tdesc %c : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32>
      %ta = xegpu.create_nd_tdesc %a : memref<64x64xbf16> -> !xegpu.tensor_desc<8x16xbf16>
      %tb = xegpu.create_nd_tdesc %b : memref<64x64xbf16> -> !xegpu.tensor_desc<16x16xbf16>
      %acc0 = xegpu.load_nd %tc[%row, %col] : !xegpu.tensor_desc<8x16xf32> -> vector<8x16xf32>
      %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %acc0) -> (vector<8x16xf32>) {
        xegpu.prefetch_nd %ta[%row, %k] <{l1_hint = #xegpu.cache_hint<cached>}> : !xegpu.tensor_desc<8x16xbf16>
        %va = xegpu.load_nd %ta[%row, %k] : !xegpu.tensor_desc<8x16xbf16> -> vector<8x16xbf16>
        %vb = xegpu.load_nd %tb[%k, %col] : !xegpu.tensor_desc<16x16xbf16> -> vector<16x16xbf16>
        %d = xegpu.dpas %va, %vb, %acc : vector<8x16xbf16>, vector<16x16xbf16>, vector<8x16xf32> -> vector<8x16xf32>
        scf.yield %d : vector<8x16xf32>
      }
      xegpu.store_nd %r, %tc[%row, %col] : vector<8x16xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }
}
