/* fake_acl.c - a host-memory stand-in for the ACL runtime (libascendcl.so)
 * for npukb's tests: the generated programs run against it unchanged.
 *
 * It checks what the real runtime would refuse - calls out of order
 * (aclrtSetDevice before aclInit, a stream before a device, aclFinalize
 * with the device still set), device pointers that were never allocated,
 * copies that overrun an allocation or go the wrong way, launches on
 * unknown streams or with arguments that are not device memory, leaks at
 * aclrtResetDevice - and fails them with an ACL error code and a message
 * for aclGetRecentErrMsg(). Every call is appended to $ASCEND_FAKE_ACL_TRACE, one
 * line each, with handles numbered in order of creation (s1, e2, d3) so a
 * trace is the same from run to run and can be compared to a golden file.
 * A launch "takes" 0.5 ms, the next 1.0 ms, and so on, so timings are known.
 *
 * Devices: $ASCEND_RT_VISIBLE_DEVICES (a comma list) decides how many the
 * process sees (1 when unset); $ASCEND_FAKE_ACL_DEVICE_STATUS=abnormal makes
 * aclrtQueryDeviceStatus report a wedged device; $ASCEND_FAKE_ACL_FAIL=<call>
 * makes that call fail as a device error would. Written for npukb. */
#include "acl/acl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HANDLES 256

enum kind { FREE_SLOT, STREAM, EVENT, DEVMEM };

struct handle {
	enum kind kind;
	unsigned id;       /* order of creation, for the trace */
	void *ptr;         /* DEVMEM: the memory; STREAM/EVENT: the handle given out */
	size_t size;
	int recorded;      /* EVENT */
	float at_ms;       /* EVENT */
};

static struct handle handles[MAX_HANDLES];
static unsigned next_id = 1;
static int initialised;
static int device = -1;
static char recent[512];
static float clock_ms;
static float step_ms = 0.5f;
static aclError pending; /* a failed launch, reported at the next synchronisation */
static int live_tensors;  /* aclTensors not destroyed yet */
static unsigned block_idx, block_num;

