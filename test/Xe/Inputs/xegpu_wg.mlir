// XeGPU at workgroup level (test/Xe/mlir-xegpu-wg.test): whole work-group
// tiles with sg_layout/sg_data layouts; MLIR 22 distributes them to
// subgroups (xegpu-wg-to-sg-distribute), then to lanes, then to XeVM.
//
// add_wg: out = a + b on 64 x 64 f32; a work-group of 2 x 2 subgroups
//   handles a 32 x 64 tile, each subgroup 16 x 32 of it (four 8 x 16
//   block loads per operand).
// gemm_wg: c += a x b on 64 x 64 bf16 (f32 accumulator); a work-group of
//   2 x 2 subgroups computes a 16 x 32 tile of C, each subgroup 8 x 16 of
//   it; a subgroup row shares its A rows, a subgroup column its B columns
//   (sg_data wider than the tile / sg_layout: replicated); K in two steps.
#l = #xegpu.layout<sg_layout = [2, 2], sg_data = [16, 32], inst_data = [8, 16]>
#a = #xegpu.layout<sg_layout = [2, 2], sg_data = [8, 32], inst_data = [8, 16]>
#b = #xegpu.layout<sg_layout = [2, 2], sg_data = [32, 16], inst_data = [16, 16]>
#c = #xegpu.layout<sg_layout = [2, 2], sg_data = [8, 16], inst_data = [8, 16]>
module @m attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @add_wg(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %o: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %row = arith.muli %bx, %c32 : index
      %ta = xegpu.create_nd_tdesc %a : memref<64x64xf32> -> !xegpu.tensor_desc<32x64xf32, #l>
      %tb = xegpu.create_nd_tdesc %b : memref<64x64xf32> -> !xegpu.tensor_desc<32x64xf32, #l>
      %to = xegpu.create_nd_tdesc %o : memref<64x64xf32> -> !xegpu.tensor_desc<32x64xf32, #l>
      %va = xegpu.load_nd %ta[%row, %c0] : !xegpu.tensor_desc<32x64xf32, #l> -> vector<32x64xf32>
      %vb = xegpu.load_nd %tb[%row, %c0] : !xegpu.tensor_desc<32x64xf32, #l> -> vector<32x64xf32>
      %s = arith.addf %va, %vb {layout_result_0 = #l} : vector<32x64xf32>
      xegpu.store_nd %s, %to[%row, %c0] : vector<32x64xf32>, !xegpu.tensor_desc<32x64xf32, #l>
      gpu.return
    }
    gpu.func @gemm_wg(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %bx, %c16 : index
      %col = arith.muli %by, %c32 : index
      %tc = xegpu.create_nd_tdesc %c : memref<64x64xf32> -> !xegpu.tensor_desc<16x32xf32, #c>
      %ta = xegpu.create_nd_tdesc %a : memref<64x64xbf16> -> !xegpu.tensor_desc<16x32xbf16, #a>
      %tb = xegpu.create_nd_tdesc %b : memref<64x64xbf16> -> !xegpu.tensor_desc<32x32xbf16, #b>
      %acc = xegpu.load_nd %tc[%row, %col] : !xegpu.tensor_desc<16x32xf32, #c> -> vector<16x32xf32>
      %va0 = xegpu.load_nd %ta[%row, %c0] : !xegpu.tensor_desc<16x32xbf16, #a> -> vector<16x32xbf16>
      %vb0 = xegpu.load_nd %tb[%c0, %col] : !xegpu.tensor_desc<32x32xbf16, #b> -> vector<32x32xbf16>
      %d0 = xegpu.dpas %va0, %vb0, %acc {layout_a = #a, layout_b = #b, layout_cd = #c} : vector<16x32xbf16>, vector<32x32xbf16>, vector<16x32xf32> -> vector<16x32xf32>
      %va1 = xegpu.load_nd %ta[%row, %c32] : !xegpu.tensor_desc<16x32xbf16, #a> -> vector<16x32xbf16>
      %vb1 = xegpu.load_nd %tb[%c32, %col] : !xegpu.tensor_desc<32x32xbf16, #b> -> vector<32x32xbf16>
      %d1 = xegpu.dpas %va1, %vb1, %d0 {layout_a = #a, layout_b = #b, layout_cd = #c} : vector<16x32xbf16>, vector<32x32xbf16>, vector<16x32xf32> -> vector<16x32xf32>
      xegpu.store_nd %d1, %tc[%row, %col] : vector<16x32xf32>, !xegpu.tensor_desc<16x32xf32, #c>
      gpu.return
    }
  }
}
