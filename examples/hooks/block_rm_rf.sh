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

# rm, then options that include both r (or R) and f, together (-rf, -fR) or apart (-r -f),
# or the long forms.
opt='-[[:alpha:]]*'
pattern="(^|[^[:alnum:]_-])rm[[:space:]]+($opt[[:space:]]+)*-[[:alpha:]]*([rR][[:alpha:]]*f|f[[:alpha:]]*[rR])"
pattern="$pattern|(^|[^[:alnum:]_-])rm[[:space:]]+($opt[[:space:]]+)*-[[:alpha:]]*[rR][[:alpha:]]*[[:space:]]+($opt[[:space:]]+)*-[[:alpha:]]*f"
pattern="$pattern|(^|[^[:alnum:]_-])rm[[:space:]].*(--recursive.*--force|--force.*--recursive)"

if printf '%s' "$payload" | grep -Eq "$pattern"; then
  echo "Blocked by block_rm_rf.sh: recursive forced deletes (rm -rf) are not allowed; delete specific files instead." >&2
  exit 2
fi
exit 0
