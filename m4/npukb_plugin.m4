dnl npukb_plugin.m4 - npukb's own autoconf macros.
dnl
dnl NPUKB_PLUGIN(name, default, description)
dnl One configure switch per plugin (collectd's AC_PLUGIN idea, kept small):
dnl   --enable-NAME / --disable-NAME    (default: DEFAULT, yes or no)
dnl   AM_CONDITIONAL BUILD_PLUGIN_NAME  (upper case, '-' -> '_'), which
dnl                                     guards the plugin's block in Makefile.am
dnl   enable_name                       the shell variable ('-' -> '_'), for a
dnl                                     dependency check after the switch
dnl and appends NAME to $npukb_plugins when the plugin is built.
dnl Example: NPUKB_PLUGIN([backend-cpusim], [yes], [cpusim backend])
dnl gives --disable-backend-cpusim, BUILD_PLUGIN_BACKEND_CPUSIM and
dnl $enable_backend_cpusim.
AC_DEFUN([NPUKB_PLUGIN], [
  AC_ARG_ENABLE([$1],
    [AS_HELP_STRING([--disable-$1], [do not build the $3 plugin])],
    [], [enable_[]m4_translit([$1], [-], [_])=$2])
  AM_CONDITIONAL([BUILD_PLUGIN_]m4_translit(m4_toupper([$1]), [-], [_]),
    [test "x$enable_[]m4_translit([$1], [-], [_])" = xyes])
  AS_IF([test "x$enable_[]m4_translit([$1], [-], [_])" = xyes],
    [npukb_plugins="$npukb_plugins $1"])
])
