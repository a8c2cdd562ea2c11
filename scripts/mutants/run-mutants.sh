#!/bin/sh
# run-mutants.sh - mutation testing of npukb's verdict paths (`make mutants`).
#
# Usage: run-mutants.sh [-n] [SRCDIR]
#   -n       only check that every mutant still applies (no build, no tests)
#   SRCDIR   the source tree (default: the folder above scripts/)
# Environment:
#   MUTANTS          space-separated mutant ids to run (default: all)
#   MUTANTS_WORKDIR  where the copy of the tree goes (default: a fresh
#                    /tmp/npukb-mutants-XXXXXX, removed at the end); a copy
#                    already built there is reused as it is
#   MUTANTS_MIN      the score below which the script exits 1 (default 95)
#
# The tree is copied (never edited in place), configured and built once;
# the tests of all selected mutants must pass on the unmutated copy. Then
# each mutant of scripts/mutants/mutants.list is applied alone, the copy
# rebuilt incrementally, its tests run, and the file restored. A mutant is
# caught when one of its tests fails. A mutant whose tests already fail on
# the unmutated copy (a flaky or broken test) is "unjudged": left out of
# the score and named. Prints one line per mutant and the score; survivors
# are listed with their written reason, if any. Exit 0 only when nothing
# is stale, unjudged or unbuildable and the score reaches MUTANTS_MIN.
set -u
check_only=0
if [ "${1:-}" = "-n" ]; then
	check_only=1
	shift
fi
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:-$here/../..}" && pwd) || exit 2
list="$src/scripts/mutants/mutants.list"
min=${MUTANTS_MIN:-95}
command -v perl >/dev/null || { echo "run-mutants: perl is needed" >&2; exit 2; }

# The blocks of the list as one tab-separated record per mutant:
# id, file, tests, old, new, survives.
records() {
	awk '
	function flush() {
		if (id != "")
			printf "%s\t%s\t%s\t%s\t%s\t%s\n", id, file, tests, old, new, why
		id = file = tests = old = new = why = ""
	}
	/^#/ || /^[ \t]*$/ { flush(); next }
	{
		key = $1
		val = substr($0, length(key) + 2)
		if (key == "mutant") { flush(); id = val }
		else if (key == "file") file = val
		else if (key == "tests") tests = val
		else if (key == "old") old = val
		else if (key == "new") new = val
		else if (key == "survives") why = val
		else { printf "mutants.list:%d: unknown key %s\n", NR, key > "/dev/stderr"; exit 2 }
	}
	END { flush() }' "$list"
}

selected() { # id
	[ -z "${MUTANTS:-}" ] && return 0
	for m in $MUTANTS; do
		[ "$m" = "$1" ] && return 0
	done
	return 1
}

# Replaces the one occurrence of OLD by NEW in FILE (both from the
# environment, taken literally); exit 3 when OLD is not there exactly once.
apply() { # file
	perl -e '
		my ($f, $old, $new) = ($ARGV[0], $ENV{MUT_OLD}, $ENV{MUT_NEW});
		open(my $in, "<", $f) or exit 4;
		local $/; my $s = <$in>; close($in);
		my $n = () = $s =~ /\Q$old\E/g;
		exit 3 if $n != 1;
		my $at = index($s, $old);
		substr($s, $at, length($old)) = $new;
		open(my $out, ">", $f) or exit 4;
		print $out $s; close($out) or exit 4;' "$1"
}

tab=$(printf '\t')
all=$(records) || exit 2
[ -n "$all" ] || { echo "run-mutants: no mutants in $list" >&2; exit 2; }

if [ "$check_only" -eq 1 ]; then
	bad=0
	tmpf=$(mktemp)
	echo "$all" | while IFS="$tab" read -r id file tests old new why; do
		selected "$id" || continue
		cp "$src/$file" "$tmpf" 2>/dev/null || { echo "stale    $id: no $file"; echo x >>"$tmpf.bad"; continue; }
		if MUT_OLD=$old MUT_NEW=$new apply "$tmpf"; then
			echo "applies  $id"
		else
			echo "stale    $id: '$old' not exactly once in $file"
			echo x >>"$tmpf.bad"
		fi
	done
	[ -s "$tmpf.bad" ] && bad=1
	rm -f "$tmpf" "$tmpf.bad"
	exit $bad
