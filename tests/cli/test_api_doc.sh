#!/bin/sh
# test_api_doc.sh - plugins/cpusim/API.md stays true to the emulation:
# every API row marked emulated or partial names an identifier that the
# emulation headers (plugins/cpusim/include, comments stripped) declare or
# use in code; every emulated row names what exercises it, a test or
# answer that exists; every status is one of the three; and the coverage
# figures (the summary table, per family and overall, and the "Overall:"
# line) equal the counts of the table rows.
# The checker is also run on two copies of API.md broken on purpose (a
# missing API marked emulated; one summary count changed), which it must
# reject, so a checker that cannot fail fails this test.
set -u
src="${NPUKB_SRCDIR:-.}"
doc="$src/plugins/cpusim/API.md"
inc="$src/plugins/cpusim/include"
cxx="${CXX:-g++}"
command -v "$cxx" >/dev/null 2>&1 || { echo "SKIP: no C++ compiler ($cxx) to strip comments"; exit 77; }
tmp=$(mktemp -d /tmp/npukb-apidoc-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

[ -s "$doc" ] && ok || { bad "no $doc"; echo "$pass passed, $fail failed"; exit 1; }

# The words of the headers' code: the preprocessor drops the comments (a
# name mentioned only in a comment is not emulated); -fpreprocessed keeps
# the macros unexpanded and the includes unread.
find "$inc" -type f -name '*.h' | sort | while read -r h; do
	"$cxx" -x c++ -fpreprocessed -dD -E -P "$h" 2>/dev/null
done | tr -cs 'A-Za-z0-9_' '\n' | sort -u >"$tmp/words"
[ "$(wc -l <"$tmp/words")" -ge 1000 ] && ok || bad "too few words read from $inc: $(wc -l <"$tmp/words")"
grep -qx 'DataCopy' "$tmp/words" && ok || bad "DataCopy is not among the headers' words"

# check FILE: prints one line per problem, nothing when FILE is consistent.
check() {
	awk -v words="$tmp/words" '
	BEGIN { while ((getline w < words) > 0) declared[w] = 1 }
	function trim(s) { gsub(/^ +| +$/, "", s); return s }
	/^## / { fam = "" }
	/^### F[0-9]+\. / { fam = $2; sub(/\.$/, "", fam); order[++nf] = fam; seen[fam] = 1; next }
	/^\| (F[0-9]+|all) \|/ {
		n = split($0, c, "|")
		k = trim(c[2]); sum[k] = 1
		se[k] = trim(c[4]); sp[k] = trim(c[5]); sm[k] = trim(c[6]); st[k] = trim(c[7])
		s1[k] = trim(c[8]); s2[k] = trim(c[9])
		next
	}
	fam != "" && /^\| / && !/^\| API \|/ && !/^\| --- / {
		n = split($0, c, "|")
		api = c[2]; status = trim(c[3]); note = c[4]
		rows++
		if (status != "emulated" && status != "partial" && status != "missing") {
			print "F: bad status \"" status "\" in: " $0; next
		}
		cnt[fam, status]++; tot[status]++
		if (status == "missing") next
		if (match(api, /`[A-Za-z_][A-Za-z0-9_]*`/) == 0) {
			print "F: " status " row without an identifier: " $0; next
		}
		id = substr(api, RSTART + 1, RLENGTH - 2)
		if (!(id in declared))
			print "F: " status " " id " is not declared in the emulation headers"
		if (status == "emulated" && note !~ /Exercised by [^ ]/)
			print "F: emulated " id " names no test or answer exercising it"
	}
	/^Overall: / { overall = $0 }
	END {
		if (nf < 40) print "F: only " nf " families"
		if (rows < 800) print "F: only " rows " API rows"
		E = P = M = 0
		for (i = 1; i <= nf; i++) {
			f = order[i]
			e = cnt[f, "emulated"] + 0; p = cnt[f, "partial"] + 0; m = cnt[f, "missing"] + 0
			E += e; P += p; M += m
			if (!(f in sum)) { print "F: family " f " has no summary row"; continue }
			figures(f, e, p, m)
		}
		for (k in sum) if (k != "all" && !(k in seen)) print "F: summary row " k " has no family"
		if (!("all" in sum)) print "F: no overall summary row"
		else figures("all", E, P, M)
		T = E + P + M
		want = sprintf("Overall: **%d emulated, %d partial, %d missing** of %d APIs: %d%% emulated, %d%% with partial.",
			E, P, M, T, int(100 * E / T + 0.5), int(100 * (E + P) / T + 0.5))
		if (overall != want) print "F: the Overall line says \"" overall "\", the rows give \"" want "\""
	}
	function figures(k, e, p, m,   t) {
		t = e + p + m
		if (se[k] != e || sp[k] != p || sm[k] != m || st[k] != t)
			print "F: " k " summary says " se[k] "/" sp[k] "/" sm[k] " of " st[k] ", the rows give " e "/" p "/" m " of " t
		if (s1[k] != int(100 * e / t + 0.5) "%" || s2[k] != int(100 * (e + p) / t + 0.5) "%")
			print "F: " k " shares " s1[k] " " s2[k] " do not follow from " e "/" p "/" m
	}' "$1"
}

check "$doc" >"$tmp/out"
if [ -s "$tmp/out" ]; then bad "API.md is inconsistent:"; cat "$tmp/out"; else ok; fi
echo "api-doc: $(grep '^Overall: ' "$doc")"

# The tests a row names exist: suite::name is a Criterion Test(suite, name)
# of the cpusim tests, test_ophost its program, levels/... an answer folder.
grep -h -o -E '^Test\([a-z_0-9]+, *[a-z_0-9]+' "$src"/tests/cpusim/*.cpp "$src"/tests/unit/test_cpusim*.c |
	sed 's/^Test(//; s/, */::/' | sort -u >"$tmp/tests"
[ "$(wc -l <"$tmp/tests")" -ge 100 ] && ok || bad "too few cpusim tests read: $(wc -l <"$tmp/tests")"
grep -o -E 'Exercised by [^|]*' "$doc" | grep -o -E '[a-z_0-9]+::[a-z_0-9]+|test_ophost|levels/[^ ,.]+' |
	sort -u >"$tmp/named"
[ "$(wc -l <"$tmp/named")" -ge 50 ] && ok || bad "too few tests named by emulated rows: $(wc -l <"$tmp/named")"
while read -r t; do
	case $t in
	test_ophost) [ -s "$src/tests/cpusim/test_ophost.cpp" ] && ok || bad "no tests/cpusim/test_ophost.cpp" ;;
	levels/*) [ -d "$src/$t" ] && ok || bad "API.md names $t, which does not exist" ;;
	*) grep -qxF "$t" "$tmp/tests" && ok || bad "API.md names the test $t, which does not exist" ;;
	esac
done <"$tmp/named"

# Broken on purpose: the first missing row that names no declared
# identifier is marked emulated (with a made-up test), the counts left as
# they are; the checker must name the identifier.
line=$(awk -v words="$tmp/words" 'BEGIN { while ((getline w < words) > 0) d[w] = 1 }
	/^### F/ { in_f = 1 } in_f && /\| missing \|/ && match($0, /^\| [A-Za-z_][A-Za-z0-9_]*/) {
		id = substr($0, 3, RLENGTH - 2); if (!(id in d)) { print NR " " id; exit } }' "$doc")
set -- $line
[ $# -eq 2 ] && ok || bad "no missing row with an undeclared name to break"
if [ $# -eq 2 ]; then
	awk -v n="$1" -v id="$2" 'NR == n { $0 = "| `" id "` | emulated | Exercised by nothing_real. |" } { print }' \
		"$doc" >"$tmp/broken1.md"
	check "$tmp/broken1.md" >"$tmp/out1"
	grep -q "emulated $2 is not declared" "$tmp/out1" && ok || bad "a missing $2 marked emulated passes"
	grep -q "summary says" "$tmp/out1" && ok || bad "a row's changed status leaves the figures matching"
fi

# Broken on purpose: one more emulated API in the first family's figures.
awk '!done && /^\| F1 \|/ { split($0, c, "|"); $0 = "| F1 |" c[3] "| " c[4] + 1 " |" c[5] "|" c[6] "|" c[7] "|" c[8] "|" c[9] "|"; done = 1 } { print }' \
	"$doc" >"$tmp/broken2.md"
check "$tmp/broken2.md" >"$tmp/out2"
grep -q "^F: F1 summary says" "$tmp/out2" && ok || bad "a changed F1 figure passes"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
