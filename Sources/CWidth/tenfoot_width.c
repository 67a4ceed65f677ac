#define _GNU_SOURCE
#include "tenfoot_width.h"

#include <locale.h>
#include <pthread.h>
#include <wchar.h>

static locale_t utf8_locale = (locale_t)0;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void load_utf8_locale(void) {
  static const char *const names[] = {"C.UTF-8", "C.utf8", "en_US.UTF-8", "en_US.utf8"};
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
    utf8_locale = newlocale(LC_CTYPE_MASK, names[i], (locale_t)0);
    if (utf8_locale != (locale_t)0) return;
  }
}

int tenfoot_wcwidth(uint32_t scalar) {
  pthread_once(&utf8_once, load_utf8_locale);
  if (utf8_locale == (locale_t)0) return -2;
  locale_t previous = uselocale(utf8_locale);
  int width = wcwidth((wchar_t)scalar);
  uselocale(previous);
  return width;
}
