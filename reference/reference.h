/* reference.h - the golden implementations npukb checks samples against.
 *
 * Each reference computes from the operator's mathematics in double and
 * rounds once to the output dtype (npukb_store_from_double). References
 * work element by element or in chunks: never a whole-tensor double copy,
 * so a 1 GiB case costs little more than its tensors. */
#ifndef NPUKB_REFERENCE_H
#define NPUKB_REFERENCE_H

#include <stddef.h>
#include <npukb/task.h>
#include <npukb/reference.h>

const struct npukb_reference *npukb_reference_find(const char *name);

/* One file per operator family declares its functions here. */
int npukb_ref_add(const struct npukb_ref_call *call, char *err, size_t errlen);
/* compare.c */
int npukb_ref_equal(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_less(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_less_equal(const struct npukb_ref_call *call, char *err, size_t errlen);
/* unary.c */
int npukb_ref_is_finite(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_is_inf(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_abs(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_neg(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_sqrt(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_rsqrt(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_sin(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_cos(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_tanh(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_spence(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_non_finite_check(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_cast(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_strideslice_neg_concat(const struct npukb_ref_call *call, char *err, size_t errlen);
/* binary.c */
int npukb_ref_addcdiv(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_addcmul(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_lerp(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_clip_by_value(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_muls(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_complex_mul(const struct npukb_ref_call *call, char *err, size_t errlen);
/* blas.c */
int npukb_ref_sasum(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_snrm2(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_iamax(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_iamin(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_ccopy(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_sscal(const struct npukb_ref_call *call, char *err, size_t errlen);
/* linalg.c */
int npukb_ref_matmul(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_cross(const struct npukb_ref_call *call, char *err, size_t errlen);
/* gemm_ops.c: Level 3's products on the GEMM core (gemm.h) */
int npukb_ref_matmul_add(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_matmul_bias(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_gemm(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_gemv(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_quant_matmul(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_grouped_matmul_slice_m(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_grouped_matmul_slice_m_dequant(const struct npukb_ref_call *call, char *err,
					     size_t errlen);
int npukb_ref_grouped_matmul_slice_k(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_grouped_matmul_slice_k_dequant(const struct npukb_ref_call *call, char *err,
					     size_t errlen);
int npukb_ref_group_gemm(const struct npukb_ref_call *call, char *err, size_t errlen);
/* attention.c */
int npukb_ref_flash_attention_bsh(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_mla(const struct npukb_ref_call *call, char *err, size_t errlen);
/* topk.c */
int npukb_ref_topk(const struct npukb_ref_call *call, char *err, size_t errlen);
/* index.c */
int npukb_ref_gather_v3(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_scatter_list(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_masked_select(const struct npukb_ref_call *call, char *err, size_t errlen);
/* foreach.c: the ForeachXxx family, looked up by name (foreach_abs, ...) */
const struct npukb_reference *npukb_ref_foreach_find(const char *name);
/* optim.c */
int npukb_ref_apply_fused_ema_adam(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_apply_adamw_v2(const struct npukb_ref_call *call, char *err, size_t errlen);
/* creation.c */
int npukb_ref_arange(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_eye(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_fill(const struct npukb_ref_call *call, char *err, size_t errlen);
/* activation.c */
int npukb_ref_swish(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_fast_gelu(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_fast_gelu_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_gelu(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_gelu_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_gelu_quant(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_dequant_swiglu_quant(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_mul_sigmoid(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_swiglu(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_swiglu_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_geglu(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_geglu_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_softmax_last(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_fused_matmul_softmax_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
/* loss.c */
int npukb_ref_mse_loss(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_mse_loss_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_cross_entropy_loss(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_cross_entropy_loss_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
/* reduce_fused.c */
int npukb_ref_mul_sigmoid_mul_add(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_add_sigmoid_mul_reduce_sum(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_select_softmax(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_mul_mul_reduce_mean_twice(const struct npukb_ref_call *call, char *err, size_t errlen);

/* mask.c */
int npukb_ref_tril(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_triu(const struct npukb_ref_call *call, char *err, size_t errlen);

/* norm.c */
int npukb_ref_rms_norm(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_add_rms_norm(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_inplace_add_rms_norm(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_deep_norm(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_add_layer_norm(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_inplace_add_layer_norm(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_layer_norm_v4(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_pre_layer_norm(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_add_rms_norm_cast(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_add_rms_norm_quant(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_rms_norm_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_add_layer_norm_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_deep_norm_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_coalesce_sparse(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_group_norm_swish(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_group_norm_swish_grad(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_batch_norm_v3(const struct npukb_ref_call *call, char *err, size_t errlen);

/* tensor_move.c */
int npukb_ref_reverse_sequence(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_expand(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_feeds_repeat(const struct npukb_ref_call *call, char *err, size_t errlen);
int npukb_ref_strided_slice_assign(const struct npukb_ref_call *call, char *err, size_t errlen);

#endif
