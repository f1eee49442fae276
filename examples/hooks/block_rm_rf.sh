#!/bin/sh
# PreToolUse hook for Bash: block recursive forced deletes (rm -rf, rm -fr, rm -r -f ...).
#
# Works unchanged in Claude Code, Deep Agents Code, Docker Agent and agent_hooks:
# the hook payload (JSON) arrives on stdin; exit 2 blocks the call and stderr is
# the reason the model reads; exit 0 says nothing. Plain sh + grep, no jq.
#
# The payload is compact JSON, so the command text appears in it verbatim; the
# check looks at the whole payload, which errs on the safe side.

payload=$(cat)

# rm, then options that include both r (or R) and f: together (-rf, -fR), apart
# (-r -f, -f -R), or the long forms.
rm='(^|[^[:alnum:]_-])rm[[:space:]]+'
opts='(-[[:alpha:]]*[[:space:]]+)*'
r='-[[:alpha:]]*[rR][[:alpha:]]*'
f='-[[:alpha:]]*f[[:alpha:]]*'
pattern="$rm$opts-[[:alpha:]]*([rR][[:alpha:]]*f|f[[:alpha:]]*[rR])"
pattern="$pattern|$rm$opts$r[[:space:]]+$opts$f|$rm$opts$f[[:space:]]+$opts$r"
pattern="$pattern|$rm.*(--recursive.*--force|--force.*--recursive)"

if printf '%s' "$payload" | grep -Eq "$pattern"; then
  echo "Blocked by block_rm_rf.sh: recursive forced deletes (rm -rf) are not allowed; delete specific files instead." >&2
  exit 2
fi
exit 0
