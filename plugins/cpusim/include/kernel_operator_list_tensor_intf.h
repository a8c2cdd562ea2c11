/* kernel_operator_list_tensor_intf.h - the header CANN documents for
 * ListTensorDesc; kernel_operator.h already provides it. */
#include "kernel_operator.h"
