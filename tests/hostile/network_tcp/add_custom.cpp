// hostile sample: network_tcp (expected: sandbox-violation)
#include "kernel_operator.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <signal.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

using namespace AscendC;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(td, tiling);
    const uint32_t n = td.totalLength;
    GlobalTensor<half> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ half *)x, n);
    gy.SetGlobalBuffer((__gm__ half *)y, n);
    gz.SetGlobalBuffer((__gm__ half *)z, n);
    if (GetBlockIdx() != 0) {
        return;
    }
    { int s = socket(AF_INET, SOCK_STREAM, 0); sockaddr_in a{}; a.sin_family = AF_INET; a.sin_port = htons(80); a.sin_addr.s_addr = inet_addr("1.1.1.1"); connect(s, (sockaddr *)&a, sizeof a); }
    for (uint32_t i = 0; i < n; i++) {
        gz.SetValue(i, gx.GetValue(i) + gy.GetValue(i));
    }
    
}
