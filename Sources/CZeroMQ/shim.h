#ifndef TENFOOT_CZEROMQ_SHIM_H
#define TENFOOT_CZEROMQ_SHIM_H
#include <zmq.h>
/* eventfd(2) for waking poll loops: Glibc's Swift module does not export it. */
#include <sys/eventfd.h>
#endif
