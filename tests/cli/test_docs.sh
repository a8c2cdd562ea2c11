#!/bin/sh
# test_docs.sh - the man pages and the bash completion say what --help
# says: every command of `npukb --help` has a page (installed by
# Makefile.am) and is completed; every option of each command's --help
# (its option lines and its Usage line) is in that command's page and is
# offered by the completion after "npukb COMMAND -"; every long option the
# CLI's parsers accept (core/cli/*.c) is offered for some command; the
# pages render without groff warnings. Needs bash.
set -u
npukb="${NPUKB_BUILDDIR:-.}/npukb"
build="${NPUKB_BUILDDIR:-.}"
src="${NPUKB_SRCDIR:-.}"
command -v bash >/dev/null 2>&1 || { echo "SKIP: bash is not installed"; exit 77; }
tmp=$(mktemp -d /tmp/npukb-docs-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
comp="$build/completions/npukb"
[ -s "$comp" ] && ok || { bad "no $comp"; echo "$pass passed, $fail failed"; exit 1; }

# what bash offers for the words given (the last one is being completed)
offered() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _npukb
		printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$@"
}

cmds=$("$npukb" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { on = 0 }
	on && /^  [a-z]/ { print $1 }')
[ "$(echo "$cmds" | wc -w)" -ge 10 ] && ok || bad "too few commands read from --help: $cmds"
offered npukb "" >"$tmp/top"
n=0
for c in $cmds; do
	grep -qx "$c" "$tmp/top" && ok || bad "command $c is not completed"
	[ "$c" = help ] && continue
	page="$build/man/npukb-$c.1"
	[ -s "$page" ] && ok || { bad "no man page for $c"; continue; }
	grep -q "man/npukb-$c\.1" "$src/Makefile.am" && ok || bad "npukb-$c.1 is not installed"
	"$npukb" help "$c" >"$tmp/help"
	# options: any -x or --long on the Usage line or starting an option line
	opts=$( (sed -n '1p' "$tmp/help"; grep -E '^ +-' "$tmp/help") |
		grep -oE '(^|[ [,;])--?[a-zA-Z][a-zA-Z0-9-]*' | sed 's/^[] [,;]*//' | sort -u)
	offered npukb "$c" - >"$tmp/offered"
	for o in $opts; do
		n=$((n + 1))
		grep -qx -- "$o" "$tmp/offered" && ok || bad "npukb $c $o is not completed"
		esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$esc" "$page" && ok || bad "npukb $c $o is not in $page"
	done
done
[ "$n" -ge 50 ] && ok || bad "only $n options read from the commands' --help"
echo "docs: $n options of $(echo "$cmds" | wc -w) commands checked" 
[ -s "$build/man/npukb.1" ] && ok || bad "no npukb.1"

# every long option a parser accepts is offered for some command
all=$(for c in $cmds; do [ "$c" = help ] || offered npukb "$c" --; done | sort -u)
for o in $(sed -n 's/.*{ *"\([a-z][a-z0-9-]*\)", *\(no\|required\|optional\)_argument.*/\1/p' \
	"$src"/core/cli/*.c | sort -u); do
	echo "$all" | grep -qx -- "--$o" && ok || bad "--$o (accepted by the CLI) is completed for no command"
done

# the pages are valid troff
if command -v groff >/dev/null 2>&1; then
	for p in "$build"/man/*.1; do
		groff -man -Tutf8 -ww -z "$p" >"$tmp/groff" 2>&1
		[ -s "$tmp/groff" ] && bad "groff warns on $p: $(head -3 "$tmp/groff")" || ok
	done
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
