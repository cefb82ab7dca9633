// A tile kernel written with MLIR's XeVM ops (what XeGPU lowers to): a
// prefetch and a load of 16-bit A tiles (8x16, array_length 2), a VNNI
// load of a 16x16 B tile, a transposed 32-bit load and a store. MLIR 22's
// own lowering (--convert-xevm-to-llvm, mlir-translate-22) turns them into
// cl_intel_subgroup_2d_block_io calls: input nobody here wrote for the
// validator (test/Xe/mlir-xevm.test).
llvm.func spir_kernelcc @tile(%a: !llvm.ptr<1>, %c: !llvm.ptr<1>, %x: i32, %y: i32) attributes {intel_reqd_sub_group_size = 16 : i32} {
  %w = llvm.mlir.constant(128 : i32) : i32
  %h = llvm.mlir.constant(64 : i32) : i32
  %p = llvm.mlir.constant(128 : i32) : i32
  %w4 = llvm.mlir.constant(256 : i32) : i32
  xevm.blockprefetch2d %a, %w, %h, %p, %x, %y <{elem_size_in_bits = 16 : i32, tile_width = 16 : i32, tile_height = 8 : i32, v_blocks = 2 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32)
  %v = xevm.blockload2d %a, %w, %h, %p, %x, %y <{elem_size_in_bits = 16 : i32, tile_width = 16 : i32, tile_height = 8 : i32, v_blocks = 2 : i32, transpose = false, pack_register = false}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<16xi16>
  %b = xevm.blockload2d %a, %w, %h, %p, %x, %y <{elem_size_in_bits = 16 : i32, tile_width = 16 : i32, tile_height = 16 : i32, v_blocks = 1 : i32, transpose = false, pack_register = true}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
  %t = xevm.blockload2d %c, %w4, %h, %w4, %x, %y <{elem_size_in_bits = 32 : i32, tile_width = 8 : i32, tile_height = 16 : i32, v_blocks = 1 : i32, transpose = true, pack_register = false}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32) -> vector<8xi32>
  xevm.blockstore2d %c, %w4, %h, %w4, %x, %y, %t <{elem_size_in_bits = 32 : i32, tile_width = 16 : i32, tile_height = 8 : i32}> : (!llvm.ptr<1>, i32, i32, i32, i32, i32, vector<8xi32>)
  llvm.return
}
