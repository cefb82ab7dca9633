// XeGPU at lane level (each op already holds one work-item's fragment),
// written for the executor test test/Xe/mlir-xegpu-exec.test: C += A x B
// for 64 x 64 f16 matrices, one 8 x 16 C tile per subgroup, K in steps of
// 16 (an 8 x 16 A tile, a 16 x 16 VNNI-packed B tile, one DPAS per step).
module @m attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @gemm(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %bx, %c8 : index
      %col = arith.muli %by, %c16 : index
      %tc = xegpu.create_nd_tdesc %c : memref<64x64xf32> -> !xegpu.tensor_desc<8x16xf32>
      %acc0 = xegpu.load_nd %tc[%row, %col] : !xegpu.tensor_desc<8x16xf32> -> vector<8xf32>
      %ta = xegpu.create_nd_tdesc %a : memref<64x64xf16> -> !xegpu.tensor_desc<8x16xf16>
      %tb = xegpu.create_nd_tdesc %b : memref<64x64xf16> -> !xegpu.tensor_desc<16x16xf16>
      %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %acc0) -> (vector<8xf32>) {
        %va = xegpu.load_nd %ta[%row, %k] : !xegpu.tensor_desc<8x16xf16> -> vector<8xf16>
        %vb = xegpu.load_nd %tb[%k, %col] <{packed}> : !xegpu.tensor_desc<16x16xf16> -> vector<16xf16>
        %d = xegpu.dpas %va, %vb, %acc : vector<8xf16>, vector<16xf16>, vector<8xf32> -> vector<8xf32>
        scf.yield %d : vector<8xf32>
      }
      xegpu.store_nd %r, %tc[%row, %col] : vector<8xf32>, !xegpu.tensor_desc<8x16xf32>
      gpu.return
    }
  }
}
