/* test_ref_optim.c - the Optim family's reference (reference/optim.c):
 * ApplyAdamWV2 computed a block at a time gives each element's update as
 * the formula in double, rounded once per output. */
#include <criterion/criterion.h>

#include "reference.h"
#include "ref_call.h"

#include <npukb/dtype.h>

#include <math.h>
#include <stdint.h>
#include <string.h>

/* More elements than two blocks of 1024 with a tail, random values of
 * both signs (v and max_grad_norm positive), float32, float16 and
 * bfloat16, each combination of amsgrad and maximize. */
Test(ref_optim, apply_adamw_v2_matches_each_element)
{
	enum { N = 2 * 1024 + 37, NT = 5 };
	const int64_t dn[1] = { N }, d1[1] = { 1 };
	const enum npukb_dtype dts[3] = { NPUKB_DT_FLOAT32, NPUKB_DT_FLOAT16, NPUKB_DT_BFLOAT16 };
	const double lr = 1e-3, b1 = 0.9, b2 = 0.999, wd = 0.01, eps = 1e-8;
	static unsigned char in[NT][4 * N], out[4][4 * N], want[4][4 * N];
	float step = 6.0f;
	uint64_t s = UINT64_C(0x853c49e6748fea9b);
	char err[ERRLEN];

	for (int d = 0; d < 3; d++) {
		const enum npukb_dtype dt = dts[d];
		const size_t sz = npukb_dtype_size(dt);
		for (int k = 0; k < NT; k++)
			for (size_t i = 0; i < N; i++) {
				s ^= s << 13;
				s ^= s >> 7;
				s ^= s << 17;
				double u = (double)(s >> 11) * 0x1p-53;
				/* grad, var, m: [-1, 1); v, max_grad_norm: (0, 0.01] */
				npukb_store_from_double(dt, in[k], i, k < 3 ? 2.0 * u - 1.0 : 0.01 * (1.0 - u));
			}
		for (int flags = 0; flags < 4; flags++) {
			const int ams = flags & 1, maximize = flags >> 1;
			const char *attrs[] = { "lr",	  "0.001", "beta1",   "0.9",
						"beta2",  "0.999", "weight_decay", "0.01",
						"eps",	  "1e-8",  "amsgrad", ams ? "true" : "false",
						"maximize", maximize ? "true" : "false", NULL };
			struct npukb_ref_tensor ti[6] = {
				ref_tensor("grad", dt, in[0], 1, dn),
				ref_tensor("step", NPUKB_DT_FLOAT32, &step, 1, d1),
				ref_tensor("var", dt, in[1], 1, dn),
				ref_tensor("m", dt, in[2], 1, dn),
				ref_tensor("v", dt, in[3], 1, dn),
				ref_tensor("max_grad_norm", dt, in[4], 1, dn),
			};
			struct npukb_ref_tensor to[4] = {
				ref_tensor("var", dt, out[0], 1, dn),
				ref_tensor("m", dt, out[1], 1, dn),
				ref_tensor("v", dt, out[2], 1, dn),
				ref_tensor("max_grad_norm", dt, out[3], 1, dn),
			};
			cr_assert_eq(ref_run("apply_adamw_v2", ti, 6, to, 4, attrs, err), 0, "%s", err);
			const double t = (double)step + 1.0, bc1 = 1.0 - pow(b1, t), bc2 = 1.0 - pow(b2, t);
			for (size_t i = 0; i < N; i++) {
				const double g0 = npukb_load_as_double(dt, in[0], i);
				const double g = maximize ? -g0 : g0;
				const double m0 = npukb_load_as_double(dt, in[2], i);
				const double v0 = npukb_load_as_double(dt, in[3], i);
				const double x0 = npukb_load_as_double(dt, in[4], i);
				double w = npukb_load_as_double(dt, in[1], i) * (1.0 - lr * wd);
				const double mi = m0 + (1.0 - b1) * (g - m0);
				const double vi = b2 * v0 + (1.0 - b2) * g * g;
				const double vm = ams ? fmax(vi, x0) : vi;
				w -= lr / bc1 * mi / (sqrt(vm / bc2) + eps);
				npukb_store_from_double(dt, want[0], i, w);
				npukb_store_from_double(dt, want[1], i, mi);
				npukb_store_from_double(dt, want[2], i, vi);
				npukb_store_from_double(dt, want[3], i, ams ? vm : x0);
			}
			for (int o = 0; o < 4; o++)
				cr_expect_eq(memcmp(out[o], want[o], N * sz), 0, "%s, amsgrad %d, maximize %d: output %d",
					     npukb_dtype_name(dt), ams, maximize, o);
		}
	}
}
