#!/bin/sh
# npukb-docs.sh NPUKB OUTDIR - the man pages and the bash completion, made
# from the same text `--help` prints, so they cannot drift from it:
#   OUTDIR/man/npukb.1          from `npukb --help`
#   OUTDIR/man/npukb-CMD.1      from `npukb help CMD`, one per command
#   OUTDIR/completions/npukb    bash completion: the commands, and each
#                               command's options (the option lines of its
#                               --help: "  -o, --output DIR ...")
# The commands are those listed under "Commands:" in `npukb --help`.
set -eu
npukb=$1
out=$2
mkdir -p "$out/man" "$out/completions"
version=$("$npukb" --version | sed -n '1s/^npukb \([^ ]*\).*/\1/p')

# the command names: "  run        judge ..." lines after "Commands:"
commands() {
	"$npukb" --help | sed -n '/^Commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'
}

# the options a help text offers: the option lines ("  -o, --output DIR",
# "  --level N"), short and long names
options() {
	sed -n '1{s/^Usage: //;s/[^-]*\(-[-a-zA-Z0-9]*\)/\1 /gp;}
		s/^  *\(-[A-Za-z0-9]\), \(--[a-z][a-z0-9-]*\).*/\1 \2/p
		s/^  *\(--[a-z][a-z0-9-]*\).*/\1/p
		s/.*;  *\(-[A-Za-z0-9]\), \(--[a-z][a-z0-9-]*\).*/\1 \2/p' |
		tr ' ' '\n' | grep -E '^(-[A-Za-z0-9]|--[a-z][a-z0-9-]*)$' | sort -u
}

# help text -> troff: no-fill so its columns stay as --help shows them;
# backslashes, leading dots and quotes, and hyphens escaped
troff_body() {
	sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
}

man_page() { # name section-title help-file
	name=$1
	help=$3
	synopsis=$(sed -n '1s/^Usage: //p' "$help")
	summary=$(sed -n '2p' "$help" | sed 's/\.$//')
	{
		printf '.TH %s 1 "" "npukb %s" "npukb manual"\n' "$2" "$version"
		printf '.SH NAME\n%s \\- %s\n' "$name" "$(printf '%s' "$summary" | troff_body)"
		printf '.SH SYNOPSIS\n.nf\n%s\n.fi\n' "$(printf '%s' "$synopsis" | troff_body)"
		printf '.SH DESCRIPTION\n.nf\n'
		sed '1d' "$help" | troff_body
		printf '.fi\n.SH SEE ALSO\n'
		if [ "$name" = npukb ]; then
			for c in $(commands | grep -vx help); do printf '.BR npukb\\-%s (1)\n' "$c"; done
		else
			printf '.BR npukb (1)\n'
		fi
	} >"$out/man/$name.1"
}

tmp=$(mktemp "${TMPDIR:-/tmp}/npukb-docs-XXXXXX")
trap 'rm -f "$tmp"' EXIT
"$npukb" --help >"$tmp"
man_page npukb NPUKB "$tmp"
cmds=$(commands)
# "help" is `npukb --help` and `npukb help CMD`: no page, no options of its own
pages=$(echo "$cmds" | grep -vx help)
for c in $pages; do
	"$npukb" help "$c" >"$tmp"
	man_page "npukb-$c" "NPUKB-$(echo "$c" | tr a-z A-Z)" "$tmp"
done

{
	echo '# bash completion for npukb; generated from `npukb --help` and each'
	echo '# `npukb help COMMAND` by scripts/npukb-docs.sh.'
	echo '_npukb() {'
	echo '	local cur cmd opts'
	echo '	cur=${COMP_WORDS[COMP_CWORD]}'
	printf '\tlocal commands="%s"\n' "$(echo $cmds)"
	echo '	if [ "$COMP_CWORD" -eq 1 ]; then'
	echo '		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))'
	echo '		return 0'
	echo '	fi'
	echo '	cmd=${COMP_WORDS[1]}'
	echo '	if [ "$cmd" = help ] && [ "$COMP_CWORD" -eq 2 ]; then'
	echo '		COMPREPLY=($(compgen -W "$commands" -- "$cur"))'
	echo '		return 0'
	echo '	fi'
	echo '	case $cmd in'
	# and the options `npukb --help` gives every command
	common=$("$npukb" --help | sed -n '/^Options for every command:/,/^$/p' | sed 1d | options)
	for c in $pages; do
		printf '\t%s) opts="%s" ;;\n' "$c" \
			"$( ("$npukb" help "$c" | options; echo "$common") | sort -u | tr '\n' ' ' | sed 's/ $//')"
	done
	echo '	*) opts="" ;;'
	echo '	esac'
	echo '	case $cur in'
	echo '	-*) COMPREPLY=($(compgen -W "$opts" -- "$cur")) ;;'
	echo '	*) COMPREPLY=($(compgen -f -- "$cur")) ;;'
	echo '	esac'
	echo '	return 0'
	echo '}'
	echo 'complete -o filenames -F _npukb npukb'
} >"$out/completions/npukb"
