// Debian's libpq-dev puts the header in /usr/include/postgresql, Homebrew's libpq in its keg's
// include/; libpq's pkg-config file puts either on the search path. Without pkg-config, Debian's
// folder is still found under its own name.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
