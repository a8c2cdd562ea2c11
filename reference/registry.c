/* registry.c - reference names used in manifests (<reference function=...>). */
#include "reference.h"

#include <string.h>

static const struct npukb_reference references[] = {
	{ "add", 2, 1, npukb_ref_add },
	{ "equal", 2, 1, npukb_ref_equal },
	{ "less", 2, 1, npukb_ref_less },
	{ "less_equal", 2, 1, npukb_ref_less_equal },
	{ "is_finite", 1, 1, npukb_ref_is_finite },
	{ "is_inf", 1, 1, npukb_ref_is_inf },
	{ "abs", 1, 1, npukb_ref_abs },
	{ "neg", 1, 1, npukb_ref_neg },
	{ "sqrt", 1, 1, npukb_ref_sqrt },
	{ "rsqrt", 1, 1, npukb_ref_rsqrt },
	{ "sin", 1, 1, npukb_ref_sin },
	{ "cos", 1, 1, npukb_ref_cos },
	{ "tanh", 1, 1, npukb_ref_tanh },
	{ "spence", 1, 1, npukb_ref_spence },
	{ "cast", 1, 1, npukb_ref_cast },
	{ "strideslice_neg_concat", 1, 1, npukb_ref_strideslice_neg_concat },
	{ "addcdiv", 4, 1, npukb_ref_addcdiv },
	{ "addcmul", 4, 1, npukb_ref_addcmul },
	{ "lerp", 3, 1, npukb_ref_lerp },
	{ "clip_by_value", 3, 1, npukb_ref_clip_by_value },
	{ "muls", 2, 1, npukb_ref_muls },
	{ "complex_mul", 2, 1, npukb_ref_complex_mul },
	{ "sasum", 1, 1, npukb_ref_sasum },
	{ "snrm2", 1, 1, npukb_ref_snrm2 },
	{ "iamax", 1, 1, npukb_ref_iamax },
	{ "iamin", 1, 1, npukb_ref_iamin },
	{ "ccopy", 1, 1, npukb_ref_ccopy },
	{ "arange", 3, 1, npukb_ref_arange },
	{ "eye", 1, 1, npukb_ref_eye },
	{ "fill", 2, 1, npukb_ref_fill },
	{ "sscal", 1, 1, npukb_ref_sscal },
	{ "non_finite_check", 1, 1, npukb_ref_non_finite_check },
	{ "gather_v3", 3, 1, npukb_ref_gather_v3 },
	{ "scatter_list", 4, 1, npukb_ref_scatter_list },
	{ "masked_select", 2, 2, npukb_ref_masked_select },
	{ "matmul", 2, 1, npukb_ref_matmul },
	{ "tril", 1, 1, npukb_ref_tril },
	{ "triu", 1, 1, npukb_ref_triu },
	{ "rms_norm", 2, 2, npukb_ref_rms_norm },
	{ "add_rms_norm", 3, 3, npukb_ref_add_rms_norm },
	{ "inplace_add_rms_norm", 3, 3, npukb_ref_inplace_add_rms_norm },
	{ "reverse_sequence", 2, 1, npukb_ref_reverse_sequence },
	{ "expand", 1, 1, npukb_ref_expand },
	{ "feeds_repeat", 2, 1, npukb_ref_feeds_repeat },
	{ "deep_norm", 4, 3, npukb_ref_deep_norm },
	{ "add_layer_norm", 5, 4, npukb_ref_add_layer_norm },
	{ "inplace_add_layer_norm", 5, 4, npukb_ref_inplace_add_layer_norm },
	{ "layer_norm_v4", 4, 3, npukb_ref_layer_norm_v4 },
	{ "add_rms_norm_cast", 3, 4, npukb_ref_add_rms_norm_cast },
	{ "rms_norm_grad", 4, 2, npukb_ref_rms_norm_grad },
	{ "add_layer_norm_grad", 7, 3, npukb_ref_add_layer_norm_grad },
	{ "group_norm_swish", 3, 3, npukb_ref_group_norm_swish },
	{ "group_norm_swish_grad", 6, 3, npukb_ref_group_norm_swish_grad },
	{ "batch_norm_v3", 5, 5, npukb_ref_batch_norm_v3 },
	{ "strided_slice_assign", 6, 1, npukb_ref_strided_slice_assign },
	/* activation.c */
	{ "swish", 1, 1, npukb_ref_swish },
	{ "fast_gelu", 1, 1, npukb_ref_fast_gelu },
	{ "fast_gelu_grad", 2, 1, npukb_ref_fast_gelu_grad },
	{ "gelu", 1, 1, npukb_ref_gelu },
	{ "gelu_grad", 2, 1, npukb_ref_gelu_grad },
	{ "mul_sigmoid", 2, 1, npukb_ref_mul_sigmoid },
	{ "swiglu", 1, 1, npukb_ref_swiglu },
	{ "swiglu_grad", 2, 1, npukb_ref_swiglu_grad },
	{ "geglu", 1, 2, npukb_ref_geglu },
	{ "geglu_grad", 2, 1, npukb_ref_geglu_grad },
	{ "softmax_last", 1, 1, npukb_ref_softmax_last },
	/* loss.c */
	{ "mse_loss", 2, 1, npukb_ref_mse_loss },
	{ "mse_loss_grad", 3, 1, npukb_ref_mse_loss_grad },
	/* reduce_fused.c */
	{ "mul_sigmoid_mul_add", 4, 1, npukb_ref_mul_sigmoid_mul_add },
	{ "add_sigmoid_mul_reduce_sum", 5, 1, npukb_ref_add_sigmoid_mul_reduce_sum },
	{ "select_softmax", 3, 1, npukb_ref_select_softmax },
	{ "mul_mul_reduce_mean_twice", 6, 1, npukb_ref_mul_mul_reduce_mean_twice },
	{ "cross", 2, 1, npukb_ref_cross },
	{ "apply_fused_ema_adam", 6, 4, npukb_ref_apply_fused_ema_adam },
	{ "apply_adamw_v2", 6, 4, npukb_ref_apply_adamw_v2 },
};

const struct npukb_reference *npukb_reference_find(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof(references) / sizeof(references[0]); i++)
		if (strcmp(references[i].name, name) == 0)
			return &references[i];
	return npukb_ref_foreach_find(name);
}
