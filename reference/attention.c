/* attention.c - Level 3's attention references, in double.
 *
 * flash_attention_bsh: query, key, value [B, S, H] in BSH layout with
 * head_num heads of d = H / head_num: for each batch b and head h, with
 * Q, K, V the [S, d] slices of columns h*d .. h*d + d - 1,
 * out = softmax(Q K^T * scale_value) V (softmax along each row of the
 * S x S scores), written to the same columns of out [B, S, H]. The scores
 * come from the GEMM core (gemm.h); each row's softmax and its product with
 * V are done as the core hands the row out.
 *
 * mla: multi-head latent attention over a paged cache, one sequence per
 * batch entry of q_seqlen query tokens and kv_seqlen cached tokens: query
 * = [query_nope, query_rope] (dnope + drope columns), the cached key =
 * [kv_nope, kv_rope] and the value = kv_nope; token j of batch b is in
 * block block_tables[b][j / block_size] at row j % block_size. For each
 * query token and head n (kv head n / (heads / kv_heads)): out =
 * softmax(q k^T / sqrt(dnope + drope)) v over the batch's kv_seqlen tokens. */
#include "gemm.h"
#include "ref_util.h"

#include <math.h>

/* Rows of queries at a time: their probabilities (ROWS x S doubles, 8 MiB
 * at S = 4096) are kept for the second product. */
#define FA_ROWS 256

struct fa_job {
	double *p;            /* FA_ROWS x S probabilities */
	struct npukb_ref_tensor *out;
	size_t base, hdim;    /* out element of the block's (row 0, column 0); H */
	double scale;
};

/* Row t's d values from element base of a [.., H] tensor, into dst (dst[c *
 * step] for column c). */
static void fa_load_row(const struct npukb_ref_tensor *x, size_t base, size_t d, double *dst, size_t step)
{
	double buf[REF_BLOCK];
	size_t c0, c;

	for (c0 = 0; c0 < d; c0 += REF_BLOCK) {
		const size_t len = d - c0 < REF_BLOCK ? d - c0 : REF_BLOCK;
		ref_load_block(x, base + c0, len, buf);
		for (c = 0; c < len; c++)
			dst[(c0 + c) * step] = buf[c];
	}
}

/* One row of scores: its softmax into the row of P. */
static void fa_softmax(void *ctx, size_t i, double *s, size_t n)
{
	const struct fa_job *j = ctx;
	double mx = -INFINITY, sum = 0.0, *p = j->p + i * n;
	size_t t;

	for (t = 0; t < n; t++) {
		s[t] *= j->scale;
		mx = s[t] > mx ? s[t] : mx;
	}
	for (t = 0; t < n; t++) {
		s[t] = exp(s[t] - mx);
		sum += s[t];
	}
	for (t = 0; t < n; t++)
		p[t] = s[t] / sum;
}

/* One row of P V into the head's columns of out. */
static void fa_store(void *ctx, size_t i, double *row, size_t d)
{
	const struct fa_job *j = ctx;
	size_t c;
	for (c = 0; c < d; c++)
		npukb_store_from_double(j->out->dtype, j->out->data, j->base + i * j->hdim + c, row[c]);
}

