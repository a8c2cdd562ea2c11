/* npukb/npy.h - tensors as NumPy .npy files (format version 1.0), so a
 * failing case can be inspected with numpy.load().
 *
 * The header's dtype descr follows NumPy: '<f2' float16, '<f4' float32,
 * '<f8' float64, '|i1' int8, '|u1' uint8, '<i2', '<i4', '<i8', '|b1' bool,
 * '<c8' complex64. NumPy has no bfloat16: bfloat16 tensors are written
 * widened to '<f4', which is exact. Data is written little-endian in C
 * (row-major) order, as the GM buffers hold it. */
#ifndef NPUKB_NPY_H
#define NPUKB_NPY_H

#include <stddef.h>
#include <stdint.h>
#include <npukb/dtype.h>
#include <npukb/task.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The descr string for dt as written to the file ("<f2", "|b1", ...), or
 * NULL for a dtype npy cannot hold. */
const char *npukb_npy_descr(enum npukb_dtype dt);

/* Write numel elements of dtype dt from data (numel must equal the product
 * of shape's dims; rank 0 is a scalar) to path, replacing it. Return 0, or
 * a negative errno value with a message in err. */
int npukb_npy_write(const char *path, enum npukb_dtype dt, const struct npukb_shape *shape,
		    const void *data, size_t numel, char *err, size_t errlen);

/* What the header of a .npy file says. */
struct npukb_npy_header {
	unsigned major, minor;    /* format version */
	char descr[16];
	int fortran_order;
	int rank;
	int64_t dims[NPUKB_MAX_DIMS];
	size_t data_offset;       /* where the elements start */
};

/* Read and parse the header of path (version 1.0 and 2.0). Return 0, or a
 * negative errno value (-EINVAL for a malformed header) with err set. */
int npukb_npy_read_header(const char *path, struct npukb_npy_header *out, char *err,
			  size_t errlen);

/* Read the elements of path, a .npy file that must hold exactly dtype dt
 * (bfloat16: '<f4', narrowed on read) and shape, in C order, with no byte
 * missing or left over, into data (numel elements; NULL only checks the
 * file). Return 0, or a negative errno value with "path: problem" in err. */
int npukb_npy_read(const char *path, enum npukb_dtype dt, const struct npukb_shape *shape,
		   void *data, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
