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
