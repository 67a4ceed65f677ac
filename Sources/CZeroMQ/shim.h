#ifndef TENFOOT_CZEROMQ_SHIM_H
#define TENFOOT_CZEROMQ_SHIM_H
#include <zmq.h>
#endif
