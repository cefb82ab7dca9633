// GPU dialect code for XeVM: a work-group sum (subgroup butterflies of
// shuffle_xor, one partial per subgroup in work-group memory, a barrier)
// and neighbour exchanges (shuffle up, down, idx) (test/Xe/mlir-xegpu-exec.test).
module @m attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @block_sum(%a: memref<256xf32>, %out: memref<4xf32>) workgroup(%part: memref<4xf32, 3>) kernel attributes {intel_reqd_sub_group_size = 16 : i32} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %w = arith.constant 16 : i32
      %base = arith.muli %bid, %c64 : index
      %g = arith.addi %base, %tid : index
      %v = memref.load %a[%g] : memref<256xf32>
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %c8 = arith.constant 8 : i32
      %s1, %o1 = gpu.shuffle xor %v, %c1, %w : f32
      %v1 = arith.addf %v, %s1 : f32
      %s2, %o2 = gpu.shuffle xor %v1, %c2, %w : f32
      %v2 = arith.addf %v1, %s2 : f32
      %s4, %o4 = gpu.shuffle xor %v2, %c4, %w : f32
      %v4 = arith.addf %v2, %s4 : f32
      %s8, %o8 = gpu.shuffle xor %v4, %c8, %w : f32
      %v8 = arith.addf %v4, %s8 : f32
      %lane = gpu.lane_id
      %sg = gpu.subgroup_id : index
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        memref.store %v8, %part[%sg] : memref<4xf32, 3>
      }
      gpu.barrier
      %t0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %t0 {
        %c1i = arith.constant 1 : index
        %c2i = arith.constant 2 : index
        %c3i = arith.constant 3 : index
        %p0 = memref.load %part[%c0] : memref<4xf32, 3>
        %p1 = memref.load %part[%c1i] : memref<4xf32, 3>
        %p2 = memref.load %part[%c2i] : memref<4xf32, 3>
        %p3 = memref.load %part[%c3i] : memref<4xf32, 3>
        %q0 = arith.addf %p0, %p1 : f32
        %q1 = arith.addf %p2, %p3 : f32
        %q = arith.addf %q0, %q1 : f32
        memref.store %q, %out[%bid] : memref<4xf32>
      }
      gpu.return
    }
    gpu.func @neighbours(%a: memref<64xi32>, %out: memref<64xi32>) kernel attributes {intel_reqd_sub_group_size = 16 : i32} {
      %tid = gpu.thread_id x
      %w = arith.constant 16 : i32
      %c1 = arith.constant 1 : i32
      %c5 = arith.constant 5 : i32
      %v = memref.load %a[%tid] : memref<64xi32>
      %u, %uo = gpu.shuffle up %v, %c1, %w : i32
      %d, %do = gpu.shuffle down %v, %c1, %w : i32
      %b, %bo = gpu.shuffle idx %v, %c5, %w : i32
      %z = arith.constant 0 : i32
      %lane = gpu.lane_id
      %c0i = arith.constant 0 : index
      %c15i = arith.constant 15 : index
      %hasup = arith.cmpi ugt, %lane, %c0i : index
      %hasdown = arith.cmpi ult, %lane, %c15i : index
      %u1 = arith.select %hasup, %u, %z : i32
      %d1 = arith.select %hasdown, %d, %z : i32
      %s0 = arith.addi %u1, %d1 : i32
      %s = arith.addi %s0, %b : i32
      memref.store %s, %out[%tid] : memref<64xi32>
      gpu.return
    }
  }
}
