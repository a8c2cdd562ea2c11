/* dt_macros_push.h - hides the DT_* macros from the host headers that
 * follow, until dt_macros_pop.h. No include guard: every host header that
 * names ge::DataType's enumerators wraps itself in the pair.
 *
 * A kernel build defines DT_FLOAT, DT_FLOAT16, ... as numbers, as CANN's
 * kernel_type.h does, for `#if ORIG_DTYPE_X == DT_FLOAT` (cpusim's forced
 * header). A kernel translation unit that also includes a host header
 * (tiling/tiling_api.h, platform_ascendc.h: .asc files and kernel-launch
 * projects do) would otherwise see `enum DataType { 0 = 0, ... }`. The
 * macros are pushed, not dropped: the kernel's #if tests after the host
 * header still see them. */
#pragma push_macro("DT_FLOAT")
#undef DT_FLOAT
#pragma push_macro("DT_FLOAT16")
#undef DT_FLOAT16
#pragma push_macro("DT_INT8")
#undef DT_INT8
#pragma push_macro("DT_INT32")
#undef DT_INT32
#pragma push_macro("DT_UINT8")
#undef DT_UINT8
#pragma push_macro("DT_INT16")
#undef DT_INT16
#pragma push_macro("DT_UINT16")
#undef DT_UINT16
#pragma push_macro("DT_UINT32")
#undef DT_UINT32
#pragma push_macro("DT_INT64")
#undef DT_INT64
#pragma push_macro("DT_UINT64")
#undef DT_UINT64
#pragma push_macro("DT_DOUBLE")
#undef DT_DOUBLE
#pragma push_macro("DT_BOOL")
#undef DT_BOOL
#pragma push_macro("DT_STRING")
#undef DT_STRING
#pragma push_macro("DT_COMPLEX64")
#undef DT_COMPLEX64
#pragma push_macro("DT_COMPLEX128")
#undef DT_COMPLEX128
#pragma push_macro("DT_BF16")
#undef DT_BF16
#pragma push_macro("DT_UNDEFINED")
#undef DT_UNDEFINED
#pragma push_macro("DT_INT4")
#undef DT_INT4
#pragma push_macro("DT_MAX")
#undef DT_MAX
