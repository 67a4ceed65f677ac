#ifndef TENFOOT_CSODIUM_SHIM_H
#define TENFOOT_CSODIUM_SHIM_H
/* libsodium: HMAC-SHA256 and random bytes for pairing. libzmq already links it for CURVE. */
#include <sodium.h>
#endif