fi

work=${MUTANTS_WORKDIR:-}
if [ -z "$work" ]; then
	work=$(mktemp -d /tmp/npukb-mutants-XXXXXX) || exit 2
	trap 'rm -rf "$work"' EXIT
fi
tree="$work/tree"
log="$work/log"
mkdir -p "$tree" "$log"

if [ -f "$tree/Makefile" ]; then
	echo "run-mutants: reusing the copy in $tree"
	cd "$tree" || exit 2
else
	echo "run-mutants: copying $src to $tree"
	(cd "$src" && git ls-files -z --cached --others --exclude-standard) |
		(cd "$src" && tar --null -T - -cf -) | tar -xf - -C "$tree" || exit 2
	cd "$tree" || exit 2
	echo "run-mutants: building the copy (log: $log/build.log)"
	if ! { ./autogen.sh && ./configure && make -j2; } >"$log/build.log" 2>&1; then
		tail -20 "$log/build.log"
		echo "run-mutants: the unmutated copy does not build" >&2
		exit 2
	fi
fi

alltests=$(echo "$all" | while IFS="$tab" read -r id file tests old new why; do
	selected "$id" && echo "$tests"
done | tr ' ' '\n' | sort -u)
broken=""
for t in $alltests; do
	if ! make check TESTS="$t" >"$log/baseline.$(basename "$t").log" 2>&1; then
		echo "run-mutants: $t fails on the unmutated copy: its mutants are unjudged"
		broken="$broken $t"
	fi
done

caught=0 survived=0 stale=0 invalid=0
survivors=""
results="$work/results"
: >"$results"
echo "$all" | while IFS="$tab" read -r id file tests old new why; do
	selected "$id" || continue
	t0=$(date +%s)
	for t in $tests; do
		case " $broken " in
		*" $t "*)
			echo "unjudged $id $why" >>"$results"
			printf '%-9s %s: %s fails without the mutant\n' unjudged "$id" "$t"
			continue 2
			;;
		esac
	done
	cp -p "$file" "$work/orig" || { echo "stale $id" >>"$results"; printf '%-9s %s: no %s\n' stale "$id" "$file"; continue; }
	if ! MUT_OLD=$old MUT_NEW=$new apply "$file"; then
		echo "stale $id" >>"$results"
		printf '%-9s %s: the old text is not exactly once in %s\n' stale "$id" "$file"
		continue
	fi
	if ! make -j2 >"$log/$id.build" 2>&1; then
		status=invalid
	elif make check TESTS="$tests" >"$log/$id.check" 2>&1; then
		status=survived
	else
		status=caught
	fi
	cp "$work/orig" "$file"
	touch "$file" # newer than the mutant's objects: the next build redoes them
	echo "$status $id $why" >>"$results"
	printf '%-9s %s (%ss: %s)\n' "$status" "$id" $(($(date +%s) - t0)) "$tests"
done

caught=$(grep -c '^caught ' "$results")
survived=$(grep -c '^survived ' "$results")
stale=$(grep -c '^stale ' "$results")
invalid=$(grep -c '^invalid ' "$results")
unjudged=$(grep -c '^unjudged ' "$results")
judged=$((caught + survived))
echo
echo "mutants: $caught caught, $survived survived, $stale stale, $invalid do not build, $unjudged unjudged"
if [ "$survived" -gt 0 ]; then
	echo "survivors:"
	grep '^survived ' "$results" | while read -r _ id why; do
		echo "  $id: ${why:-NO REASON WRITTEN: add a test or a 'survives' line}"
	done
fi
if [ "$judged" -eq 0 ]; then
	echo "mutation score: nothing judged"
	exit 1
fi
score=$((100 * caught / judged))
echo "mutation score: $caught/$judged = $score% (floor $min%)"
[ "$stale" -eq 0 ] && [ "$invalid" -eq 0 ] && [ "$unjudged" -eq 0 ] && [ "$score" -ge "$min" ]
