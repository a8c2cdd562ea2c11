// Test sample (host+device): the add_custom sample's kernel, followed by a
// host launch wrapper in CCE's syntax, which g++ does not parse: cpusim
// compiles a rewritten copy whose lines and file name are the original's.
#include "../../add_custom/op_kernel/add_custom.cpp"

#ifndef __CCE_KT_TEST__
void add_custom_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y, uint8_t *z,
                   uint8_t *workspace, uint8_t *tiling)
{
    add_custom
        <<<blockDim, l2ctrl,
           stream>>>(x, y, z, workspace, tiling);
}
#endif

/* Not launches: add_custom<<<1, 2, 3>>>(x) */
[[maybe_unused]] static const char *const npukb_not_a_launch = "add_custom<<<1, 2, 3>>>(x)";
static_assert(sizeof("add_custom<<<1, 2, 3>>>(x)") == 27, "string literals are left alone");

// Diagnostics and check reports name the original file and line.
constexpr bool FileIsOriginal(const char *file)
{
    const char want[] = "op_kernel/add_custom.cpp";
    unsigned n = 0, m = sizeof(want) - 1;
    while (file[n])
        n++;
    for (; m > 0; n--, m--)
        if (n == 0 || file[n - 1] != want[m - 1])
            return false;
    return true;
}
static_assert(FileIsOriginal(__FILE__), "the rewritten copy keeps the original's name");
static_assert(__LINE__ == 33, "the rewritten copy keeps every line where it was");
