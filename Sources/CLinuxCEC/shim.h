#ifndef TENFOOT_CLINUXCEC_SHIM_H
#define TENFOOT_CLINUXCEC_SHIM_H
/*
 * The kernel CEC framework's ioctls (linux/cec.h). Swift cannot import the _IOWR request
 * macros, so each is wrapped here; no library is linked. Each returns ioctl's result (-1 with
 * errno set on failure).
 */
#include <linux/cec.h>
#include <sys/ioctl.h>
#include <string.h>
#include <errno.h>

/* Claims one logical address as a playback device (CEC 1.4), named `name` on the bus. */
static inline int tenfoot_cec_claim_playback(int fd, const char *name) {
  struct cec_log_addrs addrs;
  memset(&addrs, 0, sizeof addrs);
  addrs.cec_version = CEC_OP_CEC_VERSION_1_4;
  addrs.vendor_id = CEC_VENDOR_ID_NONE;
  addrs.num_log_addrs = 1;
  addrs.log_addr_type[0] = CEC_LOG_ADDR_TYPE_PLAYBACK;
  addrs.primary_device_type[0] = CEC_OP_PRIM_DEVTYPE_PLAYBACK;
  addrs.all_device_types[0] = CEC_OP_ALL_DEVTYPE_PLAYBACK;
  addrs.flags = CEC_LOG_ADDRS_FL_ALLOW_UNREG_FALLBACK;
  strncpy(addrs.osd_name, name, sizeof addrs.osd_name - 1);
  return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, &addrs);
}

/* Becomes the adapter's initiator and its follower (messages to us reach CEC_RECEIVE). */
static inline int tenfoot_cec_follow(int fd) {
  __u32 mode = CEC_MODE_INITIATOR | CEC_MODE_FOLLOWER;
  return ioctl(fd, CEC_S_MODE, &mode);
}

/* The adapter's capabilities: fails with ENOTTY on anything that is not a CEC device. */
static inline int tenfoot_cec_capabilities(int fd, struct cec_caps *caps) {
  return ioctl(fd, CEC_ADAP_G_CAPS, caps);
}

/*
 * Waits up to `timeout_ms` (0: forever) for one received message; copies its bytes (at most
 * CEC_MAX_MSG_SIZE) to `bytes`, its length to `*length` and its receive time (CLOCK_MONOTONIC
 * nanoseconds) to `*timestamp`. Transmit results (our own messages' outcome) are skipped by
 * returning 0 with `*length` 0.
 */
static inline int tenfoot_cec_receive(int fd, __u32 timeout_ms, __u8 *bytes, __u32 *length,
                                      __u64 *timestamp) {
  struct cec_msg msg;
  memset(&msg, 0, sizeof msg);
  msg.timeout = timeout_ms;
  int result = ioctl(fd, CEC_RECEIVE, &msg);
  if (result < 0) return result;
  if (cec_msg_recv_is_tx_result(&msg)) {
    *length = 0;
    return 0;
  }
  *length = msg.len > CEC_MAX_MSG_SIZE ? CEC_MAX_MSG_SIZE : msg.len;
  memcpy(bytes, msg.msg, *length);
  *timestamp = msg.rx_ts;
  return 0;
}
#endif
