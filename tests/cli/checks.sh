# checks.sh - assertions shared by the CLI tests (sourced; needs $tmp).
# Each counts into $pass/$fail and prints what it saw when it fails.
pass=0
fail=0

check() { # name expected-status command...
	name=$1 want=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $name: exit $got, expected $want"
		sed 's/^/  out: /' "$tmp/out" | head -20
		sed 's/^/  err: /' "$tmp/err" | head -20
	fi
}

grep_out() { # name pattern file
	if grep -q -- "$2" "$3"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $1: '$2' not in $3:"
		head -20 "$3" | sed 's/^/  /'
	fi
}

no_grep() { # name pattern file-or-folder...: the pattern is in none of them
	name=$1 pat=$2
	shift 2
	if grep -rlq -- "$pat" "$@"; then
		fail=$((fail + 1))
		echo "FAIL: $name: '$pat' found in:"
		grep -rl -- "$pat" "$@" | sed 's/^/  /'
	else
		pass=$((pass + 1))
	fi
}

verdicts() { # journal: "task sample case stage outcome" per verdict, in order
	sed -n 's/^{"type":"verdict",.*"task":\("[^"]*"\),"sample":\("[^"]*"\),"case":\(null\|"[^"]*"\),"stage":\("[^"]*"\),"outcome":\("[^"]*"\),.*/\1 \2 \3 \4 \5/p' "$1"
}

unitrecs() { # journal: its unit records without the run id, in order
	sed -n 's/^{"type":"unit","run":"[^"]*",\(.*\)/\1/p' "$1"
}

units() { # journal: its units "task sample", once each, in order
	verdicts "$1" | cut -d' ' -f1,2 | uniq
}
