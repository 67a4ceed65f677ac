#ifndef TENFOOT_CAVAHI_SHIM_H
#define TENFOOT_CAVAHI_SHIM_H
/* Avahi's native client API (libavahi-client, over D-Bus to avahi-daemon): DNS-SD announcement
   and browsing for the broker (`_tenfoot._tcp`). Chosen over the dns_sd compatibility layer
   because its resolver hands back the service's address (the compat layer gives a host name
   that needs nss-mdns to resolve), reports "daemon not running" as its own error code, and
   does not print the compat layer's warning on every start. */
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/address.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/simple-watch.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#endif
