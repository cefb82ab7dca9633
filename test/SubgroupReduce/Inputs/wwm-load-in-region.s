; llc-22 output (gfx942, -O2) of k_max_argmin in isa-wwm-guarded.hip as the
; expansion of Crosslane f56998d built it: the load of In[t] is in whole-wave code.
k:                                      ; @k
; %bb.0:
	s_or_saveexec_b64 s[0:1], -1
	v_mov_b32_e32 v1, v0
	s_mov_b64 exec, s[0:1]
	s_load_dword s2, s[4:5], 0x18
	s_or_saveexec_b64 s[0:1], -1
	v_and_b32_e32 v1, 0x3ff, v1
	s_mov_b64 exec, s[0:1]
	s_waitcnt lgkmcnt(0)
	v_cmp_gt_i32_e32 vcc, s2, v1
	s_and_saveexec_b64 s[0:1], vcc
	s_cbranch_execz .LBB0_2
; %bb.1:
	s_or_saveexec_b64 s[6:7], -1
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	s_mov_b64 exec, s[6:7]
	s_load_dwordx2 s[4:5], s[4:5], 0x10
	s_or_saveexec_b64 s[6:7], -1
	v_lshlrev_b32_e32 v2, 2, v1
	s_waitcnt lgkmcnt(0)
	global_load_dword v3, v2, s[0:1]
	v_mbcnt_lo_u32_b32 v4, -1, 0
	v_bfrev_b32_e32 v8, -2
	v_mbcnt_hi_u32_b32 v4, -1, v4
	v_mov_b32_e32 v5, 0
	v_mov_b32_e32 v6, 0xff800000
	v_mov_b32_e32 v7, 0x7fc00000
	v_mov_b32_e32 v9, 0x7f800000
	v_cndmask_b32_e64 v1, v8, v1, s[6:7]
	v_and_b32_e32 v10, 0x70, v4
	s_waitcnt vmcnt(0)
	v_cmp_o_f32_e32 vcc, v3, v3
	s_mov_b64 exec, s[6:7]
	s_nop 0
	v_cndmask_b32_e32 v0, v6, v3, vcc
	s_or_saveexec_b64 s[0:1], -1
	v_cndmask_b32_e64 v3, v7, v3, s[0:1]
	v_lshrrev_b64 v[12:13], v10, vcc
	v_cmp_o_f32_e32 vcc, v3, v3
	v_cndmask_b32_e64 v6, v6, v0, s[0:1]
	v_and_b32_e32 v4, 0xffff, v12
	v_cndmask_b32_e32 v9, v9, v3, vcc
	v_max_f32_dpp v6, v6, v6 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_lshrrev_b64 v[10:11], v10, vcc
	v_min_f32_dpp v9, v9, v9 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_max_f32_dpp v6, v6, v6 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_nop 0
	v_min_f32_dpp v9, v9, v9 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_max_f32_dpp v6, v6, v6 row_half_mirror row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_nop 0
	v_min_f32_dpp v9, v9, v9 row_half_mirror row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_max_f32_dpp v6, v6, v6 row_mirror row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_nop 0
	v_min_f32_dpp v9, v9, v9 row_mirror row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_mov_b64 exec, s[0:1]
	v_mov_b32_e32 v0, v6
	v_cmp_ne_u64_e32 vcc, 0, v[4:5]
	s_or_saveexec_b64 s[6:7], -1
	v_and_b32_e32 v4, 0xffff, v10
	v_cmp_eq_u32_e64 s[0:1], v3, v9
	s_mov_b64 exec, s[6:7]
	v_cndmask_b32_e32 v0, v7, v0, vcc
	s_or_saveexec_b64 s[6:7], -1
	v_cmp_eq_u64_e32 vcc, 0, v[4:5]
	s_mov_b64 exec, s[6:7]
	global_store_dword v2, v0, s[2:3]
	s_or_saveexec_b64 s[2:3], -1
	s_or_b64 vcc, s[0:1], vcc
	v_cndmask_b32_e32 v1, v8, v1, vcc
	v_cmp_ne_u64_e32 vcc, 0, v[4:5]
	s_nop 0
	v_min_i32_dpp v1, v1, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_cndmask_b32_e32 v10, v7, v9, vcc
	s_nop 0
	v_min_i32_dpp v1, v1, v1 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_nop 1
	v_min_i32_dpp v1, v1, v1 row_half_mirror row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_nop 1
	v_min_i32_dpp v11, v1, v1 row_mirror row_mask:0xf bank_mask:0xf bound_ctrl:1
	s_mov_b64 exec, s[2:3]
	v_mov_b64_e32 v[14:15], v[10:11]
	global_store_dword v2, v15, s[4:5]
.LBB0_2:
	s_endpgm