int npukb_ref_flash_attention_bsh(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *q = &c->in[0], *k = &c->in[1], *v = &c->in[2];
	struct npukb_ref_tensor pt = { 0 }, kt = { 0 }, vt = { 0 };
	long long heads;
	double scale;
	size_t b, s, hd, d, bi, h, r0;
	int rc;

	if ((rc = ref_attr_int(c, "head_num", &heads, err, errlen)) ||
	    (rc = ref_attr_double(c, "scale_value", &scale, err, errlen)))
		return rc;
	if (q->shape.rank != 3 || k->numel != q->numel || v->numel != q->numel ||
	    c->out[0].numel != q->numel || heads <= 0 || q->shape.dims[2] % heads) {
		snprintf(err, errlen, "query, key, value and out must be [B, S, H] with H a multiple of head_num");
		return -EINVAL;
	}
	b = (size_t)q->shape.dims[0];
	s = (size_t)q->shape.dims[1];
	hd = (size_t)q->shape.dims[2];
	d = hd / (size_t)heads;
	pt.name = "P";
	pt.dtype = NPUKB_DT_FLOAT64;
	pt.data = malloc(FA_ROWS * (s ? s : 1) * sizeof(double));
	/* The head's K^T (d x S) and V (S x d) as doubles, converted once per
	 * head: as tensor operands the GEMM core would convert them again for
	 * every block of rows (the same values either way). */
	kt.name = "K^T";
	vt.name = "V";
	kt.dtype = vt.dtype = NPUKB_DT_FLOAT64;
	kt.data = malloc((s * d > 0 ? s * d : 1) * sizeof(double));
	vt.data = malloc((s * d > 0 ? s * d : 1) * sizeof(double));
	if (!pt.data || !kt.data || !vt.data) {
		free(pt.data);
		free(kt.data);
		free(vt.data);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (bi = 0; bi < b && !rc; bi++)
		for (h = 0; h < (size_t)heads && !rc; h++) {
			const size_t head = bi * s * hd + h * d;
			size_t t;
			for (t = 0; t < s; t++) {
				fa_load_row(k, head + t * hd, d, (double *)kt.data + t, s);
				fa_load_row(v, head + t * hd, d, (double *)vt.data + t * d, 1);
			}
			for (r0 = 0; r0 < s && !rc; r0 += FA_ROWS) {
				const size_t rows = s - r0 < FA_ROWS ? s - r0 : FA_ROWS;
				struct fa_job j = { pt.data, &c->out[0], head + r0 * hd, hd, scale };
				/* scores = Q K^T, then P V. */
				struct ref_gemm_operand qo = { q, head + r0 * hd, hd, 1 }, ko = { &kt, 0, s, 1 },
							po = { &pt, 0, s, 1 }, vo = { &vt, 0, d, 1 };
				rc = ref_gemm(&qo, &ko, rows, s, d, 0, fa_softmax, &j);
				if (!rc)
					rc = ref_gemm(&po, &vo, rows, d, s, 0, fa_store, &j);
			}
		}
	free(pt.data);
	free(kt.data);
	free(vt.data);
	if (rc)
		snprintf(err, errlen, "out of memory");
	return rc;
}

int npukb_ref_mla(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *qn = &c->in[0], *qr = &c->in[1], *kn = &c->in[2],
				      *kr = &c->in[3], *bt = &c->in[4];
	struct npukb_ref_tensor *o = &c->out[0];
	long long qlen, klen;
	size_t tokens, heads, dn, dr, blocks, bsz, kvh, batch, mb, b, t, n, j, x;
	double scale, *sc, *acc;
	int rc;

	if ((rc = ref_attr_int(c, "q_seqlen", &qlen, err, errlen)) ||
	    (rc = ref_attr_int(c, "kv_seqlen", &klen, err, errlen)))
		return rc;
	if (qn->shape.rank != 3 || qr->shape.rank != 3 || kn->shape.rank != 4 ||
	    kr->shape.rank != 4 || bt->shape.rank != 2) {
		snprintf(err, errlen, "query_nope/rope [T, N, d], kv caches [blocks, block_size, kv_heads, d], block_tables [batch, blocks per sequence]");
		return -EINVAL;
	}
	tokens = (size_t)qn->shape.dims[0];
	heads = (size_t)qn->shape.dims[1];
	dn = (size_t)qn->shape.dims[2];
	dr = (size_t)qr->shape.dims[2];
	blocks = (size_t)kn->shape.dims[0];
	bsz = (size_t)kn->shape.dims[1];
	kvh = (size_t)kn->shape.dims[2];
	batch = (size_t)bt->shape.dims[0];
	mb = (size_t)bt->shape.dims[1];
	if (qlen < 1 || klen < 1 || tokens != batch * (size_t)qlen || kvh == 0 || heads % kvh ||
	    (size_t)kn->shape.dims[3] != dn || (size_t)kr->shape.dims[3] != dr ||
	    (size_t)kr->shape.dims[0] != blocks || (size_t)kr->shape.dims[1] != bsz ||
	    (size_t)kr->shape.dims[2] != kvh || (size_t)qr->shape.dims[1] != heads ||
	    mb * bsz < (size_t)klen || o->numel != tokens * heads * dn) {
		snprintf(err, errlen, "the shapes of the MLA inputs do not fit together");
		return -EINVAL;
	}
	scale = 1.0 / sqrt((double)(dn + dr));
	sc = malloc((size_t)klen * sizeof *sc);
	acc = malloc(dn * sizeof *acc);
	if (!sc || !acc) {
		free(sc);
		free(acc);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (b = 0; b < batch; b++)
		for (t = b * (size_t)qlen; t < (b + 1) * (size_t)qlen; t++)
			for (n = 0; n < heads; n++) {
				size_t kh = n / (heads / kvh);
				double mx = -INFINITY, sum = 0.0;
				for (j = 0; j < (size_t)klen; j++) {
					int64_t blk = ref_load_i64(bt, b * mb + j / bsz);
					size_t row;
					double s = 0.0;
					if (blk < 0 || (size_t)blk >= blocks) {
						free(sc);
						free(acc);
						snprintf(err, errlen, "block_tables[%zu][%zu] = %lld is no block", b,
							 j / bsz, (long long)blk);
						return -EINVAL;
					}
					row = ((size_t)blk * bsz + j % bsz) * kvh + kh;
					for (x = 0; x < dn; x++)
						s += npukb_load_as_double(qn->dtype, qn->data, (t * heads + n) * dn + x) *
						     npukb_load_as_double(kn->dtype, kn->data, row * dn + x);
					for (x = 0; x < dr; x++)
						s += npukb_load_as_double(qr->dtype, qr->data, (t * heads + n) * dr + x) *
						     npukb_load_as_double(kr->dtype, kr->data, row * dr + x);
					sc[j] = s * scale;
					mx = sc[j] > mx ? sc[j] : mx;
				}
				for (x = 0; x < dn; x++)
					acc[x] = 0.0;
				for (j = 0; j < (size_t)klen; j++) {
					sc[j] = exp(sc[j] - mx);
					sum += sc[j];
				}
				for (j = 0; j < (size_t)klen; j++) {
					int64_t blk = ref_load_i64(bt, b * mb + j / bsz);
					size_t row = ((size_t)blk * bsz + j % bsz) * kvh + kh;
					for (x = 0; x < dn; x++)
						acc[x] += sc[j] / sum *
							  npukb_load_as_double(kn->dtype, kn->data, row * dn + x);
				}
				for (x = 0; x < dn; x++)
					npukb_store_from_double(o->dtype, o->data, (t * heads + n) * dn + x, acc[x]);
			}
	free(sc);
	free(acc);
	return 0;
}