static void trace(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trace(const char *fmt, ...)
{
	const char *path = getenv("ASCEND_FAKE_ACL_TRACE");
	va_list ap;
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static aclError fail(aclError code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static aclError fail(aclError code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(recent, sizeof recent, fmt, ap);
	va_end(ap);
	trace("  error %d: %s", code, recent);
	return code;
}

static struct handle *find(enum kind k, const void *p)
{
	for (int i = 0; i < MAX_HANDLES; i++)
		if (handles[i].kind == k && handles[i].ptr == p)
			return &handles[i];
	return NULL;
}

/* The allocation holding [p, p + n), or NULL. */
static struct handle *find_range(const void *p, size_t n)
{
	const char *c = p;

	for (int i = 0; i < MAX_HANDLES; i++) {
		const char *b = handles[i].ptr;

		if (handles[i].kind == DEVMEM && c >= b && c <= b + handles[i].size &&
		    n <= handles[i].size - (size_t)(c - b))
			return &handles[i];
	}
	return NULL;
}

static struct handle *add(enum kind k, void *p, size_t size)
{
	for (int i = 0; i < MAX_HANDLES; i++)
		if (handles[i].kind == FREE_SLOT) {
			memset(&handles[i], 0, sizeof handles[i]);
			handles[i].kind = k;
			handles[i].id = next_id++;
			handles[i].ptr = p;
			handles[i].size = size;
			return &handles[i];
		}
	return NULL;
}

static int visible_devices(void)
{
	const char *v = getenv("ASCEND_RT_VISIBLE_DEVICES");
	int n = 1;

	if (!v || !*v)
		return 1;
	for (; *v; v++)
		n += *v == ',';
	return n;
}

/* $ASCEND_FAKE_ACL_FAIL names one call that fails, as a device error would. */
static aclError injected(const char *call)
{
	const char *v = getenv("ASCEND_FAKE_ACL_FAIL");

	if (v && strcmp(v, call) == 0)
		return fail(507011, "injected failure of %s (the device reported an error)", call);
	return ACL_SUCCESS;
}

static aclError need_device(const char *call)
{
	if (!initialised)
		return fail(ACL_ERROR_UNINITIALIZE, "%s before aclInit", call);
	if (device < 0)
		return fail(ACL_ERROR_INVALID_DEVICE, "%s before aclrtSetDevice", call);
	return ACL_SUCCESS;
}

aclError aclInit(const char *configPath)
{
	trace("aclInit %s", configPath ? configPath : "null");
	if (initialised)
		return fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit called twice");
	initialised = 1;
	return ACL_SUCCESS;
}

aclError aclFinalize(void)
{
	trace("aclFinalize");
	if (!initialised)
		return fail(ACL_ERROR_UNINITIALIZE, "aclFinalize before aclInit");
	if (device >= 0)
		return fail(ACL_ERROR_INVALID_PARAM, "aclFinalize with device %d still set", device);
	initialised = 0;
	return ACL_SUCCESS;
}

const char *aclGetRecentErrMsg(void)
{
	return recent[0] ? recent : NULL;
}

aclError aclrtSetDevice(int32_t id)
{
	trace("aclrtSetDevice %d", (int)id);
	if (!initialised)
		return fail(ACL_ERROR_UNINITIALIZE, "aclrtSetDevice before aclInit");
	if (id < 0 || id >= visible_devices())
		return fail(ACL_ERROR_INVALID_DEVICE, "device %d is not visible (%d visible)", (int)id,
			    visible_devices());
	device = id;
	return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t id)
{
	trace("aclrtResetDevice %d", (int)id);
	if (id != device)
		return fail(ACL_ERROR_INVALID_DEVICE, "aclrtResetDevice(%d) but device %d is set",
			    (int)id, device);
	for (int i = 0; i < MAX_HANDLES; i++)
		if (handles[i].kind != FREE_SLOT)
			return fail(ACL_ERROR_INVALID_PARAM, "handle %u still alive at aclrtResetDevice",
				    handles[i].id);
	if (live_tensors)
		return fail(ACL_ERROR_INVALID_PARAM, "%d aclTensors never destroyed", live_tensors);
	device = -1;
	return ACL_SUCCESS;
}

aclError aclrtQueryDeviceStatus(int32_t id, aclrtDeviceStatus *st)
{
	const char *s = getenv("ASCEND_FAKE_ACL_DEVICE_STATUS");
	aclError rc = need_device("aclrtQueryDeviceStatus");

	trace("aclrtQueryDeviceStatus %d", (int)id);
	if (rc != ACL_SUCCESS)
		return rc;
	if (!st || id != device)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtQueryDeviceStatus: bad arguments");
	*st = s && strcmp(s, "abnormal") == 0 ? ACL_RT_DEVICE_STATUS_ABNORMAL
					       : ACL_RT_DEVICE_STATUS_NORMAL;
	return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream *s)
{
	aclError rc = need_device("aclrtCreateStream");
	struct handle *h;

	if (rc != ACL_SUCCESS)
		return rc;
	h = s ? add(STREAM, NULL, 0) : NULL;
	if (!h)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: no room");
	h->ptr = h; /* any unique address */
	*s = h->ptr;
	trace("aclrtCreateStream s%u", h->id);
	return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream s)
{
	struct handle *h = find(STREAM, s);

	if (!h)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: unknown stream");
	trace("aclrtDestroyStream s%u", h->id);
	h->kind = FREE_SLOT;
	return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream s)
{
	struct handle *h = find(STREAM, s);
	aclError rc = pending;

	if (!h)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream: unknown stream");
	trace("aclrtSynchronizeStream s%u", h->id);
	pending = ACL_SUCCESS;
	return rc != ACL_SUCCESS ? rc : injected("aclrtSynchronizeStream");
}

aclError aclrtMalloc(void **p, size_t n, aclrtMemMallocPolicy policy)
{
	aclError rc = need_device("aclrtMalloc");
	struct handle *h;
	void *mem;

	if (rc != ACL_SUCCESS)
		return rc;
	if (!p || n == 0 || (unsigned)policy > ACL_MEM_MALLOC_NORMAL_ONLY)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: bad arguments (size %zu)", n);
	mem = calloc(1, n);
	h = mem ? add(DEVMEM, mem, n) : NULL;
	if (!h) {
		free(mem);
		return fail(ACL_ERROR_RT_FAILURE, "aclrtMalloc: out of memory");
	}
	*p = mem;
	trace("aclrtMalloc d%u %zu policy=%d", h->id, n, (int)policy);
	return ACL_SUCCESS;
}

aclError aclrtFree(void *p)
{
	struct handle *h = find(DEVMEM, p);

	if (!h)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtFree of a pointer aclrtMalloc never gave");
	trace("aclrtFree d%u", h->id);
	free(h->ptr);
	h->kind = FREE_SLOT;
	return ACL_SUCCESS;
}

aclError aclrtMemcpy(void *dst, size_t max, const void *src, size_t n, aclrtMemcpyKind kind)
{
	static const char *const kinds[] = { "H2H", "H2D", "D2H", "D2D" };
	struct handle *d = find_range(dst, n), *s = find_range(src, n);
	char dn[16] = "host", sn[16] = "host";

	if (d)
		snprintf(dn, sizeof dn, "d%u", d->id);
	if (s)
		snprintf(sn, sizeof sn, "d%u", s->id);
	if ((unsigned)kind > ACL_MEMCPY_DEVICE_TO_DEVICE)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: unknown kind %d", (int)kind);
	trace("aclrtMemcpy %s %s %zu %s", dn, sn, n, kinds[kind]);
	if (n > max)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: %zu bytes into %zu", n, max);
	if ((kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE) && !d)
		return fail(ACL_ERROR_INVALID_PARAM,
			    "aclrtMemcpy: destination is not %zu bytes of device memory", n);
	if ((kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE) && !s)
		return fail(ACL_ERROR_INVALID_PARAM,
			    "aclrtMemcpy: source is not %zu bytes of device memory", n);
	if ((kind == ACL_MEMCPY_HOST_TO_DEVICE && s) || (kind == ACL_MEMCPY_DEVICE_TO_HOST && d))
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: host side is device memory");
	memmove(dst, src, n);
	return ACL_SUCCESS;
}

aclError aclrtCreateEvent(aclrtEvent *e)
{
	aclError rc = need_device("aclrtCreateEvent");
	struct handle *h;

	if (rc != ACL_SUCCESS)
		return rc;
	h = e ? add(EVENT, NULL, 0) : NULL;
	if (!h)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: no room");
	h->ptr = h;
	*e = h->ptr;
	trace("aclrtCreateEvent e%u", h->id);
	return ACL_SUCCESS;
}

aclError aclrtDestroyEvent(aclrtEvent e)
{
	struct handle *h = find(EVENT, e);

	if (!h)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyEvent: unknown event");
	trace("aclrtDestroyEvent e%u", h->id);
	h->kind = FREE_SLOT;
	return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent e, aclrtStream s)
{
	struct handle *he = find(EVENT, e), *hs = find(STREAM, s);

	if (!he || !hs)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtRecordEvent: unknown event or stream");
	trace("aclrtRecordEvent e%u s%u", he->id, hs->id);
	he->recorded = 1;
	he->at_ms = clock_ms;
	return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent a, aclrtEvent b)
{
	struct handle *ha = find(EVENT, a), *hb = find(EVENT, b);

	if (!ms || !ha || !hb)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: unknown event");
	trace("aclrtEventElapsedTime e%u e%u", ha->id, hb->id);
	if (!ha->recorded || !hb->recorded)
		return fail(ACL_ERROR_INVALID_PARAM, "aclrtEventElapsedTime: event never recorded");
	*ms = hb->at_ms - ha->at_ms;
	return ACL_SUCCESS;
}

/* ---- the kernel side (fake_kernel_mode.h, kernel_operator.h) ------------- */

int fake_acl_launch(uint32_t blocks, void *l2ctrl, void *stream);
void fake_acl_launch_arg(const void *arg);
void fake_acl_block(uint32_t idx);
void fake_acl_launch_done(void);
uint32_t fake_acl_block_idx(void);
uint32_t fake_acl_block_num(void);

int fake_acl_launch(uint32_t blocks, void *l2ctrl, void *stream)
{
	struct handle *h = find(STREAM, stream);

	trace("launch blocks=%u stream=s%u", blocks, h ? h->id : 0);
	if (device < 0 || !h || l2ctrl || blocks < 1 || blocks > 65535) {
		pending = fail(ACL_ERROR_RT_FAILURE,
			       "kernel launch refused (blocks %u, %s stream, l2ctrl %s)", blocks,
			       h ? "known" : "unknown", l2ctrl ? "set" : "null");
		return -1;
	}
	block_num = blocks;
	return 0;
}

/* A kernel argument must be device memory (or null: an absent input). */
void fake_acl_launch_arg(const void *arg)
{
	struct handle *h = arg ? find_range(arg, 0) : NULL;

	trace("  arg %s%u", h ? "d" : arg ? "host:" : "null:", h ? h->id : 0);
	if (arg && !h)
		pending = fail(ACL_ERROR_RT_FAILURE, "kernel argument is not device memory");
}

void fake_acl_block(uint32_t idx)
{
	block_idx = idx;
}

void fake_acl_launch_done(void)
{
	clock_ms += step_ms;
	step_ms += 0.5f;
}

uint32_t fake_acl_block_idx(void)
{
	return block_idx;
}

uint32_t fake_acl_block_num(void)
{
	return block_num;
}

/* ---- aclnn tensors (aclnn/acl_meta.h) ------------------------------------ */

#include "aclnn/acl_meta.h"

#define MAX_DIMS 8
#define MAX_MEMBERS 64

struct aclTensor {
	unsigned id;
	aclDataType dtype;
	uint64_t rank;
	int64_t dims[MAX_DIMS];
	void *data;
	int in_list;
};

struct aclTensorList {
	unsigned id;
	uint64_t n;
	aclTensor *members[MAX_MEMBERS];
};

static unsigned next_tensor = 1;

static size_t dtype_size(aclDataType dt)
{
	switch (dt) {
	case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: return 4;
	case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
	case ACL_INT8: case ACL_UINT8: case ACL_BOOL: return 1;
	case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: return 8;
	default: return 0;
	}
}

/* A contiguous ND tensor in device memory, its storage shape its view
 * shape: what the generated programs must create. */
aclTensor *aclCreateTensor(const int64_t *dims, uint64_t rank, aclDataType dtype,
			   const int64_t *stride, int64_t offset, aclFormat format,
			   const int64_t *sdims, uint64_t srank, void *data)
{
	struct aclTensor *t;
	size_t numel = 1, esize = dtype_size(dtype);
	int64_t want = 1;
	char shape[128] = "";
	size_t used = 0;

	if (need_device("aclCreateTensor") != ACL_SUCCESS)
		return NULL;
	if (rank > MAX_DIMS || (rank && (!dims || !stride)) || srank != rank || !esize ||
	    offset != 0 || format != ACL_FORMAT_ND) {
		fail(ACL_ERROR_INVALID_PARAM, "aclCreateTensor: bad arguments");
		return NULL;
	}
	for (uint64_t d = rank; d-- > 0;) {
		if (stride[d] != want || sdims[d] != dims[d] || dims[d] < 0) {
			fail(ACL_ERROR_INVALID_PARAM, "aclCreateTensor: not contiguous ND");
			return NULL;
		}
		want *= dims[d];
		numel *= (size_t)dims[d];
	}
	if (numel && !find_range(data, numel * esize)) {
		fail(ACL_ERROR_INVALID_PARAM, "aclCreateTensor: data is not %zu bytes of device memory",
		     numel * esize);
		return NULL;
	}
	t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->id = next_tensor++;
	live_tensors++;
	t->dtype = dtype;
	t->rank = rank;
	memcpy(t->dims, dims, rank * sizeof *dims);
	t->data = data;
	for (uint64_t d = 0; d < rank && used + 24 < sizeof shape; d++)
		used += (size_t)snprintf(shape + used, sizeof shape - used, "%s%lld", d ? "," : "",
					 (long long)dims[d]);
	{
		struct handle *h = find_range(data, numel * esize);

		trace("aclCreateTensor t%u dtype=%d [%s] d%u+%zu", t->id, (int)dtype, shape,
		      h ? h->id : 0, h ? (size_t)((char *)data - (char *)h->ptr) : 0);
	}
	return t;
}

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size)
{
	struct aclTensorList *l;

	if (!value || size == 0 || size > MAX_MEMBERS) {
		fail(ACL_ERROR_INVALID_PARAM, "aclCreateTensorList: bad arguments");
		return NULL;
	}
	l = calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->id = next_tensor++;
	l->n = size;
	for (uint64_t i = 0; i < size; i++) {
		l->members[i] = (aclTensor *)value[i];
		l->members[i]->in_list = 1;
	}
	trace("aclCreateTensorList L%u of %llu", l->id, (unsigned long long)size);
	return l;
}

aclnnStatus aclDestroyTensor(const aclTensor *t)
{
	if (!t || t->in_list)
		return fail(ACL_ERROR_INVALID_PARAM, "aclDestroyTensor: %s",
			    t ? "the tensor belongs to a list" : "null");
	trace("aclDestroyTensor t%u", t->id);
	live_tensors--;
	free((void *)t);
	return ACL_SUCCESS;
}

aclnnStatus aclDestroyTensorList(const aclTensorList *l)
{
	if (!l)
		return fail(ACL_ERROR_INVALID_PARAM, "aclDestroyTensorList: null");
	trace("aclDestroyTensorList L%u", l->id);
	for (uint64_t i = 0; i < l->n; i++) {
		free(l->members[i]);
		live_tensors--;
	}
	free((void *)l);
	return ACL_SUCCESS;
}

/* For fake operator libraries (tests/data/fake_cann/opapi): what a tensor
 * is, checked against the device, and a queued kernel's passing time. */
int fake_acl_tensor(const aclTensor *t, int *dtype, int64_t *numel, void **data);
int fake_acl_tensor_list(const aclTensorList *l, uint64_t i, const aclTensor **member);
int fake_acl_stream_ok(void *stream);

int fake_acl_tensor(const aclTensor *t, int *dtype, int64_t *numel, void **data)
{
	int64_t n = 1;

	if (!t)
		return -1;
	for (uint64_t d = 0; d < t->rank; d++)
		n *= t->dims[d];
	*dtype = (int)t->dtype;
	*numel = n;
	*data = t->data;
	return 0;
}

int fake_acl_tensor_list(const aclTensorList *l, uint64_t i, const aclTensor **member)
{
	if (!l || i >= l->n)
		return -1;
	*member = l->members[i];
	return 0;
}

int fake_acl_stream_ok(void *stream)
{
	return find(STREAM, stream) != NULL;
}

int fake_acl_device_memory(const void *p, size_t n);
void fake_acl_note(const char *what);

int fake_acl_device_memory(const void *p, size_t n)
{
	return p && find_range(p, n) != NULL;
}

/* A fake operator library's calls go into the trace too. */
void fake_acl_note(const char *what)
{
	trace("%s", what);
}
