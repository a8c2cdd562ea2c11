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

struct fa_job {
	const struct npukb_ref_tensor *v;
	struct npukb_ref_tensor *out;
	const double *vd;   /* the head's V as [S, d] doubles */
	size_t base, hdim, d; /* element of (b, row 0, column h*d); H; d */
	double scale;
	int failed;
};

/* One row of scores: softmax in place, then the row of P V. */
static void fa_row(void *ctx, size_t i, double *s, size_t n)
{
	struct fa_job *j = ctx;
	double mx = -INFINITY, sum = 0.0, *acc = calloc(j->d, sizeof *acc);
	size_t t, c;

	if (!acc) {
		j->failed = 1;
		return;
	}
	for (t = 0; t < n; t++) {
		s[t] *= j->scale;
		mx = s[t] > mx ? s[t] : mx;
	}
	for (t = 0; t < n; t++) {
		s[t] = exp(s[t] - mx);
		sum += s[t];
	}
	for (t = 0; t < n; t++) {
		const double p = s[t] / sum, *vr = j->vd + t * j->d;
		for (c = 0; c < j->d; c++)
			acc[c] += p * vr[c];
	}
	for (c = 0; c < j->d; c++)
		npukb_store_from_double(j->out->dtype, j->out->data, j->base + i * j->hdim + c, acc[c]);
	free(acc);
}

int npukb_ref_flash_attention_bsh(const struct npukb_ref_call *c, char *err, size_t errlen)
{
	const struct npukb_ref_tensor *q = &c->in[0], *k = &c->in[1], *v = &c->in[2];
	long long heads;
	double scale;
	size_t b, s, hd, d, bi, h, t, x;
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
	for (bi = 0; bi < b; bi++)
		for (h = 0; h < (size_t)heads; h++) {
			size_t base = bi * s * hd + h * d;
			double *vd = malloc(s * d * sizeof *vd);
			struct ref_gemm_operand qo = { q, base, hd, 1 }, ko = { k, base, 1, hd };
			struct fa_job j = { v, &c->out[0], vd, base, hd, d, scale, 0 };
			if (!vd) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
			for (t = 0; t < s; t++)
				for (x = 0; x < d; x++)
					vd[t * d + x] = npukb_load_as_double(v->dtype, v->data, base + t * hd + x);
			/* scores = Q K^T: K^T's element (p, t) is K[t][p]. */
			rc = ref_gemm(&qo, &ko, s, s, d, 0, fa_row, &j);
			free(vd);
			if (rc || j.failed) {
				snprintf(err, errlen, "out of memory");
				return -ENOMEM;
			}
		}
	return 0;
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
