/* npukb/dtype.h - element types of task tensors and their conversions.
 *
 * Owns: the dtype vocabulary shared by manifests, references, backends and
 * the correctness rules, and IEEE binary16 / bfloat16 conversions with
 * round-to-nearest-even (the hardware's default rounding). */
#ifndef NPUKB_DTYPE_H
#define NPUKB_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum npukb_dtype {
	NPUKB_DT_INVALID = 0,
	NPUKB_DT_FLOAT16,
	NPUKB_DT_BFLOAT16,
	NPUKB_DT_FLOAT32,
	NPUKB_DT_FLOAT64,
	NPUKB_DT_INT8,
	NPUKB_DT_UINT8,
	NPUKB_DT_INT16,
	NPUKB_DT_INT32,
	NPUKB_DT_INT64,
	NPUKB_DT_BOOL,
	NPUKB_DT_COMPLEX64,
	NPUKB_DT_COUNT_
};

/* Canonical name ("float16", "bfloat16", "float32", "int32", "bool",
 * "complex64", ...); "invalid" for out-of-range values. */
const char *npukb_dtype_name(enum npukb_dtype dt);
/* Accepts canonical names and the aliases seen in upstream data
 * ("float" and "fp32" for float32, "half"/"fp16", "bf16"). */
enum npukb_dtype npukb_dtype_from_name(const char *name);
size_t npukb_dtype_size(enum npukb_dtype dt);
int npukb_dtype_is_float(enum npukb_dtype dt);

uint16_t npukb_f32_to_f16(float f);
uint16_t npukb_f64_to_f16(double d);
float npukb_f16_to_f32(uint16_t h);
uint16_t npukb_f32_to_bf16(float f);
uint16_t npukb_f64_to_bf16(double d);
float npukb_bf16_to_f32(uint16_t b);
/* n values at once, with the same rounding as the one-value forms (round
 * to nearest even; NaNs made quiet keeping the top of their payload);
 * the half form uses the CPU's F16C conversion where it has one. */
void npukb_f32_to_f16_n(const float *src, uint16_t *dst, size_t n);
void npukb_f32_to_bf16_n(const float *src, uint16_t *dst, size_t n);
/* The bits of npukb_f64_to_f16 for n values (F16C where the CPU has it). */
void npukb_f64_to_f16_n(const double *src, uint16_t *dst, size_t n);
/* The bits of npukb_f64_to_bf16 for n values (AVX2 where the CPU has it). */
void npukb_f64_to_bf16_n(const double *src, uint16_t *dst, size_t n);

/* Elements [i, i+n) of a float16, bfloat16 or float32 buffer as floats
 * (exact, the values npukb_load_as_double gives); -1 for other dtypes. */
int npukb_load_as_float_n(enum npukb_dtype dt, const void *buf, size_t i, size_t n, float *dst);
/* Element i of a buffer of dtype dt, widened to double (complex: real part). */
double npukb_load_as_double(enum npukb_dtype dt, const void *buf, size_t i);
/* Stores v into element i, rounding to nearest even for float types and
 * wrapping (two's complement, as the framework being mirrored does) for
 * integer types; bool stores v != 0. */
void npukb_store_from_double(enum npukb_dtype dt, void *buf, size_t i, double v);
/* v[0..n) into elements [i, i+n): the bytes of n npukb_store_from_double
 * calls, one call (the dtype dispatched once, half and bfloat16 stores
 * vectorised). */
void npukb_store_from_double_n(enum npukb_dtype dt, void *buf, size_t i, const double *v,
			       size_t n);

#ifdef __cplusplus
}
#endif
#endif
