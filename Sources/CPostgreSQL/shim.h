// Debian's libpq-dev puts the header in /usr/include/postgresql, Homebrew's libpq in its keg's
// include/; both are on the search path through libpq's pkg-config file.
#include <libpq-fe.h>
