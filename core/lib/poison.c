/* poison.c - the bytes an output holds before the kernel runs.
 *
 * Outputs are filled with a pattern no correct kernel writes (quiet NaNs
 * with a payload for floats, 0xA5 bytes for integers and bool), so an
 * element the kernel never wrote is found after the run. */
#include <npukb/case_data.h>

#include <stdint.h>
#include <string.h>

static const uint16_t poison16 = 0x7EA5;            /* fp16 quiet NaN, payload A5 */
static const uint16_t poison_bf16 = 0x7FC5;         /* bf16 quiet NaN */
static const uint32_t poison32 = 0x7FC0A5A5u;       /* fp32 quiet NaN */
static const uint64_t poison64 = 0x7FF8A5A5A5A5A5A5ull;

/* One element's poison bytes into out (size bytes). */
static void poison_element(enum npukb_dtype dt, size_t size, unsigned char *out)
{
	switch (dt) {
	case NPUKB_DT_FLOAT16: memcpy(out, &poison16, 2); break;
	case NPUKB_DT_BFLOAT16: memcpy(out, &poison_bf16, 2); break;
	case NPUKB_DT_FLOAT32: memcpy(out, &poison32, 4); break;
	case NPUKB_DT_COMPLEX64:
		memcpy(out, &poison32, 4);
		memcpy(out + 4, &poison32, 4);
		break;
	case NPUKB_DT_FLOAT64: memcpy(out, &poison64, 8); break;
	default: memset(out, 0xA5, size); break; /* bool: neither 0 nor 1 */
	}
}

void npukb_poison_fill(enum npukb_dtype dt, void *buf, size_t numel)
{
	size_t i, size = npukb_dtype_size(dt), bytes;
	unsigned char *p = buf, word[8];

	/* Every element size divides 8: the buffer is the 8-byte pattern
	 * repeated, written a word at a time. */
	if (size > 0 && size <= 8 && 8 % size == 0 && numel <= SIZE_MAX / size) {
		for (i = 0; i < 8; i += size)
			poison_element(dt, size, word + i);
		bytes = numel * size;
		for (i = 0; i + 8 <= bytes; i += 8)
			memcpy(p + i, word, 8);
		memcpy(p + i, word, bytes - i);
		return;
	}
	for (i = 0; i < numel; i++, p += size)
		poison_element(dt, size, p);
}

int npukb_is_poison(enum npukb_dtype dt, const void *buf, size_t i)
{
	size_t size = npukb_dtype_size(dt);
	const unsigned char *p = (const unsigned char *)buf + i * size;
	size_t k;
	switch (dt) {
	case NPUKB_DT_FLOAT16: return memcmp(p, &poison16, 2) == 0;
	case NPUKB_DT_BFLOAT16: return memcmp(p, &poison_bf16, 2) == 0;
	case NPUKB_DT_FLOAT32: return memcmp(p, &poison32, 4) == 0;
	case NPUKB_DT_COMPLEX64:
		return memcmp(p, &poison32, 4) == 0 && memcmp(p + 4, &poison32, 4) == 0;
	case NPUKB_DT_FLOAT64: return memcmp(p, &poison64, 8) == 0;
	default:
		for (k = 0; k < size; k++)
			if (p[k] != 0xA5)
				return 0;
		return size > 0;
	}
}

/* Elements [i, i+n) of a buffer of w-byte words: does any equal pat? A
 * branch-free loop over a block (the compiler vectorises it), so the scan
 * of a fully written output costs a compare per element, not a call. */
#define POISON_BLOCK 512
#define ANY_EQUAL(type)                                                            \
	static int any_equal_##type(const unsigned char *p, size_t n, type pat)   \
	{                                                                          \
		int any = 0;                                                       \
		for (size_t k = 0; k < n; k++) {                                   \
			type v;                                                    \
			memcpy(&v, p + k * sizeof(type), sizeof(type));            \
			any |= v == pat;                                           \
		}                                                                  \
		return any;                                                        \
	}
ANY_EQUAL(uint16_t)
ANY_EQUAL(uint32_t)
ANY_EQUAL(uint64_t)

size_t npukb_poison_find(enum npukb_dtype dt, const void *buf, size_t begin, size_t end)
{
	const unsigned char *p = buf;
	size_t size = npukb_dtype_size(dt), i, n;
	uint16_t pat16 = 0;
	uint32_t pat32 = 0;
	uint64_t pat64 = 0;
	int any;

	switch (dt) {
	case NPUKB_DT_FLOAT16: pat16 = poison16; break;
	case NPUKB_DT_BFLOAT16: pat16 = poison_bf16; break;
	case NPUKB_DT_FLOAT32: pat32 = poison32; break;
	case NPUKB_DT_FLOAT64: pat64 = poison64; break;
	case NPUKB_DT_COMPLEX64: pat64 = (uint64_t)poison32 << 32 | poison32; break;
	default:
		/* the integers: every byte 0xA5 */
		if (size == 0)
			return end;
		memset(&pat64, 0xA5, sizeof pat64);
		pat16 = (uint16_t)pat64;
		pat32 = (uint32_t)pat64;
		break;
	}
	for (i = begin; i < end; i += n) {
		n = end - i < POISON_BLOCK ? end - i : POISON_BLOCK;
		switch (size) {
		case 1: any = memchr(p + i, 0xA5, n) != NULL; break;
		case 2: any = any_equal_uint16_t(p + 2 * i, n, pat16); break;
		case 4: any = any_equal_uint32_t(p + 4 * i, n, pat32); break;
		case 8: any = any_equal_uint64_t(p + 8 * i, n, pat64); break;
		default: any = 1; break;
		}
		if (!any)
			continue;
		for (size_t k = i; k < i + n; k++)
			if (npukb_is_poison(dt, buf, k))
				return k;
	}
	return end;
}

